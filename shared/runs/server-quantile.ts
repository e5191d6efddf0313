/**
 * A server-side quantile is interpolated inside one of the server's histogram buckets, so it is
 * only as precise as that bucket. With vLLM's queue-time buckets (0, 0.3 s] a p50 of "150 ms" is
 * just the middle of the bucket: the true value is anywhere in it, and could exceed a TTFT it is
 * part of. Where the bucket is wide next to the value, the app, the CLI and comparisons show and
 * compare the bucket itself, not the interpolated number.
 */
import type { ServerHistogramStats } from './run-types.ts';

/** ms: lower bound (exclusive), upper bound (null = +Inf). */
export type QuantileBucket = [number, number | null];

/** The bucket when it is wide next to what it holds (wider than half its upper bound, or open). */
export function wideBucket(b: QuantileBucket | null | undefined): QuantileBucket | null {
  if (!b) return null;
  const [lo, hi] = b;
  if (hi === null) return [lo, null];
  return hi - lo > 0.5 * hi ? [lo, hi] : null;
}

/** The wide bucket a server quantile lies in, or null when its interpolated value is good. */
export function serverQuantileRange(
  h: ServerHistogramStats | null | undefined,
  q: 'p50' | 'p99',
): QuantileBucket | null {
  if (!h || h[q] === null || h[q] === undefined) return null;
  return wideBucket(q === 'p50' ? h.p50Bucket : h.p99Bucket);
}

const short = (v: number) => String(+v.toPrecision(3));

/** A bucket in ms as text, without unit: "0–300", "> 10000". */
export function bucketText(b: QuantileBucket): string {
  return b[1] === null ? `> ${short(b[0])}` : `${short(b[0])}–${short(b[1])}`;
}

/**
 * How two bucketed values compare: 'same' in the same bucket, 'lower'/'higher' when the buckets do
 * not overlap, null when they overlap without being equal (nothing can be said).
 */
export function compareBuckets(a: QuantileBucket, b: QuantileBucket): 'same' | 'lower' | 'higher' | null {
  const hi = (x: QuantileBucket) => (x[1] === null ? Infinity : x[1]);
  if (a[0] === b[0] && hi(a) === hi(b)) return 'same';
  if (hi(b) <= a[0]) return 'lower';
  if (b[0] >= hi(a)) return 'higher';
  return null;
}
