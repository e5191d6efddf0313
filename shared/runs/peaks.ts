/**
 * The peaks in a run's summary (summary.ts): vLLM's max_concurrent_requests (a sweep line over
 * [start, start + E2E)) and max_output_tokens_per_s (chunks, or tokens under Tokenscope's
 * definitions, counted in 1-s buckets from the first start).
 */
import type { RequestOutcome } from './run-types.ts';

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

/**
 * Peak output tokens per second in tokens: each content event's tokens counted in the 1-s bucket
 * of its arrival (from the first start). Requests without per-event data count chunks.
 */
export function maxTokensPerSecond(ok: readonly RequestOutcome[]): number {
  return peakPerSecond(ok, (o, add) => {
    const ce = o.contentEvents;
    if (!ce) return chunkArrivals(o, add);
    for (let i = 0; i < ce.t.length; i++) add(o.startMs! + ce.t[i]!, Math.max(1, ce.tok[i]!));
  });
}

/** vLLM's max_output_tokens_per_s: chunk arrivals counted in 1-s buckets from the first start. */
export function maxChunksPerSecond(ok: readonly RequestOutcome[]): number {
  return peakPerSecond(ok, chunkArrivals);
}
