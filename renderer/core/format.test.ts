import { describe, expect, it } from 'vitest';
import { fmtCompact, fmtLatency, fmtLatencyDiff, fmtTick, fmtWithUnit } from './format.ts';

describe('metrics number formats', () => {
  it('keeps latencies readable from µs to minutes', () => {
    expect(fmtLatency(8.4)).toBe('8.40 ms');
    expect(fmtLatency(84)).toBe('84.0 ms');
    expect(fmtLatency(840.4)).toBe('840 ms');
    expect(fmtLatency(8400)).toBe('8.40 s');
    expect(fmtLatency(84_000)).toBe('84.0 s');
    expect(fmtLatency(null)).toBe('—');
    expect(fmtLatencyDiff(12.34)).toBe('+12.3 ms');
    expect(fmtLatencyDiff(-4)).toBe('−4.00 ms');
  });

  it('prints counts and rates compactly', () => {
    expect(fmtCompact(0)).toBe('0');
    expect(fmtCompact(0.1234)).toBe('0.12');
    expect(fmtCompact(3.14159)).toBe('3.14');
    expect(fmtCompact(12.34)).toBe('12.3');
    expect(fmtCompact(123.45)).toBe('123');
    expect(fmtCompact(200)).toBe('200');
    expect(fmtCompact(60)).toBe('60');
    expect(fmtCompact(3)).toBe('3');
    expect(fmtCompact(1234.5)).toBe('1,235');
    expect(fmtCompact(12_345_678)).toBe('12.3M');
    expect(fmtWithUnit(41.25, '%')).toBe('41.3 %');
    expect(fmtWithUnit(512, 'tok/s')).toBe('512 tok/s');
    expect(fmtWithUnit(2.5, '/s')).toBe('2.50/s');
    expect(fmtWithUnit(2, '/s')).toBe('2/s');
    expect(fmtWithUnit(null, 'tok/s')).toBe('—');
  });

  it('keeps tick labels short', () => {
    expect(fmtTick(0.25)).toBe('0.25');
    expect(fmtTick(1500)).toBe('1500');
    expect(fmtTick(25_000)).toBe('25k');
    expect(fmtTick(2_500_000)).toBe('2.5M');
    // One suffix per axis.
    expect(fmtTick(5000, 10_000)).toBe('5k');
    expect(fmtTick(0, 10_000)).toBe('0');
    expect(fmtTick(500_000, 1_000_000)).toBe('0.5M');
  });
});
