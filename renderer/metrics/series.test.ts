import { describe, expect, it } from 'vitest';
import type { HistogramData } from '../../shared/metrics/prom-math.ts';
import {
  gapFor,
  gaugeSeries,
  isIsolated,
  lastValue,
  quantileSeries,
  rangeDelta,
  rateSeries,
  ratioSeries,
  resolutionFor,
  stepAnchors,
  valueAt,
} from './series.ts';

const h = (c01: number, c05: number, cInf: number, sum = 0): HistogramData => ({
  buckets: [
    { le: 0.1, count: c01 },
    { le: 0.5, count: c05 },
    { le: Infinity, count: cInf },
  ],
  sum,
  count: cInf,
});

const ALL = { startMs: 0, endMs: 1e12 };

describe('stepAnchors', () => {
  it('uses every scrape at resolution 0, keeping one baseline before the window', () => {
    expect(stepAnchors([0, 1000, 2000, 3000, 4000], { startMs: 2500, endMs: 4000 })).toEqual([2, 3, 4]);
    expect(stepAnchors([0, 1000, 2000], { startMs: 0, endMs: 1500 })).toEqual([0, 1]);
  });

  it('ends a step at the last scrape of each clock-aligned slot', () => {
    const times = Array.from({ length: 10 }, (_, i) => i * 1000);
    // Slots of 3 s: [0,3) [3,6) [6,9) [9,12): last scrapes 2000, 5000, 8000, 9000; the first
    // scrape starts the first step.
    expect(stepAnchors(times, { ...ALL, resolutionMs: 3000 })).toEqual([0, 2, 5, 8, 9]);
  });

  it('keeps ≤ 300 steps per window', () => {
    expect(resolutionFor(60_000)).toBe(0);
    expect(resolutionFor(300_000)).toBe(0);
    expect(resolutionFor(900_000)).toBe(3000);
  });
});

describe('quantileSeries', () => {
  const pts = [
    { t: 1000, h: h(0, 0, 0) },
    { t: 2000, h: h(2, 4, 4) },
    { t: 3000, h: h(2, 4, 4) },
    { t: 4000, h: h(1, 1, 1) }, // the server restarted
  ];

  it('interpolates inside the bucket of each interval, Prometheus style, in ms', () => {
    const s = quantileSeries(pts, [0.5, 0.99], { ...ALL, scale: 1000 });
    expect(s.map((p) => p.t)).toEqual([2000, 3000, 4000]);
    // 2 of 4 observations ≤ 0.1 s: rank 2 → the top of the first bucket, 100 ms.
    expect(s[0]!.q[0]).toBeCloseTo(100, 9);
    // rank 3.96: second bucket (0.1, 0.5], 1.96 of its 2 → 100 + 400 × 0.98 = 492 ms.
    expect(s[0]!.q[1]).toBeCloseTo(492, 9);
    expect(s[0]!.count).toBe(4);
  });

  it('says "no observations" (null, count 0) for an empty interval instead of 0', () => {
    const s = quantileSeries(pts, [0.5], { ...ALL, scale: 1000 });
    expect(s[1]).toEqual({ t: 3000, q: [null], count: 0, wide: [null] });
  });

  it('takes a reset as a fresh start: the later histogram is the delta', () => {
    const s = quantileSeries(pts, [0.5], { ...ALL, scale: 1000 });
    // 1 observation ≤ 0.1 s: rank 0.5 → 0.1 × 0.5 = 50 ms.
    expect(s[2]!.q[0]).toBeCloseTo(50, 9);
    expect(s[2]!.count).toBe(1);
  });

  it('draws nothing across a gap in the scrapes', () => {
    const s = quantileSeries([pts[0]!, { t: 9000, h: h(2, 4, 4) }], [0.5], { ...ALL, gapMs: 5000 });
    expect(s).toEqual([{ t: 9000, q: [null], count: null }]);
  });

  it('merges the intervals of a wider step before taking the quantile', () => {
    const s = quantileSeries(pts.slice(0, 3), [0.5], { ...ALL, resolutionMs: 10_000, scale: 1000 });
    // One step from 1000 to 3000: same 4 observations.
    expect(s).toHaveLength(1);
    expect(s[0]!.q[0]).toBeCloseTo(100, 9);
  });
});

describe('rangeDelta', () => {
  it('sums consecutive deltas so a reset inside the range loses nothing', () => {
    const d = rangeDelta(
      [
        { t: 0, h: h(1, 1, 1, 0.05) },
        { t: 1, h: h(3, 5, 6, 2) },
        { t: 2, h: h(1, 2, 2, 0.5) }, // reset
      ],
      0,
      2,
    )!;
    // (3−1, 5−1, 6−1) + (1, 2, 2) = (3, 6, 7)
    expect(d.buckets.map((b) => b.count)).toEqual([3, 6, 7]);
    expect(d.count).toBe(7);
    expect(d.sum).toBeCloseTo(1.95 + 0.5, 9);
  });

  it('is null when the histogram is missing or the range empty', () => {
    expect(
      rangeDelta(
        [
          { t: 0, h: null },
          { t: 1, h: h(1, 1, 1) },
        ],
        0,
        1,
      ),
    ).toBeNull();
    expect(rangeDelta([{ t: 0, h: h(1, 1, 1) }], 0, 0)).toBeNull();
  });
});

