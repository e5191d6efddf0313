/**
 * Sums of a server's scrapes over a run's window (server-watch.ts): a histogram's observations as
 * quantiles, a counter's increase, a gauge's peak, and per role of a disaggregated deployment its
 * queues and KV-transfer time (shared/runs/summary/server-side-schema.ts `roles`).
 */
import type { Concepts } from '../../shared/metrics/concepts.ts';
import {
  counterIncrease,
  histogramIncrease,
  histogramQuantile,
  quantileBucket,
  type HistogramData,
  type Point,
} from '../../shared/metrics/prom-math.ts';
import type { MetricsRole } from '../../shared/metrics/roles.ts';
import type { SpecDecodeReading } from '../../shared/metrics/spec-decode.ts';
import type {
  KvTransferStats,
  QueueStats,
  RoleSideSummary,
  ServerHistogramStats,
  ServerSideSummary,
} from '../../shared/runs/summary/server-side-schema.ts';

export interface Snap {
  monoMs: number;
  concepts: Concepts;
  /** Speculative decoding's families (shared/metrics/spec-decode.ts); null or absent: none. */
  spec?: SpecDecodeReading | null;
}

/** The histogram's observations over every scrape of the window (reset-aware at each step). */
export function histStats(
  snaps: readonly Snap[],
  get: (c: Concepts) => HistogramData | null,
): ServerHistogramStats | null {
  const d = histogramIncrease(snaps.map((s) => get(s.concepts)));
  if (d === null) return null;
  if (!(d.count > 0)) return { count: 0, mean: null, p50: null, p90: null, p99: null };
  const q = (x: number): number | null => {
    const v = histogramQuantile(x, d.buckets) * 1000;
    return Number.isFinite(v) ? v : null;
  };
  const mean = (d.sum / d.count) * 1000;
  const bucket = (x: number): [number, number | null] | null => {
    const b = quantileBucket(x, d.buckets);
    return b === null ? null : [b.lower * 1000, Number.isFinite(b.upper) ? b.upper * 1000 : null];
  };
  return {
    count: d.count,
    mean: Number.isFinite(mean) ? mean : null,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    p50Bucket: bucket(0.5),
    p99Bucket: bucket(0.99),
  };
}

export function increase(snaps: readonly Snap[], get: (c: Concepts) => number | null): number | null {
  const pts: Point[] = [];
  for (const s of snaps) {
    const v = get(s.concepts);
    if (v !== null && Number.isFinite(v)) pts.push({ t: s.monoMs, v });
  }
  return pts.length >= 2 ? counterIncrease(pts) : null;
}

export function peak(snaps: readonly Snap[], get: (c: Concepts) => number | null): number | null {
  let m: number | null = null;
  for (const s of snaps) {
    const v = get(s.concepts);
    if (v !== null && Number.isFinite(v) && (m === null || v > m)) m = v;
  }
  return m;
}

/** A gauge over the scrapes taken during the run: mean and max; null when no scrape had it. */
function queueStats(snaps: readonly Snap[], get: (c: Concepts) => number | null): QueueStats | null {
  let sum = 0;
  let max = -Infinity;
  let n = 0;
  for (const s of snaps) {
    const v = get(s.concepts);
    if (v === null || !Number.isFinite(v)) continue;
    sum += v;
    max = Math.max(max, v);
    n++;
  }
  return n === 0 ? null : { mean: sum / n, max, samples: n };
}

/** KV-transfer time: the histogram's quantiles, else the mean of a seconds/transfers counter pair. */
function kvTransfer(snaps: readonly Snap[]): KvTransferStats | null {
  const h = histStats(snaps, (c) => c.kvTransferHistogram);
  if (h !== null) return { source: 'histogram', ...h };
  const secs = increase(snaps, (c) => c.kvTransferSecondsTotal);
  const n = increase(snaps, (c) => c.kvTransfersTotal);
  if (secs === null || n === null) return null;
  const mean = n > 0 ? (secs / n) * 1000 : null;
  return { source: 'counters', count: n, mean, p50: null, p90: null, p99: null };
}

export interface RoleInput {
  role: MetricsRole;
  url: string;
  profile: { id: string; label: string };
  /** Every successful scrape, in time order. */
  snaps: readonly Snap[];
  failures: number;
  lastError: string | null;
}

/**
 * One role over the run (t0: the run clock's zero, monotonic ms): its queues over the scrapes
 * taken during the run, its KV-transfer time over the window (the last scrape at or before t0 to
 * the last one), as the server's own summary is windowed.
 */
export function roleSummary(r: RoleInput, t0: number): RoleSideSummary {
  const snaps = [...r.snaps].sort((a, b) => a.monoMs - b.monoMs);
  let from = 0;
  for (let i = 0; i < snaps.length; i++) if ((snaps[i] as Snap).monoMs <= t0) from = i;
  const inWindow = snaps.slice(from);
  const during = snaps.filter((s) => s.monoMs >= t0);
  const first = inWindow[0];
  const last = inWindow[inWindow.length - 1];
  const two = first !== undefined && last !== undefined && last !== first;
  const q = (get: (c: Concepts) => number | null) => queueStats(during, get);
  return {
    role: r.role,
    url: r.url,
    profile: r.profile.id,
    profileName: r.profile.label,
    scrapes: snaps.length,
    failures: r.failures,
    lastError: snaps.length === 0 ? (r.lastError ?? 'no scrape succeeded') : r.lastError,
    window: two ? { fromMs: first.monoMs - t0, toMs: last.monoMs - t0 } : null,
    queues: {
      waiting: q((c) => c.requestsWaiting),
      prefillPrealloc: q((c) => c.prefillPreallocQueue),
      prefillInflight: q((c) => c.prefillInflightQueue),
      decodePrealloc: q((c) => c.decodePreallocQueue),
      decodeTransfer: q((c) => c.decodeTransferQueue),
    },
    kvTransfer: two ? kvTransfer(inWindow) : null,
  };
}

/**
 * The server's own prefix-cache hit rate over the run: its hit and query counters' increases
 * (vLLM V1 `prefix_cache_hits_total`/`_queries_total`, SGLang `cached_tokens_total` over
 * `prompt_tokens_total`: tokens); where it has only a gauge (vLLM V0, SGLang's `cache_hit_rate`),
 * the gauge's last value in the window, marked so (it is not over the run alone).
 */
export function serverPrefixCache(snaps: readonly Snap[]): ServerSideSummary['prefixCache'] {
  const hits = increase(snaps, (c) => c.prefixCacheHitsTotal);
  const queries = increase(snaps, (c) => c.prefixCacheQueriesTotal);
  if (hits !== null && queries !== null && queries > 0)
    return {
      hitTokens: hits,
      queryTokens: queries,
      hitRate: Math.min(1, hits / queries),
      source: 'counters',
    };
  let gauge: number | null = null;
  for (const s of snaps) {
    const v = s.concepts.prefixCacheHitRate;
    if (v !== null && Number.isFinite(v)) gauge = v;
  }
  return gauge === null ? null : { hitTokens: null, queryTokens: null, hitRate: gauge, source: 'gauge' };
}
