import { describe, expect, it } from 'vitest';
import { binValues } from './histogram-bins.ts';

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
