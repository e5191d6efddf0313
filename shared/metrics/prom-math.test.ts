import { describe, expect, it } from 'vitest';
import {
  counterIncrease,
  counterRate,
  histogramDelta,
  histogramIncrease,
  histogramQuantile,
  mergeHistograms,
  promIncrease,
  scaleHistogram,
} from './prom-math.ts';

const INF = Infinity;

describe('counter increase and rate across resets', () => {
  // 100 → 150 (+50) → 20 (reset: the counter restarted at 0, so +20) → 50 (+30): 100 in 3 s.
  const pts = [
    { t: 0, v: 100 },
    { t: 1000, v: 150 },
    { t: 2000, v: 20 },
    { t: 3000, v: 50 },
  ];

  it('adds the post-reset value instead of going negative', () => {
    expect(counterIncrease(pts)).toBe(100);
    expect(counterRate(pts)).toBeCloseTo(100 / 3, 12);
  });

  it('a reset to exactly 0 contributes nothing, not a negative jump', () => {
    expect(
      counterIncrease([
        { t: 0, v: 7 },
        { t: 1000, v: 0 },
        { t: 2000, v: 4 },
      ]),
    ).toBe(4);
  });

  it('is NaN with fewer than two points or no elapsed time', () => {
    expect(counterRate([{ t: 0, v: 1 }])).toBeNaN();
    expect(
      counterRate([
        { t: 5, v: 1 },
        { t: 5, v: 2 },
      ]),
    ).toBeNaN();
  });

  it('promIncrease extrapolates to the window edges like Prometheus', () => {
    // Samples 10,20,30,40 at 1..4 s, window [0 s, 5 s]: delta 30 over 3 s sampled, avg gap 1 s.
    // Both edges are 1 s away (< 1.1 × avg) → extrapolate fully: 30 × (3+1+1)/3 = 50; rate 50/5 = 10/s.
    const p = [1000, 2000, 3000, 4000].map((t, i) => ({ t, v: 10 * (i + 1) }));
    expect(promIncrease(p, 0, 5000)).toBeCloseTo(50, 12);
  });

  it('promIncrease never extrapolates a counter below zero', () => {
    // 5,15,25 at 1..3 s, window [0, 4 s]: delta 20 over 2 s. Start edge 1 s away, but the line
    // hits 0 after 2 × 5/20 = 0.5 s before the first sample → use 0.5: 20 × (2+0.5+1)/2 = 35.
    const p = [
      { t: 1000, v: 5 },
      { t: 2000, v: 15 },
      { t: 3000, v: 25 },
    ];
    expect(promIncrease(p, 0, 4000)).toBeCloseTo(35, 12);
  });

  it('promIncrease extrapolates only half an interval when the series starts late', () => {
    // 0 → 10 at 5 s and 6 s in [0, 7 s]: start gap 5 s ≥ 1.1 s → 0.5 s, then the zero point
    // (0 s before the first sample, its value is 0) wins; end gap 1 s < 1.1 s → 1 s.
    // 10 × (1+0+1)/1 = 20.
    expect(
      promIncrease(
        [
          { t: 5000, v: 0 },
          { t: 6000, v: 10 },
        ],
        0,
        7000,
      ),
    ).toBeCloseTo(20, 12);
  });
});

