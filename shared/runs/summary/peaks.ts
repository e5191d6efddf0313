/**
 * The peaks in a run's summary (summary.ts): vLLM's max_concurrent_requests (a sweep line over
 * [start, start + E2E)) and max_output_tokens_per_s (chunks in 1-s buckets from the first start,
 * vLLM's definition; or tokens under Tokenscope's and AIPerf's, never below the mean).
 */
import { tokensAt, type RequestOutcome } from './outcome.ts';

/** Peak of requests in flight over [start, start + E2E): vLLM's sweep line. */
export function peakConcurrency(intervals: readonly { start: number; end: number }[]): number {
  const ev: [number, number][] = [];
  for (const iv of intervals) ev.push([iv.start, 1], [iv.end, -1]);
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0;
  let peak = 0;
  for (const [, d] of ev) {
    cur += d;
    if (cur > peak) peak = cur;
  }
  return peak;
}

/**
 * The busiest 1-s bucket (from the first start) of what `arrivals` reports for each successful
 * request with times: `add(t, k)` counts k at run time t (ms).
 */
function peakPerSecond(
  ok: readonly RequestOutcome[],
  arrivals: (o: RequestOutcome, add: (t: number, k: number) => void) => void,
): number {
  const timed = ok.filter((o) => o.startMs !== null && o.e2eMs !== null);
  if (timed.length === 0) return 0;
  let minStart = Infinity;
  let maxEnd = -Infinity;
  for (const o of timed) {
    minStart = Math.min(minStart, o.startMs!);
    maxEnd = Math.max(maxEnd, o.startMs! + o.e2eMs!);
  }
  // Sparse buckets: a run's span (a file can say 5e12 ms) never sizes an allocation.
  const buckets = new Map<number, number>();
  const last = Math.ceil((maxEnd - minStart) / 1000);
  const add = (t: number, k: number): void => {
    const b = Math.floor((t - minStart) / 1000);
    if (b >= 0 && b <= last) buckets.set(b, (buckets.get(b) ?? 0) + k);
  };
  for (const o of timed) arrivals(o, add);
  let max = 0;
  for (const v of buckets.values()) if (v > max) max = v;
  return max;
}

/** Each chunk of a request at start + TTFT + its cumulative chunk gaps, counted once. */
function chunkArrivals(o: RequestOutcome, add: (t: number, k: number) => void): void {
  if (o.ttftMs === null) return;
  let t = o.startMs! + o.ttftMs;
  add(t, 1);
  for (const g of o.itlChunkMs) {
    t += g;
    add(t, 1);
  }
}

/** Tokenscope's peak output throughput and whether the per-event counts behind it were estimated. */
export interface TokenPeak {
  tokensPerS: number;
  /** Some request's tokens were spread over its events (no per-event counts from the server). */
  estimated: boolean;
}

/** A partial last bucket shorter than this joins the one before it (a few ms are no rate). */
const MIN_LAST_BUCKET_MS = 500;

/**
 * Peak output tokens per second: each content event's tokens (spread to add up to the request's
 * output tokens where the server gave no per-event counts: outcome.ts contentEventsOf) in 1-s
 * buckets from the first start, per second of the bucket. The run's span rarely ends on a whole
 * second: its last bucket is a rate over its own length, joined to the one before when shorter than
 * half a second. So the buckets cut the span [first start, last end] into pieces and the busiest
 * piece's rate is at least the span's mean — never below output_throughput, whose duration holds the
 * span. Requests without per-event data (imports) count chunks.
 */
export function maxTokensPerSecond(ok: readonly RequestOutcome[]): TokenPeak {
  const timed = ok.filter((o) => o.startMs !== null && o.e2eMs !== null);
  if (timed.length === 0) return { tokensPerS: 0, estimated: false };
  let minStart = Infinity;
  let maxEnd = -Infinity;
  for (const o of timed) {
    minStart = Math.min(minStart, o.startMs!);
    maxEnd = Math.max(maxEnd, o.startMs! + o.e2eMs!);
  }
  const span = maxEnd - minStart;
  const n = Math.max(1, Math.ceil(span / 1000));
  const counts = new Float64Array(n);
  let estimated = false;
  const add = (t: number, k: number): void => {
    const b = Math.min(n - 1, Math.floor((t - minStart) / 1000));
    if (b >= 0) counts[b]! += k;
  };
  for (const o of timed) {
    const ce = o.contentEvents;
    if (!ce) {
      chunkArrivals(o, add);
      continue;
    }
    if (ce.exact === false && ce.t.length > 0) estimated = true;
    const { t, tok } = ce;
    for (let i = 0; i < t.length; i++) add(o.startMs! + t[i]!, tokensAt(tok, i));
  }
  if (span <= 0) return { tokensPerS: counts[0]!, estimated };
  const lastMs = span - (n - 1) * 1000;
  let max = 0;
  for (let b = 0; b < n - 1; b++) if (counts[b]! > max) max = counts[b]!;
  if (n > 1 && lastMs < MIN_LAST_BUCKET_MS) {
    const joined = (counts[n - 2]! + counts[n - 1]!) / ((1000 + lastMs) / 1000);
    // The bucket before stands as a whole second too; the joined one replaces only the last.
    max = Math.max(max, joined);
  } else max = Math.max(max, counts[n - 1]! / (lastMs / 1000));
  return { tokensPerS: max, estimated };
}

/** vLLM's max_output_tokens_per_s: chunk arrivals counted in 1-s buckets from the first start. */
export function maxChunksPerSecond(ok: readonly RequestOutcome[]): number {
  return peakPerSecond(ok, chunkArrivals);
}
