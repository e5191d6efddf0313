import { describe, expect, it } from 'vitest';
import { cdfDomain } from './run-compare.ts';
import { cdfFromValues } from '../../../shared/runs/summary/distributions.ts';

describe('cdfFromValues', () => {
  it('is the empirical CDF: sorted values against their percentile, min and max kept', () => {
    expect(cdfFromValues([30, 10, 20, 40])).toEqual([
      { v: 10, p: 25 },
      { v: 20, p: 50 },
      { v: 30, p: 75 },
      { v: 40, p: 100 },
    ]);
    expect(cdfFromValues([])).toEqual([]);
    expect(cdfFromValues([NaN, 5])).toEqual([{ v: 5, p: 100 }]);
  });

  it('thins a large sample to about maxPoints, monotone, ending at the maximum', () => {
    const xs = Array.from({ length: 10_001 }, (_, i) => (i * 7919) % 10_001);
    const c = cdfFromValues(xs, 100);
    expect(c.length).toBeLessThanOrEqual(103);
    expect(c[0]).toEqual({ v: 0, p: 100 / 10_001 });
    expect(c[c.length - 1]).toEqual({ v: 10_000, p: 100 });
    for (let i = 1; i < c.length; i++) {
      expect(c[i]!.v).toBeGreaterThanOrEqual(c[i - 1]!.v);
      expect(c[i]!.p).toBeGreaterThan(c[i - 1]!.p);
    }
    // Each point is exact: its percentile is the share of values at or below it.
    const mid = c[Math.floor(c.length / 2)]!;
    expect((xs.filter((x) => x <= mid.v).length / xs.length) * 100).toBeCloseTo(mid.p, 9);
  });
});

describe('cdfDomain', () => {
  it('spans the data in whole nice steps, not from 0', () => {
    const d = cdfDomain([{ points: [{ v: 20.31 }, { v: 21.1 }] }, { points: [{ v: 20.05 }, { v: 20.6 }] }]);
    expect(d.lo).toBeLessThanOrEqual(20.05);
    expect(d.hi).toBeGreaterThanOrEqual(21.1);
    expect(d.hi - d.lo).toBeLessThan(2);
    expect(d.ticks[0]).toBe(d.lo);
    expect(d.ticks[d.ticks.length - 1]).toBe(d.hi);
    expect(d.ticks.length).toBeGreaterThanOrEqual(3);
    expect(cdfDomain([{ points: [{ v: 1320 }, { v: 1430 }] }])).toMatchObject({ lo: 1300, hi: 1450 });
  });

  it('copes with no data and with a single value', () => {
    expect(cdfDomain([])).toEqual({ lo: 0, hi: 1, ticks: [0, 1] });
    const one = cdfDomain([{ points: [{ v: 50 }] }]);
    expect(one.lo).toBeLessThan(50);
    expect(one.hi).toBeGreaterThan(50);
  });

  it('takes one value written two ways (float noise) as one value, not a 1e-14-wide axis', () => {
    // 32.346 − 12.346 and 52.346 − 32.346: "20 ms" twice, a few ulps apart. niceTicks alone
    // would step 2e-15 at a time from 1e16 and never get there.
    const d = cdfDomain([{ points: [{ v: 19.999999999999996 }, { v: 20.000000000000004 }] }]);
    expect(d).toEqual(cdfDomain([{ points: [{ v: 20 }] }]));
    expect(d.lo).toBeLessThan(20);
    expect(d.hi).toBeGreaterThan(20);
    expect(d.ticks.length).toBeLessThan(12);
  });
});