describe('histogram_quantile', () => {
  // Cumulative: ≤0.1: 2, ≤0.5: 5, ≤1: 8, +Inf: 10.
  const b = [
    { le: 0.1, count: 2 },
    { le: 0.5, count: 5 },
    { le: 1, count: 8 },
    { le: INF, count: 10 },
  ];

  it('interpolates linearly inside the bucket that holds the rank', () => {
    // q=0.5: rank 5 → bucket (0.1, 0.5] holds 5−2=3, rank inside 5−2=3 → 0.1 + 0.4·3/3 = 0.5
    expect(histogramQuantile(0.5, b)).toBeCloseTo(0.5, 12);
    // q=0.25: rank 2.5 → (0.1, 0.5]: 0.1 + 0.4·(2.5−2)/3 = 0.1 + 0.0666… = 0.1666…
    expect(histogramQuantile(0.25, b)).toBeCloseTo(0.1 + (0.4 * 0.5) / 3, 12);
    // q=0.8: rank 8 → (0.5, 1]: 0.5 + 0.5·(8−5)/3 = 1.0
    expect(histogramQuantile(0.8, b)).toBeCloseTo(1, 12);
  });

  it('the lowest bucket interpolates from 0 when its bound is > 0', () => {
    // q=0.1: rank 1 → [0, 0.1] holds 2 → 0 + 0.1·1/2 = 0.05
    expect(histogramQuantile(0.1, b)).toBeCloseTo(0.05, 12);
    expect(histogramQuantile(0, b)).toBe(0);
  });

  it('a rank in the +Inf bucket returns the highest finite bound', () => {
    // q=0.9: rank 9 > 8 (count at le=1) → +Inf bucket → 1
    expect(histogramQuantile(0.9, b)).toBe(1);
    expect(histogramQuantile(1, b)).toBe(1);
  });

  it('a lowest bound ≤ 0 is returned as is', () => {
    const neg = [
      { le: -1, count: 3 },
      { le: 0, count: 5 },
      { le: INF, count: 6 },
    ];
    // q=0.3: rank 1.8 ≤ 3 → lowest bucket, bound −1 ≤ 0 → −1
    expect(histogramQuantile(0.3, neg)).toBe(-1);
  });

  it('special cases: q out of range, no +Inf, empty, too few buckets', () => {
    expect(histogramQuantile(-0.1, b)).toBe(-INF);
    expect(histogramQuantile(1.1, b)).toBe(INF);
    expect(histogramQuantile(NaN, b)).toBeNaN();
    expect(histogramQuantile(0.5, b.slice(0, 3))).toBeNaN();
    expect(
      histogramQuantile(
        0.5,
        b.map((x) => ({ le: x.le, count: 0 })),
      ),
    ).toBeNaN();
    expect(histogramQuantile(0.5, [{ le: INF, count: 4 }])).toBeNaN();
    expect(histogramQuantile(0.5, [])).toBeNaN();
  });

  it('sorts by le, merges equal bounds and forces monotonic counts', () => {
    expect(histogramQuantile(0.5, [...b].reverse())).toBeCloseTo(0.5, 12);
    // le=1 twice (2 + 2) → [≤1: 4, +Inf: 4]; q=0.5: rank 2 → 0 + 1·2/4 = 0.5
    expect(
      histogramQuantile(0.5, [
        { le: 1, count: 2 },
        { le: 1, count: 2 },
        { le: INF, count: 4 },
      ]),
    ).toBe(0.5);
    // 5, 3 (broken), 8, 10 → 5, 5, 8, 10; q=0.5: rank 5 → [0, 0.1] holds 5 → 0.1·5/5 = 0.1
    const broken = [
      { le: 0.1, count: 5 },
      { le: 0.5, count: 3 },
      { le: 1, count: 8 },
      { le: INF, count: 10 },
    ];
    expect(histogramQuantile(0.5, broken)).toBeCloseTo(0.1, 12);
    expect(broken[1]?.count).toBe(3); // the caller's buckets are not mutated
  });

  it('matches hand arithmetic on the vLLM V1 corpus TTFT buckets', () => {
    const ttft = [
      { le: 0.02, count: 0 },
      { le: 0.04, count: 12 },
      { le: 0.06, count: 23 },
      { le: 0.08, count: 31 },
      { le: 0.1, count: 38 },
      { le: 0.25, count: 96 },
      { le: 0.5, count: 140 },
      { le: INF, count: 140 },
    ];
    // p50: rank 70 → (0.1, 0.25] holds 96−38=58 → 0.1 + 0.15·(70−38)/58 = 0.18275862…
    expect(histogramQuantile(0.5, ttft)).toBeCloseTo(0.1 + (0.15 * 32) / 58, 12);
    // p99: rank 138.6 → (0.25, 0.5] holds 44 → 0.25 + 0.25·(138.6−96)/44 = 0.49204545…
    expect(histogramQuantile(0.99, ttft)).toBeCloseTo(0.25 + (0.25 * 42.6) / 44, 12);
  });
});

