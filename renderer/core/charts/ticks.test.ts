import { describe, expect, it } from 'vitest';
import { binAxisTicks, decimalsOf, formatTick, niceStep, niceTicks } from './ticks.ts';

describe('niceStep', () => {
  it('rounds up to 1, 2 or 5 × 10^k', () => {
    expect(niceStep(0.7)).toBe(1);
    expect(niceStep(1.3)).toBe(2);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(7)).toBe(10);
    expect(niceStep(180)).toBe(200);
    expect(niceStep(0.03)).toBeCloseTo(0.05, 12);
  });
  it('survives nonsense', () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(-5)).toBe(1);
    expect(niceStep(Infinity)).toBe(1);
  });
});

describe('niceTicks', () => {
  it('covers the range with round values', () => {
    const t = niceTicks(0, 1000, 5);
    expect(t.step).toBe(200);
    expect(t.values).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(t.decimals).toBe(0);
  });
  it('stays inside the range when the ends are not round', () => {
    const t = niceTicks(13, 97, 4);
    expect(t.step).toBe(50);
    expect(t.values).toEqual([50]);
    const u = niceTicks(13, 97, 8);
    expect(u.step).toBe(20);
    expect(u.values).toEqual([20, 40, 60, 80]);
  });
  it('gives exact decimal ticks for sub-millisecond zooms (no float drift)', () => {
    const t = niceTicks(10.1, 10.5, 4);
    expect(t.step).toBeCloseTo(0.1, 12);
    expect(t.values).toEqual([10.1, 10.2, 10.3, 10.4, 10.5]);
    expect(t.decimals).toBe(1);
  });
  it('never returns a huge number of ticks', () => {
    for (const [a, b] of [
      [0, 1],
      [0, 7],
      [3, 3.0001],
      [0, 123456],
    ] as const) {
      const t = niceTicks(a, b, 6);
      expect(t.values.length).toBeGreaterThan(0);
      expect(t.values.length).toBeLessThanOrEqual(13);
      for (const v of t.values) {
        expect(v).toBeGreaterThanOrEqual(a - 1e-9);
        expect(v).toBeLessThanOrEqual(b + 1e-9);
      }
    }
  });
  it('handles an empty range', () => {
    expect(niceTicks(5, 5).values).toEqual([5]);
  });
});

describe('formatTick', () => {
  it('prints the decimals of the step and separates thousands', () => {
    expect(decimalsOf(0.05)).toBe(2);
    expect(decimalsOf(20)).toBe(0);
    expect(formatTick(0.1, 2)).toBe('0.10');
    expect(formatTick(250, 0)).toBe('250');
    expect(formatTick(12000, 0)).toBe('12,000');
  });
});

describe('niceTicks on a range that is only float noise', () => {
  it('returns at once with one tick instead of looping forever', () => {
    const t = niceTicks(19.999999999999996, 20.000000000000004);
    expect(t.values).toEqual([20]);
    // Ordinary tiny ranges still get their ticks.
    expect(niceTicks(0, 1e-6, 5).values.length).toBeGreaterThan(3);
  });
});

describe('binAxisTicks', () => {
  const bins = (x0: number, w: number, n: number, overflow = false) => [
    ...Array.from({ length: n }, (_, i) => ({ x0: x0 + i * w, x1: x0 + (i + 1) * w, overflow: false })),
    ...(overflow ? [{ x0: x0 + n * w, x1: Infinity, overflow: true }] : []),
  ];

  it('labels bins on one regular nice step, never an irregular pick', () => {
    const b = bins(0, 500, 19); // 0 … 9500 ms
    const at = binAxisTicks(b).map((i) => b[i]!.x0);
    expect(at).toEqual([0, 2000, 4000, 6000, 8000]);
    const gaps = at.slice(1).map((v, i) => v - at[i]!);
    expect(new Set(gaps).size).toBe(1);
  });

  it('keeps decimal ranges regular (20.5 … 24 → every 1) and always labels the overflow bin', () => {
    const b = bins(20.5, 0.1, 35, true);
    const at = binAxisTicks(b).map((i) => (b[i]!.overflow ? 'overflow' : +b[i]!.x0.toFixed(1)));
    expect(at).toEqual([21, 22, 23, 'overflow']);
    expect(
      binAxisTicks(b, 12)
        .map((i) => +b[i]!.x0.toFixed(1))
        .slice(0, 3),
    ).toEqual([20.5, 21, 21.5]);
  });

  it('a step smaller than a bin falls back to every bin', () => {
    const b = bins(0, 5, 3);
    expect(binAxisTicks(b, 10)).toEqual([0, 1, 2]);
  });
});
