import { describe, expect, it } from 'vitest';
import { histogramQuantile } from '../../shared/metrics/prom-math.ts';
import { bracketWindow, quantileBucket } from './histogram-window.ts';

describe('bracketWindow', () => {
  const times = [1000, 2000, 3000, 4000, 5000];

  it('starts at the newest scrape at or before the start and ends at the newest before the end', () => {
    expect(bracketWindow(times, 2500, 4500)).toEqual({ from: 1, to: 3, clipped: false, afterGap: false });
    expect(bracketWindow(times, 2000, 5000)).toEqual({ from: 1, to: 4, clipped: false, afterGap: false });
  });

  it('clips to the first scrape when watching started inside the window', () => {
    expect(bracketWindow(times, 0, 9999)).toEqual({ from: 0, to: 4, clipped: true, afterGap: false });
  });

  it('never starts across a gap in the scraping: the scrape after it begins the window', () => {
    const gapped = [1000, 2000, 300_000, 301_000, 302_000];
    expect(bracketWindow(gapped, 250_000, 302_000, 5000)).toEqual({
      from: 2,
      to: 4,
      clipped: true,
      afterGap: true,
    });
    // A gap inside the window is kept: both its ends are in the window, so are its observations.
    expect(bracketWindow(gapped, 1500, 302_000, 5000)).toEqual({
      from: 0,
      to: 4,
      clipped: false,
      afterGap: false,
    });
  });

  it('is null without two scrapes to span', () => {
    expect(bracketWindow([1000], 0, 2000)).toBeNull();
    expect(bracketWindow(times, 5000, 6000)).toBeNull();
    expect(bracketWindow([], 0, 1)).toBeNull();
  });
});

describe('quantileBucket', () => {
  // vLLM's TTFT bounds around 100 ms: …, 0.08, 0.1, 0.25, 0.5, +Inf.
  const b = [
    { le: 0.08, count: 1 },
    { le: 0.1, count: 3 },
    { le: 0.25, count: 9 },
    { le: 0.5, count: 10 },
    { le: Infinity, count: 10 },
  ];

  it('names the bucket the quantile is interpolated in', () => {
    // rank 5 of 10: first count ≥ 5 is le 0.25 → (0.1, 0.25].
    expect(quantileBucket(0.5, b)).toEqual({ lower: 0.1, upper: 0.25 });
    // …and histogramQuantile lands inside it: 0.1 + 0.15 × (2/6) = 0.15.
    expect(histogramQuantile(0.5, b)).toBeCloseTo(0.15, 12);
    expect(quantileBucket(0.99, b)).toEqual({ lower: 0.25, upper: 0.5 });
    expect(quantileBucket(0.05, b)).toEqual({ lower: 0, upper: 0.08 });
  });

  it('reports the +Inf bucket when the rank lies above every finite bound', () => {
    const tail = [
      { le: 1, count: 1 },
      { le: Infinity, count: 4 },
    ];
    expect(quantileBucket(0.99, tail)).toEqual({ lower: 1, upper: Infinity });
    expect(histogramQuantile(0.99, tail)).toBe(1);
  });

  it('is null with no observations or no +Inf bucket', () => {
    expect(
      quantileBucket(
        0.5,
        b.map((x) => ({ ...x, count: 0 })),
      ),
    ).toBeNull();
    expect(quantileBucket(0.5, b.slice(0, 3))).toBeNull();
  });
});