describe('histogram deltas and means', () => {
  const prev = {
    buckets: [
      { le: 0.1, count: 2 },
      { le: 1, count: 5 },
      { le: INF, count: 6 },
    ],
    sum: 3,
    count: 6,
  };

  it('subtracts bucket-wise between scrapes', () => {
    const curr = {
      buckets: [
        { le: 0.1, count: 4 },
        { le: 1, count: 9 },
        { le: INF, count: 12 },
      ],
      sum: 7.5,
      count: 12,
    };
    expect(histogramDelta(prev, curr)).toEqual({
      buckets: [
        { le: 0.1, count: 2 },
        { le: 1, count: 4 },
        { le: INF, count: 6 },
      ],
      sum: 4.5,
      count: 6,
      reset: false,
    });
  });

  it('treats a decrease or a new bucket layout as a reset: the delta is the new scrape', () => {
    const restarted = {
      buckets: [
        { le: 0.1, count: 1 },
        { le: 1, count: 1 },
        { le: INF, count: 2 },
      ],
      sum: 0.3,
      count: 2,
    };
    expect(histogramDelta(prev, restarted)).toEqual({ ...restarted, reset: true });
    const relaid = {
      buckets: [
        { le: 0.2, count: 3 },
        { le: 1, count: 6 },
        { le: INF, count: 7 },
      ],
      sum: 4,
      count: 7,
    };
    expect(histogramDelta(prev, relaid).reset).toBe(true);
  });

  it('increase over every scrape: a restart between two keeps what came before it', () => {
    const h = (a: number, b: number, c: number, sum: number) => ({
      buckets: [
        { le: 0.1, count: a },
        { le: 1, count: b },
        { le: INF, count: c },
      ],
      sum,
      count: c,
    });
    // 6 → 12 (6 observed), restart → 2 (2 since), → 5 (3 more); one scrape missed the series.
    const d = histogramIncrease([prev, h(4, 9, 12, 7.5), null, h(1, 1, 2, 0.3), h(2, 3, 5, 1.3)])!;
    expect(d.count).toBe(6 + 2 + 3);
    expect(d.sum).toBeCloseTo(4.5 + 0.3 + 1.0, 12);
    expect(d.buckets).toEqual([
      { le: 0.1, count: 2 + 1 + 1 },
      { le: 1, count: 4 + 1 + 2 },
      { le: INF, count: 6 + 2 + 3 },
    ]);
    expect(d.reset).toBe(true);
    // First and last alone would see only the 5 after the restart.
    expect(histogramDelta(prev, h(2, 3, 5, 1.3)).count).toBe(5);
    expect(histogramIncrease([prev])).toBeNull();
    expect(histogramIncrease([prev, null])).toBeNull();
  });

  it('merges series bucket-wise and scales units', () => {
    const other = {
      buckets: [
        { le: 0.1, count: 1 },
        { le: 1, count: 1 },
        { le: INF, count: 3 },
      ],
      sum: 2,
      count: 3,
    };
    expect(mergeHistograms([prev, other])).toEqual({
      buckets: [
        { le: 0.1, count: 3 },
        { le: 1, count: 6 },
        { le: INF, count: 9 },
      ],
      sum: 5,
      count: 9,
    });
    expect(mergeHistograms([])).toBeNull();
    expect(
      scaleHistogram(
        {
          buckets: [
            { le: 100, count: 1 },
            { le: INF, count: 1 },
          ],
          sum: 50,
          count: 1,
        },
        0.001,
      ),
    ).toEqual({
      buckets: [
        { le: 0.1, count: 1 },
        { le: INF, count: 1 },
      ],
      sum: 0.05,
      count: 1,
    });
  });
});
