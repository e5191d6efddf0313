/**
 * Counter and histogram math with Prometheus semantics, for series scraped by Tokenscope itself.
 * Sources: prometheus/prometheus promql/functions.go (extrapolatedRate) and promql/quantile.go
 * (bucketQuantile, coalesceBuckets, correctPrecisionErrors, ensureMonotonic).
 * Times are milliseconds (monotonic or wall, the caller's choice); rates are per second.
 */
import type { HistogramBucket, HistogramSeries } from './prom-types.ts';

export interface Point {
  /** Milliseconds. */
  t: number;
  v: number;
}

/**
 * Increase of a counter over consecutive points, reset-aware: a decrease means the counter
 * restarted from 0, so the new value itself is the increase since the reset (Prometheus
 * `increase()` without extrapolation). NaN with fewer than 2 points.
 */
export function counterIncrease(points: readonly Point[]): number {
  if (points.length < 2) return NaN;
  let inc = 0;
  let prev = (points[0] as Point).v;
  for (let i = 1; i < points.length; i++) {
    const v = (points[i] as Point).v;
    inc += v < prev ? v : v - prev;
    prev = v;
  }
  return inc;
}

/** Per-second rate between the first and last point, reset-aware. NaN if < 2 points or no time passed. */
export function counterRate(points: readonly Point[]): number {
  if (points.length < 2) return NaN;
  const dt = ((points[points.length - 1] as Point).t - (points[0] as Point).t) / 1000;
  if (!(dt > 0)) return NaN;
  return counterIncrease(points) / dt;
}

/**
 * Prometheus `increase(x[range])` as the server evaluates it at `rangeEndMs`: the reset-adjusted
 * delta extrapolated towards the window edges (fully when the first/last sample lies within 1.1
 * average intervals of the edge, else by half an interval), never extrapolating a counter below
 * zero. `points` must lie inside [rangeStartMs, rangeEndMs].
 * @internal exported for its tests
 */
export function promIncrease(points: readonly Point[], rangeStartMs: number, rangeEndMs: number): number {
  if (points.length < 2) return NaN;
  const first = points[0] as Point;
  const last = points[points.length - 1] as Point;
  const result = counterIncrease(points);
  const sampled = (last.t - first.t) / 1000;
  if (!(sampled > 0)) return NaN;
  const avg = sampled / (points.length - 1);
  const threshold = avg * 1.1;
  let toStart = (first.t - rangeStartMs) / 1000;
  let toEnd = (rangeEndMs - last.t) / 1000;
  if (toStart >= threshold) toStart = avg / 2;
  if (result > 0 && first.v >= 0) {
    const toZero = sampled * (first.v / result);
    if (toZero < toStart) toStart = toZero;
  }
  if (toEnd >= threshold) toEnd = avg / 2;
  return result * ((sampled + toStart + toEnd) / sampled);
}

/**
 * `histogram_quantile(q, ...)` over classic buckets (cumulative counts, `le` upper bounds), as
 * promql/quantile.go bucketQuantile does it:
 * - q < 0 → -Inf, q > 1 → +Inf, q NaN → NaN;
 * - no +Inf bucket, fewer than 2 buckets, or 0 observations → NaN;
 * - buckets sorted by le, equal bounds merged, float noise (relative 1e-12) smoothed, and
 *   counts forced monotonic (a bucket lower than its predecessor takes the predecessor's count);
 * - rank = q × total; the first bucket whose count ≥ rank holds it; inside it, linear
 *   interpolation between the previous bound and its own (from 0 for the lowest bucket when its
 *   bound is > 0; a lowest bound ≤ 0 is returned as is);
 * - a rank in the +Inf bucket returns the highest finite bound.
 */
