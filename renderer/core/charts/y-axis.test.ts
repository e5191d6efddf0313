import { describe, expect, it } from 'vitest';
import { peakOf, yAxis } from './y-axis.ts';

describe('yAxis', () => {
  it('rounds the top up to a nice step just above the peak', () => {
    expect(yAxis(0.22)).toEqual({ top: 0.3, ticks: [0, 0.1, 0.2, 0.3] });
    expect(yAxis(59)).toEqual({ top: 60, ticks: [0, 20, 40, 60] });
    expect(yAxis(4960)).toEqual({ top: 6000, ticks: [0, 2000, 4000, 6000] });
  });

  it('uses whole steps for counts', () => {
    expect(yAxis(3, { integer: true })).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    expect(yAxis(7, { integer: true })).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(yAxis(0, { integer: true })).toEqual({ top: 4, ticks: [0, 1, 2, 3, 4] });
  });

  it('keeps a fixed top (0–100 %)', () => {
    expect(yAxis(12, { max: 100 })).toEqual({ top: 100, ticks: [0, 25, 50, 75, 100] });
  });

  it('has an axis when there is no data', () => {
    expect(yAxis(0)).toEqual({ top: 1, ticks: [0, 0.5, 1] });
    expect(yAxis(NaN).top).toBe(1);
  });

  it('finds the peak, ignoring gaps', () => {
    expect(peakOf([{ data: [{ v: 1 }, { v: null }] }, { data: [{ v: 7 }] }])).toBe(7);
    expect(peakOf([])).toBe(0);
  });
});
