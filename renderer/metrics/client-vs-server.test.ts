import { describe, expect, it } from 'vitest';
import type { HistogramData } from '../../shared/metrics/prom-math.ts';
import { compareClientServer, comparisonFor, serverWindow, type ClientRequest } from './client-vs-server.ts';

const req = (p: Partial<ClientRequest>): ClientRequest => ({
  targetId: 'sim',
  startedAtWall: 10_000,
  state: 'done',
  ttftMs: 100,
  e2eMs: 500,
  outputTokens: 10,
  ...p,
});

const hist = (c008: number, c01: number, c025: number, cInf: number): HistogramData => ({
  buckets: [
    { le: 0.08, count: c008 },
    { le: 0.1, count: c01 },
    { le: 0.25, count: c025 },
    { le: Infinity, count: cInf },
  ],
  sum: 0,
  count: cInf,
});

describe('serverWindow', () => {
  it('takes the TTFT delta and the generation-token increase between the bracketing scrapes', () => {
    const w = serverWindow(
      [
        { t: 0, ttft: hist(5, 5, 5, 5), generationTokensTotal: 1000 },
        { t: 1000, ttft: hist(5, 7, 9, 9), generationTokensTotal: 1040 },
        { t: 2000, ttft: hist(1, 1, 2, 2), generationTokensTotal: 30 }, // restarted
      ],
      0,
      2,
    );
    // (0, 2, 4, 4) + after the reset (1, 1, 2, 2) = (1, 3, 6, 6)
    expect(w.ttft!.buckets.map((b) => b.count)).toEqual([1, 3, 6, 6]);
    expect(w.ttft!.count).toBe(6);
    // 40 before the restart + 30 after it.
    expect(w.generationTokens).toBe(70);
  });

  it('is null for what the server does not expose', () => {
    const w = serverWindow(
      [
        { t: 0, ttft: null, generationTokensTotal: null },
        { t: 1, ttft: null, generationTokensTotal: null },
      ],
      0,
      1,
    );
    expect(w).toEqual({ ttft: null, generationTokens: null });
  });
});

describe('compareClientServer', () => {
  const requests: ClientRequest[] = [
    req({ ttftMs: 120, outputTokens: 10 }),
    req({ ttftMs: 140, outputTokens: 20, startedAtWall: 11_000 }),
    req({ ttftMs: 160, outputTokens: 30, startedAtWall: 12_000 }),
    req({ targetId: 'other', ttftMs: 1 }), // another target
    req({ startedAtWall: 5_000 }), // before the window
    req({ startedAtWall: 19_800, e2eMs: 500 }), // ends after the window
    req({ state: 'running', e2eMs: null, startedAtWall: 13_000 }),
    req({ state: 'cancelled', ttftMs: 90, outputTokens: 4, startedAtWall: 14_000 }),
  ];
  // 3 observations: 0 ≤ 80 ms, 0 in (80, 100], 3 in (100, 250].
  const server = { ttft: hist(0, 0, 3, 3), generationTokens: 70 };
  const c = compareClientServer(requests, 'sim', 10_000, 20_000, server);

  it('TTFT: every request whose first token arrived in the window (as the server counts); tokens: those that ended in it', () => {
    // First token in (10 s, 20 s]: the three finished ones, the one ending after the window
    // (19.9 s), the running one and the cancelled one — the server observed each TTFT in this span.
    // Not: another target's, nor the one whose first token came at 5.1 s.
    expect(c.client.n).toBe(6);
    // numpy linear over 90, 100, 100, 120, 140, 160: median 110; p99 at index 4.95 → 140 + 20 × 0.95.
    expect(c.client.p50Ms).toBe(110);
    expect(c.client.p99Ms).toBeCloseTo(159, 9);
    // Tokens count the cancelled request too (the server generated them): 10 + 20 + 30 + 4.
    expect(c.client.outputTokens).toBe(64);
    expect(c.client.tokenRequests).toBe(4);
    expect(c.client.unfinished).toBe(2);
  });

  it('interpolates the server quantiles in their bucket and says which bucket', () => {
    // rank 1.5 of 3 in (100, 250] with 3 there: 100 + 150 × 0.5 = 175 ms.
    expect(c.server.p50.ms).toBeCloseTo(175, 9);
    expect(c.server.p50.bucket).toEqual({ lowerMs: 100, upperMs: 250 });
    // rank 2.97: 100 + 150 × 0.99 = 248.5 ms.
    expect(c.server.p99.ms).toBeCloseTo(248.5, 9);
    expect(c.server.n).toBe(3);
    expect(c.server.generationTokens).toBe(70);
  });

  it('subtracts server from client', () => {
    expect(c.diff.p50Ms).toBeCloseTo(110 - 175, 9);
    expect(c.diff.p99Ms).toBeCloseTo(159 - 248.5, 9);
  });

  it('leaves the server side empty when nothing was observed', () => {
    const e = compareClientServer([], 'sim', 0, 1, { ttft: hist(0, 0, 0, 0), generationTokens: 0 });
    expect(e.server.p50).toEqual({ ms: null, bucket: null });
    expect(e.server.n).toBe(0);
    expect(e.client.p50Ms).toBeNull();
    expect(e.diff.p50Ms).toBeNull();
  });
});