export function histogramQuantile(q: number, buckets: readonly HistogramBucket[]): number {
  if (Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  if (buckets.length === 0) return NaN;
  const sorted = buckets.map((b) => ({ le: b.le, count: b.count })).sort((a, b) => a.le - b.le);
  if ((sorted[sorted.length - 1] as HistogramBucket).le !== Infinity) return NaN;
  const bs = coalesce(sorted);
  correctPrecisionErrors(bs, 1e-12);
  ensureMonotonic(bs);
  if (bs.length < 2) return NaN;
  const total = (bs[bs.length - 1] as HistogramBucket).count;
  if (total === 0) return NaN;
  let rank = q * total;
  // First index in [0, n-1) whose count >= rank; n-1 when none (Go's sort.Search).
  let b = 0;
  while (b < bs.length - 1 && (bs[b] as HistogramBucket).count < rank) b++;
  if (b === bs.length - 1) return (bs[bs.length - 2] as HistogramBucket).le;
  const hit = bs[b] as HistogramBucket;
  if (b === 0 && hit.le <= 0) return hit.le;
  let start = 0;
  let count = hit.count;
  if (b > 0) {
    const below = bs[b - 1] as HistogramBucket;
    start = below.le;
    count -= below.count;
    rank -= below.count;
  }
  return start + (hit.le - start) * (rank / count);
}

function coalesce(bs: HistogramBucket[]): HistogramBucket[] {
  const out: HistogramBucket[] = [];
  for (const b of bs) {
    const last = out[out.length - 1];
    if (last !== undefined && last.le === b.le) last.count += b.count;
    else out.push(b);
  }
  return out;
}

function correctPrecisionErrors(bs: HistogramBucket[], tolerance: number): void {
  let prev = (bs[0] as HistogramBucket).count;
  for (let i = 1; i < bs.length; i++) {
    const b = bs[i] as HistogramBucket;
    const delta = Math.abs(b.count - prev);
    if (delta === 0) continue;
    if (delta / b.count <= tolerance) b.count = prev;
    else prev = b.count;
  }
}

function ensureMonotonic(bs: HistogramBucket[]): void {
  let max = (bs[0] as HistogramBucket).count;
  for (let i = 1; i < bs.length; i++) {
    const b = bs[i] as HistogramBucket;
    if (b.count > max) max = b.count;
    else if (b.count < max) b.count = max;
  }
}

/** A histogram without labels: what deltas and merges produce. */
export interface HistogramData {
  buckets: HistogramBucket[];
  sum: number;
  count: number;
}

export interface HistogramDelta extends HistogramData {
  /** True when the later scrape shows a counter reset (server restart): the delta is `curr` itself. */
  reset: boolean;
}

/**
 * What was observed between two scrapes of one histogram series: bucket-wise subtraction matched
 * by `le`. A reset (`_count` or any bucket going down, or a changed bucket layout) means the
 * server restarted between the scrapes; the observations since the restart are then `curr` as a
 * whole, as Prometheus' per-bucket reset handling would also conclude. (`_sum` alone is not a
 * reset signal: negative observations can lower it.)
 */
export function histogramDelta(prev: HistogramData, curr: HistogramData): HistogramDelta {
  const prevByLe = new Map<number, number>();
  for (const b of prev.buckets) prevByLe.set(b.le, b.count);
  let reset = curr.count < prev.count || curr.buckets.length !== prev.buckets.length;
  const buckets: HistogramBucket[] = [];
  for (const b of curr.buckets) {
    const p = prevByLe.get(b.le);
    if (p === undefined || b.count < p) reset = true;
    buckets.push({ le: b.le, count: b.count - (p ?? 0) });
  }
  if (reset)
    return { buckets: curr.buckets.map((b) => ({ ...b })), sum: curr.sum, count: curr.count, reset: true };
  return { buckets, sum: curr.sum - prev.sum, count: curr.count - prev.count, reset: false };
}

/**
 * What a histogram observed over consecutive scrapes, reset-aware at every step (Prometheus'
 * `increase()` over buckets, without extrapolation): the sum of each consecutive pair's delta, so a
 * restart between two scrapes loses nothing counted before it — comparing only the first and last
 * scrape would keep just what came after the restart. Buckets are matched by `le` (a restart may
 * change the layout: bounds missing on one side add nothing there). Null entries (a scrape that
 * lacked the series) are skipped; null with fewer than two scrapes that have it.
 */
export function histogramIncrease(series: readonly (HistogramData | null)[]): HistogramDelta | null {
  const present = series.filter((h): h is HistogramData => h !== null);
  if (present.length < 2) return null;
  const byLe = new Map<number, number>();
  let sum = 0;
  let count = 0;
  let reset = false;
  for (let i = 1; i < present.length; i++) {
    const d = histogramDelta(present[i - 1]!, present[i]!);
    reset ||= d.reset;
    sum += d.sum;
    count += d.count;
    for (const b of d.buckets) byLe.set(b.le, (byLe.get(b.le) ?? 0) + b.count);
  }
  const buckets = [...byLe].sort((a, b) => a[0] - b[0]).map(([le, c]) => ({ le, count: c }));
  return { buckets, sum, count, reset };
}

/**
 * Sum several series of one family bucket-wise (`sum by (le)` in PromQL): for several engines or
 * models behind one endpoint. Bounds missing from some series are kept; their counts only add
 * where present, which is what Prometheus' `sum` over mismatched layouts also yields.
 */
export function mergeHistograms(series: readonly (HistogramData | HistogramSeries)[]): HistogramData | null {
  if (series.length === 0) return null;
  const byLe = new Map<number, number>();
  let sum = 0;
  let count = 0;
  for (const h of series) {
    for (const b of h.buckets) byLe.set(b.le, (byLe.get(b.le) ?? 0) + b.count);
    sum += h.sum;
    count += h.count;
  }
  const buckets = [...byLe].map(([le, c]) => ({ le, count: c })).sort((a, b) => a.le - b.le);
  return { buckets, sum, count };
}

/** Scale bounds and sum (unit normalisation: ms → s is 0.001). Counts are unchanged. */
export function scaleHistogram(h: HistogramData, factor: number): HistogramData {
  if (factor === 1) return h;
  return {
    buckets: h.buckets.map((b) => ({ le: b.le * factor, count: b.count })),
    sum: h.sum * factor,
    count: h.count,
  };
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