describe('rateSeries', () => {
  it('gives per-second rates across a reset, null where a value is missing', () => {
    const s = rateSeries(
      [
        { t: 0, v: 10 },
        { t: 1000, v: 20 },
        { t: 2000, v: 5 },
        { t: 3000, v: null },
        { t: 4000, v: 7 },
      ],
      ALL,
    );
    expect(s).toEqual([
      { t: 1000, v: 10 },
      { t: 2000, v: 5 }, // reset: 5 since the restart
      { t: 3000, v: null },
      { t: 4000, v: null },
    ]);
  });

  it('spans a wider step with one rate', () => {
    const pts = Array.from({ length: 10 }, (_, i) => ({ t: i * 1000, v: i * 10 }));
    const s = rateSeries(pts, { ...ALL, resolutionMs: 3000 });
    expect(s).toEqual([
      { t: 2000, v: 10 },
      { t: 5000, v: 10 },
      { t: 8000, v: 10 },
      { t: 9000, v: 10 },
    ]);
  });
});

describe('gaugeSeries', () => {
  it('keeps the samples in the window and breaks the line at a gap', () => {
    const s = gaugeSeries(
      [
        { t: 0, v: 1 },
        { t: 1000, v: 2 },
        { t: 2000, v: 3 },
        { t: 12_000, v: 4 },
      ],
      { startMs: 500, endMs: 20_000 },
    );
    expect(s).toEqual([
      { t: 1000, v: 2 },
      { t: 2000, v: 3 },
      { t: 7000, v: null },
      { t: 12_000, v: 4 },
    ]);
  });
});

describe('gap threshold follows the scrape cadence', () => {
  it('5 s at a 1 s cadence; 2.5 intervals at a slow one (Prometheus every 15 s)', () => {
    expect(gapFor([])).toBe(5000);
    expect(gapFor([0, 1000, 2000, 3000])).toBe(5000);
    expect(gapFor([0, 15_000, 30_000, 45_000, 60_000])).toBe(37_500);
    // The usual interval is a median: one long outage does not stretch it.
    expect(gapFor([0, 15_000, 30_000, 45_000, 200_000, 215_000])).toBe(37_500);
  });

  it('a target read through Prometheus every 15 s is drawn, and a real outage still breaks the line', () => {
    const pts = [0, 15_000, 30_000, 45_000, 60_000, 75_000, 90_000, 200_000, 215_000].map((t) => ({
      t,
      v: t / 1000,
    }));
    const g = gaugeSeries(pts, ALL);
    expect(g.filter((p) => p.v !== null).length).toBe(pts.length);
    expect(g.filter((p) => p.v === null)).toEqual([{ t: 145_000, v: null }]);
    const r = rateSeries(pts, ALL);
    expect(r.filter((p) => p.v === 1).length).toBe(7);
    expect(r.find((p) => p.t === 200_000)?.v).toBeNull();
  });
});

describe('rows', () => {
  it('finds points a line cannot show', () => {
    const rows = [{ a: null }, { a: 5 }, { a: null }, { a: 1 }, { a: 2 }];
    expect([0, 1, 2, 3, 4].map((i) => isIsolated(rows, 'a', i))).toEqual([false, true, false, false, false]);
    expect(isIsolated([{ a: 3 }], 'a', 0)).toBe(true);
  });

  it('finds the last value', () => {
    expect(
      lastValue([
        { t: 1, v: 3 },
        { t: 2, v: null },
      ]),
    ).toBe(3);
    expect(lastValue([])).toBeNull();
  });
});

describe('ratioSeries', () => {
  it('divides the increases of two counters per step, null when the denominator stood still', () => {
    const hits = [0, 5, 5, 9].map((v, i) => ({ t: i * 1000, v }));
    const queries = [0, 10, 10, 10].map((v, i) => ({ t: i * 1000, v }));
    expect(ratioSeries(hits, queries, { ...ALL, scale: 100 })).toEqual([
      { t: 1000, v: 50 },
      { t: 2000, v: null },
      { t: 3000, v: null },
    ]);
  });
});

describe('valueAt', () => {
  const d = [
    { t: 1000, v: 1 },
    { t: 2000, v: null },
    { t: 3000, v: 3 },
  ];
  it('takes the nearest point within the tolerance', () => {
    expect(valueAt(d, 2900, 500)).toBe(3);
    expect(valueAt(d, 2100, 500)).toBeNull();
    expect(valueAt(d, 5000, 500)).toBeUndefined();
  });
  it('holds the last value of a step series', () => {
    expect(valueAt(d, 1999, 0, true)).toBe(1);
    expect(valueAt(d, 9999, 0, true)).toBe(3);
    expect(valueAt(d, 500, 0, true)).toBeUndefined();
  });
});
