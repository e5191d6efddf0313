import { describe, expect, it } from 'vitest';
import { binValues, binValuesLog, binsPreferLogX, decadesSpanned, preferLogX } from './histogram-bins.ts';

describe('binValues', () => {
  it('uses round edges and counts every value exactly once', () => {
    const values = [10.2, 11.9, 12.0, 13.5, 19.99, 20.1];
    const bins = binValues(values, { target: 5 });
    expect(bins[0]!.x0).toBe(10);
    const step = bins[0]!.x1 - bins[0]!.x0;
    expect(step).toBe(2);
    for (const b of bins) expect(b.x1 - b.x0).toBeCloseTo(step, 9);
    expect(bins.reduce((a, b) => a + b.count, 0)).toBe(values.length);
    // [10,12): 10.2, 11.9   [12,14): 12.0, 13.5   [18,20): 19.99   [20,22): 20.1
    expect(bins.map((b) => b.count)).toEqual([2, 2, 0, 0, 1, 1]);
  });

  it('keeps empty bins in the middle', () => {
    const bins = binValues([0, 0.5, 9.5], { target: 10 });
    expect(bins.some((b) => b.count === 0)).toBe(true);
    expect(bins[bins.length - 1]!.x1).toBeGreaterThan(9.5);
  });

  it('puts extreme outliers into one overflow bin instead of squashing the rest', () => {
    const values = [...Array.from({ length: 200 }, (_, i) => 20 + (i % 10)), 5000];
    const bins = binValues(values, { target: 10 });
    const last = bins[bins.length - 1]!;
    expect(last.overflow).toBe(true);
    expect(last.count).toBe(1);
    expect(last.x1).toBe(Infinity);
    // The regular bins stay narrow (10 ms) instead of 500 ms wide with everything in the first.
    expect(bins[0]!.x1 - bins[0]!.x0).toBeLessThanOrEqual(10);
    expect(bins.filter((b) => !b.overflow && b.count > 0).length).toBeGreaterThan(1);
    expect(bins.reduce((a, b) => a + b.count, 0)).toBe(201);
  });

  it('handles one value and identical values', () => {
    expect(binValues([])).toEqual([]);
    const one = binValues([42]);
    expect(one).toHaveLength(1);
    expect(one[0]!.count).toBe(1);
    expect(one[0]!.x0).toBeLessThanOrEqual(42);
    expect(one[0]!.x1).toBeGreaterThan(42);
    const same = binValues([3, 3, 3]);
    expect(same.reduce((a, b) => a + b.count, 0)).toBe(3);
  });
});

describe('log bins', () => {
  // 4,598 gaps: 4,000 between 2 and 20 ms, a tail up to 1.4 s (the llama.cpp stream).
  const gaps: number[] = [];
  for (let i = 0; i < 4000; i++) gaps.push(2 + (18 * i) / 4000);
  for (let i = 0; i < 598; i++) gaps.push(20 + (1380 * i) / 597);

  it('spreads the bulk over many bars where linear bins put it in one', () => {
    const lin = binValues(gaps);
    expect(Math.max(...lin.map((b) => b.count))).toBeGreaterThanOrEqual(4000);
    const log = binValuesLog(gaps);
    expect(log.reduce((s, b) => s + b.count, 0)).toBe(4598);
    expect(Math.max(...log.map((b) => b.count))).toBeLessThan(1500);
    // Decades start a bin: 10, 100, 1000 ms are edges.
    for (const d of [10, 100, 1000]) expect(log.some((b) => b.x0 === d)).toBe(true);
    expect(log[log.length - 1]!.x1).toBeGreaterThan(1400);
  });

  it('is chosen over ~2 decades, from the values or from the bins', () => {
    expect(decadesSpanned(gaps)).toBeGreaterThan(2);
    expect(preferLogX(gaps)).toBe(true);
    expect(binsPreferLogX(binValuesLog(gaps))).toBe(true);
    const narrow = Array.from({ length: 500 }, (_, i) => 10 + i / 10);
    expect(preferLogX(narrow)).toBe(false);
    expect(binsPreferLogX(binValuesLog(narrow))).toBe(false);
  });

  it('puts zeros in a first bin from 0', () => {
    const b = binValuesLog([0, 0, 1, 10]);
    expect(b[0]).toEqual({ x0: 0, x1: 1, count: 2, overflow: false });
  });
});
