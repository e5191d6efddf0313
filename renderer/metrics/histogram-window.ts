/**
 * Windows over a target's scrapes: which two scrapes bracket a time window, and which histogram
 * bucket a quantile was interpolated in (so the UI can say how coarse a server-side quantile is).
 */
import type { HistogramBucket } from '../../shared/metrics/prom-types.ts';

export interface Bracket {
  /** Index of the newest scrape at or before the window's start (else the oldest scrape). */
  from: number;
  /** Index of the newest scrape at or before the window's end. */
  to: number;
  /** No scrape at or before the start: the window starts at the first scrape instead. */
  clipped: boolean;
}

/** The scrapes bracketing [startMs, endMs]; `times` ascending. Null without two scrapes to span. */
export function bracketWindow(times: readonly number[], startMs: number, endMs: number): Bracket | null {
  let to = -1;
  let from = -1;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (t > endMs) break;
    to = i;
    if (t <= startMs) from = i;
  }
  const clipped = from < 0;
  if (clipped) from = 0;
  if (to <= from) return null;
  return { from, to, clipped };
}

export interface BucketBounds {
  /** Lower bound of the bucket (exclusive), in the histogram's unit. */
  lower: number;
  /** Upper bound (`le`); Infinity when the quantile falls in the +Inf bucket. */
  upper: number;
}

/**
 * The bucket histogramQuantile interpolates in for quantile `q`: same ordering, merging of equal
 * bounds and monotonic counts as Prometheus (promql/quantile.go). The true quantile lies anywhere
 * in (lower, upper]; the interpolated value assumes observations spread evenly inside it. Null
 * when there are no observations.
 */
export function quantileBucket(q: number, buckets: readonly HistogramBucket[]): BucketBounds | null {
  if (!(q >= 0 && q <= 1) || buckets.length < 2) return null;
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  const bs: HistogramBucket[] = [];
  let max = -Infinity;
  for (const b of sorted) {
    const last = bs[bs.length - 1];
    if (last && last.le === b.le) {
      last.count += b.count;
      max = Math.max(max, last.count);
      continue;
    }
    max = Math.max(max, b.count);
    bs.push({ le: b.le, count: max });
  }
  if (bs.length < 2 || bs[bs.length - 1]!.le !== Infinity) return null;
  const total = bs[bs.length - 1]!.count;
  if (!(total > 0)) return null;
  const rank = q * total;
  let i = 0;
  while (i < bs.length - 1 && bs[i]!.count < rank) i++;
  if (i === bs.length - 1) return { lower: bs[bs.length - 2]!.le, upper: Infinity };
  const upper = bs[i]!.le;
  if (i === 0) return { lower: upper <= 0 ? upper : 0, upper };
  return { lower: bs[i - 1]!.le, upper };
}