describe('comparisonFor', () => {
  const pts = [0, 1, 2, 3, 4].map((i) => ({
    t: 100_000 + i * 30_000, // every 30 s: 100 s … 220 s
    ttft: hist(0, 0, i, i),
    generationTokensTotal: i * 100,
  }));

  it('brackets a 1 min window with the scrapes around it', () => {
    const c = comparisonFor(pts, pts[0]!, { ttft: null, generationTokens: null }, [], 'sim', '1m')!;
    // Ends at the latest scrape (220 s); starts at the newest scrape at or before 160 s.
    expect([c.startMs, c.endMs]).toEqual([160_000, 220_000]);
    expect(c.clipped).toBe(false);
    expect(c.server.n).toBe(2);
    expect(c.server.generationTokens).toBe(200);
  });

  it('clips a window longer than the watch to the first scrape', () => {
    const c = comparisonFor(pts, pts[0]!, { ttft: null, generationTokens: null }, [], 'sim', '5m')!;
    expect([c.startMs, c.endMs, c.clipped]).toEqual([100_000, 220_000, true]);
    expect(c.server.n).toBe(4);
  });

  it('uses the running totals for "all since watching"', () => {
    const totals = { ttft: hist(0, 0, 9, 9), generationTokens: 1234 };
    const c = comparisonFor(pts, { t: 50_000 }, totals, [], 'sim', 'all')!;
    expect([c.startMs, c.endMs]).toEqual([50_000, 220_000]);
    expect(c.server.n).toBe(9);
    expect(c.server.generationTokens).toBe(1234);
  });

  it('never reaches back across a gap in the scraping (the tab was left, two runs happened, then back)', () => {
    // Scrapes every second for 10 s, none for six minutes (420 observations then), then every
    // second again; one more observation at the end.
    const before = Array.from({ length: 11 }, (_, i) => ({
      t: i * 1000,
      ttft: hist(0, 0, 1, 1),
      generationTokensTotal: 10,
    }));
    const after = Array.from({ length: 11 }, (_, i) => ({
      t: 400_000 + i * 1000,
      ttft: hist(0, 0, i === 10 ? 422 : 421, i === 10 ? 422 : 421),
      generationTokensTotal: 5000 + (i === 10 ? 7 : 0),
    }));
    const one = [req({ startedAtWall: 409_500, ttftMs: 200, e2eMs: 400, outputTokens: 7 })];
    const c = comparisonFor(
      [...before, ...after],
      before[0]!,
      { ttft: null, generationTokens: null },
      one,
      'sim',
      '1m',
    )!;
    // The window starts after the gap: one observation, one client request, both sides alike.
    expect(c.startMs).toBe(400_000);
    expect(c.endMs).toBe(410_000);
    expect(c.clipped).toBe(true);
    expect(c.server.n).toBe(1);
    expect(c.client.n).toBe(1);
    expect(c.server.generationTokens).toBe(7);
  });

  it('needs two scrapes', () => {
    expect(
      comparisonFor(pts.slice(0, 1), pts[0]!, { ttft: null, generationTokens: null }, [], 'sim', '1m'),
    ).toBeNull();
  });
});
