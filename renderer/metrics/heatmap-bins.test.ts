import { describe, expect, it } from 'vitest';
import type { HistogramData } from '../../shared/metrics/prom-math.ts';
import { bucketCounts, fmtBound, fmtSecondsBound, heatmapBins, rowLabel, rowRange } from './heatmap-bins.ts';

const h = (a: number, b: number, c: number): HistogramData => ({
  buckets: [
    { le: 0.1, count: a },
    { le: 0.5, count: b },
    { le: Infinity, count: c },
  ],
  sum: 0,
  count: c,
});

const ALL = { startMs: 0, endMs: 1e12 };

describe('heatmapBins', () => {
  it('counts observations per bucket per step (non-cumulative)', () => {
    const m = heatmapBins(
      [
        { t: 0, h: h(0, 0, 0) },
        { t: 1000, h: h(2, 4, 5) },
        { t: 2000, h: h(3, 6, 7) },
      ],
      ALL,
    );
    expect(m.cols).toEqual([
      { t0: 0, t1: 1000 },
      { t0: 1000, t1: 2000 },
    ]);
    expect(m.les).toEqual([0.1, 0.5, Infinity]);
    // Step 1: 2 ≤ 0.1, 2 in (0.1, 0.5], 1 above. Step 2: deltas (1, 2, 2) → 1, 1, 0.
    expect([...m.counts]).toEqual([2, 2, 1, 1, 1, 0]);
    expect(m.max).toBe(2);
  });

  it('leaves out steps over a gap and steps without the histogram', () => {
    const m = heatmapBins(
      [
        { t: 0, h: h(0, 0, 0) },
        { t: 10_000, h: h(1, 1, 1) },
        { t: 11_000, h: null },
        { t: 12_000, h: h(2, 2, 2) },
      ],
      { ...ALL, gapMs: 5000 },
    );
    expect(m.cols).toEqual([]);
    expect(m.max).toBe(0);
  });
});

describe('bucketCounts', () => {
  it('undoes the cumulation', () => {
    expect(bucketCounts(h(2, 5, 6)).map((c) => c.count)).toEqual([2, 3, 1]);
  });
});

describe('labels', () => {
  it('names each row by its bucket range, as durations for seconds', () => {
    const les = [0.1, 0.25, 1, 2.5, Infinity];
    expect(rowLabel(les, 0, true)).toBe('≤ 100 ms');
    expect(rowLabel(les, 1, true)).toBe('100–250 ms');
    expect(rowLabel(les, 2, true)).toBe('250 ms–1 s');
    expect(rowLabel(les, 3, true)).toBe('1–2.5 s');
    expect(rowLabel(les, 4, true)).toBe('> 2.5 s');
    expect(rowLabel([1, 8], 1, false)).toBe('1–8');
  });

  it('prints bounds short', () => {
    expect(fmtBound(0.025)).toBe('0.025');
    expect(fmtBound(16384)).toBe('16.4k');
    expect(fmtBound(Infinity)).toBe('+Inf');
    expect(fmtSecondsBound(0.0005)).toBe('0.5 ms');
    expect(fmtSecondsBound(2560)).toBe('2560 s');
  });
});

describe('rowRange', () => {
  const les = [1, 2, 3, 4, 5, 6, Infinity];
  it('keeps the rows with observations and one on each side', () => {
    const counts = new Float64Array(2 * 7);
    counts[0 * 7 + 3] = 1;
    counts[1 * 7 + 4] = 2;
    expect(
      rowRange({
        cols: [
          { t0: 0, t1: 1 },
          { t0: 1, t1: 2 },
        ],
        les,
        counts,
        max: 2,
      }),
    ).toEqual({ from: 2, to: 5 });
  });

  it('keeps every row when nothing was observed', () => {
    expect(rowRange({ cols: [], les, counts: new Float64Array(0), max: 0 })).toEqual({ from: 0, to: 6 });
  });
});
