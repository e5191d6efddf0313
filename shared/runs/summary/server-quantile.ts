/**
 * A server-side quantile is interpolated inside one of the server's histogram buckets, so it is
 * only as precise as that bucket. With vLLM's queue-time buckets (0, 0.3 s] a p50 of "150 ms" is
 * just the middle of the bucket: the true value is anywhere in it, and could exceed a TTFT it is
 * part of; a p99 of "4583 ms" from the bucket 2.5–5 s may truly be 2.61 s. Where the bucket is
 * wide next to the value (WIDE_BUCKET_SHARE), the app, the CLI and comparisons show and compare
 * the bucket itself, not the interpolated number, and the metrics charts draw the bucket as a band.
 */
import { quantileBucket } from '../../metrics/prom-math.ts';
import type { HistogramBucket } from '../../metrics/prom-types.ts';
import type { ServerHistogramStats } from './server-side-schema.ts';

/** ms: lower bound (exclusive), upper bound (null = +Inf). */
export type QuantileBucket = [number, number | null];

/**
 * A bucket is wide when it is wider than this share of the value interpolated in it: the true
 * quantile may then lie more than ±12.5 % from the number shown. vLLM's factor-2 buckets (2.5–5 s,
 * 5–10 s) and its 20-ms TTFT steps around 50 ms are wide by this rule; so is an open bucket.
 */
const WIDE_BUCKET_SHARE = 0.25;

/**
 * The bucket when it is wide next to the value interpolated in it (see WIDE_BUCKET_SHARE), or open
 * (+Inf); null when the value is precise enough to show as a number.
 */
export function wideBucket(
  b: QuantileBucket | null | undefined,
  value: number | null | undefined,
): QuantileBucket | null {
  if (!b) return null;
  const [lo, hi] = b;
  if (hi === null) return [lo, null];
  const v = value ?? (lo + hi) / 2;
  return hi - lo > WIDE_BUCKET_SHARE * Math.abs(v) ? [lo, hi] : null;
}

/**
 * The bucket quantile `q` of these cumulative buckets lies in, times `scale`, when it is wide next
 * to the value interpolated in it (`value`, same unit as the result); null when that value is
 * precise enough to show, or there are no observations.
 */
export function wideQuantileBucket(
  q: number,
  buckets: readonly HistogramBucket[],
  value: number | null,
  scale = 1,
): QuantileBucket | null {
  const b = quantileBucket(q, buckets);
  if (!b) return null;
  return wideBucket([b.lower * scale, Number.isFinite(b.upper) ? b.upper * scale : null], value);
}

/** The wide bucket a server quantile lies in, or null when its interpolated value is good. */
export function serverQuantileRange(
  h: ServerHistogramStats | null | undefined,
  q: 'p50' | 'p99',
): QuantileBucket | null {
  if (!h || h[q] === null || h[q] === undefined) return null;
  return wideBucket(q === 'p50' ? h.p50Bucket : h.p99Bucket, h[q]);
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
