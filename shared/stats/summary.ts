/**
 * Summary statistics as `vllm bench serve` reports them: mean, median, std (population, numpy's
 * default ddof=0), min, max and percentiles with numpy's default "linear" interpolation
 * (index = p/100 · (n−1), interpolate between the neighbours). Using the same definition is
 * what lets a user compare our p99 with vLLM's to the millisecond.
 */
export interface Summary {
  count: number;
  mean: number;
  median: number;
  std: number;
  min: number;
  max: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
}

/** numpy.percentile(values, p) with method='linear', on an ascending-sorted array. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  if (p <= 0) return sorted[0]!;
  if (p >= 100) return sorted[n - 1]!;
  const idx = (p / 100) * (n - 1);
  const lo = Math.floor(idx);
  const hi = Math.min(lo + 1, n - 1);
  const frac = idx - lo;
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * frac;
}

export function sortedCopy(values: ArrayLike<number>): Float64Array {
  // A Float64Array is copied whole (Float64Array.from walks it through the iterator protocol:
  // 10× slower, and garbage per value).
  const a = values instanceof Float64Array ? values.slice() : Float64Array.from(values);
  a.sort();
  return a;
}

export function summarize(values: ArrayLike<number>): Summary | null {
  return values.length === 0 ? null : summarizeInPlace(sortedCopy(values));
}

/**
 * `summarize` of `values`, which it sorts in place (no copy: a caller that built the array for
 * this, a run's pool of a million gaps, holds one array instead of two). The same numbers, to the
 * last digit: the same sort, sums in the same order.
 */
export function summarizeInPlace(values: Float64Array): Summary | null {
  const n = values.length;
  if (n === 0) return null;
  const s = values.sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += s[i]!;
  const mean = sum / n;
  let sq = 0;
  for (let i = 0; i < n; i++) {
    const d = s[i]! - mean;
    sq += d * d;
  }
  return {
    count: n,
    mean,
    median: percentileSorted(s, 50),
    std: Math.sqrt(sq / n),
    min: s[0]!,
    max: s[n - 1]!,
    p90: percentileSorted(s, 90),
    p95: percentileSorted(s, 95),
    p99: percentileSorted(s, 99),
    p999: percentileSorted(s, 99.9),
  };
}
