import { describe, expect, it } from 'vitest';
import type { RequestSummary } from '../../shared/api.ts';
import type { ScrapePoint } from './metrics-store.ts';
import {
  chartPeaks,
  clientE2ePoints,
  clientTtftPoints,
  inFlightSeries,
  maxPeaks,
  panelData,
} from './panel-data.ts';
import { concepts, ttftHist } from '../testing/metrics-fixture.ts';

const pts: ScrapePoint[] = [
  {
    t: 1000,
    concepts: concepts({
      requestsRunning: 0,
      requestsWaiting: 0,
      kvCacheUsage: 0,
      generationTokensTotal: 100,
      promptTokensTotal: 10,
      prefixCacheHitsTotal: 0,
      prefixCacheQueriesTotal: 0,
      preemptionsTotal: 3,
      ttftHistogram: ttftHist([0, 0, 0, 0, 0]),
    }),
  },
  {
    t: 2000,
    concepts: concepts({
      requestsRunning: 2,
      requestsWaiting: 1,
      kvCacheUsage: 0.25,
      generationTokensTotal: 150,
      promptTokensTotal: 30,
      prefixCacheHitsTotal: 16,
      prefixCacheQueriesTotal: 64,
      preemptionsTotal: 4,
      ttftHistogram: ttftHist([0, 1, 2, 2, 2]),
    }),
  },
  {
    t: 3000,
    concepts: concepts({
      requestsRunning: 1,
      requestsWaiting: 0,
      kvCacheUsage: 0.125,
      generationTokensTotal: 250,
      promptTokensTotal: 30,
      prefixCacheHitsTotal: 16,
      prefixCacheQueriesTotal: 64,
      preemptionsTotal: 4,
      ttftHistogram: ttftHist([0, 1, 2, 2, 2]),
    }),
  },
];

describe('panelData', () => {
  const d = panelData(pts, 500, 3000);

  it('plots gauges as they are, KV usage in %', () => {
    expect(d.running.map((p) => p.v)).toEqual([0, 2, 1]);
    expect(d.waiting.map((p) => p.v)).toEqual([0, 1, 0]);
    expect(d.kv.map((p) => p.v)).toEqual([0, 25, 12.5]);
  });

  it('turns token counters into tokens per second', () => {
    expect(d.generationTps).toEqual([
      { t: 2000, v: 50 },
      { t: 3000, v: 100 },
    ]);
    expect(d.promptTps.map((p) => p.v)).toEqual([20, 0]);
  });

  it('gives TTFT quantiles per interval, null where nothing was observed', () => {
    // 1 observation in (50, 100] ms and 1 in (100, 250]: p50 rank 1 → top of (50,100] = 100 ms;
    // p99 rank 1.98 → 100 + 150 × 0.98 = 247 ms.
    expect(d.latency.ttft.p50[0]!.v).toBeCloseTo(100, 9);
    expect(d.latency.ttft.p99[0]!.v).toBeCloseTo(247, 9);
    expect(d.latency.ttft.p50[1]!.v).toBeNull();
    expect(d.latency.ttft.window).toEqual({
      count: 2,
      p50: expect.closeTo(100, 9),
      p99: expect.closeTo(247, 9),
      // Both buckets are wide next to their values: shown as the bucket, drawn as a band.
      p50Wide: [50, 100],
      p99Wide: [100, 250],
    });
    expect(d.latency.ttft.p99Band[0]).toEqual({ t: 2000, range: [100, 250] });
    expect(d.latency.ttft.p99Band[1]).toEqual({ t: 3000, range: null }); // nothing observed
  });

  it('gives the prefix-cache hit rate from the hit/query counters, and preemptions in the window', () => {
    // 16 hits of 64 queries = 25 %; then no queries: nothing to divide.
    expect(d.prefixHit.map((p) => p.v)).toEqual([25, null]);
    expect(d.preemptions).toBe(1);
  });

  it('knows what the server does not expose', () => {
    expect(d.latency.ttft.exposed).toBe(true);
    expect(d.latency.itl.exposed).toBe(false);
    expect(d.latency.itl.p50.every((p) => p.v === null)).toBe(true);
    expect(d.exposed.kv).toBe(true);
  });
});

const req = (
  p: Partial<RequestSummary>,
): Pick<RequestSummary, 'targetId' | 'startedAtWall' | 'state' | 'ttftMs' | 'e2eMs'> => ({
  targetId: 'sim',
  startedAtWall: 0,
  state: 'done',
  ttftMs: 50,
  e2eMs: 1000,
  ...p,
});

describe('client overlays', () => {
  it('counts this client’s requests in flight as a step series', () => {
    const s = inFlightSeries(
      [
        req({ startedAtWall: 1000, e2eMs: 2000 }), // 1000..3000
        req({ startedAtWall: 2000, e2eMs: 1000 }), // 2000..3000
        req({ startedAtWall: 3000, state: 'running', e2eMs: null }), // 3000..now
        req({ startedAtWall: 1500, targetId: 'other' }),
        req({ startedAtWall: 100, e2eMs: 200 }), // ended before the window
      ],
      'sim',
      500,
      5000,
    );
    expect(s).toEqual([
      { t: 500, v: 0 },
      { t: 1000, v: 1 },
      { t: 2000, v: 2 },
      { t: 3000, v: 1 }, // two ended, one started at the same instant
      { t: 5000, v: 1 },
    ]);
  });

  it('places each client TTFT where the first token arrived', () => {
    expect(
      clientTtftPoints(
        [
          req({ startedAtWall: 2000, ttftMs: 80 }),
          req({ startedAtWall: 1000, ttftMs: 120 }),
          req({ state: 'running' }),
        ],
        'sim',
        0,
        5000,
      ),
    ).toEqual([
      { t: 1120, v: 120 },
      { t: 2080, v: 80 },
    ]);
  });

  it('places each completed request’s E2E where it ended', () => {
    expect(
      clientE2ePoints(
        [
          req({ startedAtWall: 1000, e2eMs: 700 }),
          req({ startedAtWall: 1000, e2eMs: 300, state: 'error' }),
          req({ startedAtWall: 4800, e2eMs: 400 }), // ends after the window
        ],
        'sim',
        0,
        5000,
      ),
    ).toEqual([{ t: 1700, v: 700 }]);
  });
});

describe('shared scales side by side', () => {
  it("takes each chart's peak, client series included, and the larger of two targets'", () => {
    const d = panelData(pts, 500, 3000);
    const a = chartPeaks(d, [req({ startedAtWall: 1000, e2eMs: 2000, ttftMs: 400 })], 'sim', 500, 5000);
    expect(a.running).toBe(2); // the server's 2 running beats the client's 1 in flight
    expect(a.throughput).toBe(100);
    expect(a.kv).toBe(25);
    expect(a.ttft).toBe(400); // the client's TTFT dot is above the server's p99 (247 ms)
    expect(a.e2e).toBe(2000);
    const quiet = chartPeaks(panelData(pts.slice(0, 1), 500, 3000), [], 'sim', 500, 5000);
    expect(quiet.running).toBe(0);
    expect(maxPeaks([a, { ...quiet, kv: 80 }])).toEqual({ ...a, kv: 80 });
    expect(maxPeaks([a])).toBeUndefined(); // one target: each chart scales to itself
  });
});
