/**
 * Client vs server for one window: the client's TTFT percentiles (numpy-linear, as
 * shared/stats/summary.ts computes them everywhere else) next to the server's TTFT histogram
 * quantiles over the same window (prom-math histogramQuantile on the bucket deltas between the
 * scrapes bracketing it), and the client's output tokens next to the server's generation-token
 * counter increase. Pure: the card only formats what this returns.
 */
import type { RequestSummary } from '../../shared/api.ts';
import { counterIncrease, histogramQuantile, type HistogramData } from '../../shared/metrics/prom-math.ts';
import { summarize } from '../../shared/stats/summary.ts';
import { bracketWindow, quantileBucket, type BucketBounds } from './histogram-window.ts';
import { gapFor, rangeDelta } from './series.ts';

export type ClientRequest = Pick<
  RequestSummary,
  'targetId' | 'startedAtWall' | 'state' | 'ttftMs' | 'e2eMs' | 'outputTokens'
>;

/** What the server observed in the window. */
export interface ServerWindow {
  /** TTFT histogram delta, seconds; null when the server has no TTFT histogram. */
  ttft: HistogramData | null;
  /** Generation-token counter increase; null when the server has no such counter. */
  generationTokens: number | null;
}

export interface WindowScrape {
  t: number;
  ttft: HistogramData | null;
  generationTokensTotal: number | null;
}

/** The server side of a window from its scrapes `from`..`to` (indices), reset-aware. @internal exported for its tests */
export function serverWindow(scrapes: readonly WindowScrape[], from: number, to: number): ServerWindow {
  const ttft = rangeDelta(
    scrapes.map((s) => ({ t: s.t, h: s.ttft })),
    from,
    to,
  );
  const gen: { t: number; v: number }[] = [];
  for (let i = from; i <= to; i++) {
    const v = scrapes[i]?.generationTokensTotal;
    if (v !== null && v !== undefined) gen.push({ t: scrapes[i]!.t, v });
  }
  const inc = counterIncrease(gen);
  return { ttft, generationTokens: Number.isFinite(inc) ? inc : null };
}

interface QuantileWithBucket {
  ms: number | null;
  /** The bucket it was interpolated in, ms. */
  bucket: { lowerMs: number; upperMs: number } | null;
}

/** @internal exported for its tests */
export interface Comparison {
  startMs: number;
  endMs: number;
  client: {
    /**
     * Requests whose first token arrived inside the window: the population the server's TTFT
     * histogram counts over the same span (it observes TTFT when the first token is produced).
     */
    n: number;
    p50Ms: number | null;
    p99Ms: number | null;
    /** Output tokens of every request that started and ended inside the window. */
    outputTokens: number;
    tokenRequests: number;
    /** Requests that started in the window but had not ended by its end (left out). */
    unfinished: number;
  };
  server: {
    /** TTFT observations in the window; null when the server has no TTFT histogram. */
    n: number | null;
    p50: QuantileWithBucket;
    p99: QuantileWithBucket;
    generationTokens: number | null;
  };
  /** Client − server: what the client saw on top of what the server measured. */
  diff: { p50Ms: number | null; p99Ms: number | null };
}

function serverQuantile(q: number, h: HistogramData | null): QuantileWithBucket {
  if (!h || !(h.count > 0)) return { ms: null, bucket: null };
  const v = histogramQuantile(q, h.buckets);
  const b: BucketBounds | null = quantileBucket(q, h.buckets);
  return {
    ms: Number.isFinite(v) ? v * 1000 : null,
    bucket: b ? { lowerMs: b.lower * 1000, upperMs: b.upper * 1000 } : null,
  };
}

const sub = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a - b);

/** @internal exported for its tests */
export function compareClientServer(
  requests: readonly ClientRequest[],
  targetId: string,
  startMs: number,
  endMs: number,
  server: ServerWindow,
): Comparison {
  const ttfts: number[] = [];
  let outputTokens = 0;
  let tokenRequests = 0;
  let unfinished = 0;
  for (const r of requests) {
    if (r.targetId !== targetId) continue;
    // TTFT: the first token inside (start, end], as the server's histogram delta counts it.
    if (r.ttftMs !== null) {
      const first = r.startedAtWall + r.ttftMs;
      if (first > startMs && first <= endMs) ttfts.push(r.ttftMs);
    }
    if (r.startedAtWall < startMs || r.startedAtWall > endMs) continue;
    const end = r.e2eMs === null ? null : r.startedAtWall + r.e2eMs;
    if (r.state === 'running' || end === null || end > endMs) {
      unfinished++;
      continue;
    }
    outputTokens += r.outputTokens;
    tokenRequests++;
  }
  const s = summarize(ttfts);
  const p50 = serverQuantile(0.5, server.ttft);
  const p99 = serverQuantile(0.99, server.ttft);
  const client = {
    n: ttfts.length,
    p50Ms: s?.median ?? null,
    p99Ms: s?.p99 ?? null,
    outputTokens,
    tokenRequests,
    unfinished,
  };
  return {
    startMs,
    endMs,
    client,
    server: {
      n: server.ttft ? server.ttft.count : null,
      p50,
      p99,
      generationTokens: server.generationTokens,
    },
    diff: { p50Ms: sub(client.p50Ms, p50.ms), p99Ms: sub(client.p99Ms, p99.ms) },
  };
}

export type CvsWindowId = '1m' | '5m' | 'all';

export const CVS_WINDOWS: readonly { id: CvsWindowId; label: string; ms: number | null }[] = [
  { id: '1m', label: '1 min', ms: 60_000 },
  { id: '5m', label: '5 min', ms: 300_000 },
  { id: 'all', label: 'all since watching', ms: null },
];

export interface WindowedComparison extends Comparison {
  /** Watching started inside the window (or a gap in the scraping ends in it): it begins later. */
  clipped: boolean;
  /** Clipped by a gap in the scraping rather than by the start of watching. */
  afterGap?: boolean;
}

/**
 * The comparison for a window ending at the latest scrape. A timed window runs between the
 * scrapes bracketing it (so client and server cover exactly the same span); "all" runs from the
 * first scrape of the session and uses the running totals (the ring may have dropped older scrapes).
 */
export function comparisonFor(
  points: readonly (WindowScrape & { t: number })[],
  first: { t: number } | null,
  totals: ServerWindow,
  requests: readonly ClientRequest[],
  targetId: string,
  win: CvsWindowId,
): WindowedComparison | null {
  const last = points[points.length - 1];
  if (!last || points.length < 2) return null;
  const ms = CVS_WINDOWS.find((w) => w.id === win)?.ms ?? null;
  if (ms === null) {
    const start = first?.t ?? points[0]!.t;
    return { ...compareClientServer(requests, targetId, start, last.t, totals), clipped: false };
  }
  const times = points.map((p) => p.t);
  // Never across a gap in the scraping at the window's start: what the server counted in it
  // cannot be dated (a tab left for minutes, two runs, then back).
  const b = bracketWindow(times, last.t - ms, last.t, gapFor(times));
  if (!b) return null;
  const server = serverWindow(points, b.from, b.to);
  return {
    ...compareClientServer(requests, targetId, times[b.from]!, times[b.to]!, server),
    clipped: b.clipped,
    afterGap: b.afterGap,
  };
}
