/**
 * Pooled repeats (pooled.ts) and run-to-run drift. Resampling requests within each repeat sees
 * only the noise of sampling requests; repeats of one workload also differ as whole runs (a cache
 * warming, another tenant, thermal throttling), and two runs compared are two draws of that too.
 * Where a pooled run has repeats, their own statistics show it: under no drift the k repeats'
 * values scatter as much as sampling alone explains (each has 1/k of the requests, so about k times
 * the pooled replicates' variance); what scatters beyond that is the between-run variance τ², and
 * the pooled estimate carries τ²/k of it (a one-way random-effects model). The replicates are then
 * spread around the point estimate by √(1 + τ²/(k·V)), V their own variance: the interval widens
 * by the drift the repeats show and not at all when they agree. With two or three repeats τ² is a
 * rough estimate (one or two degrees of freedom); it is the best the data can say.
 */

/** Sample variance (n − 1) of the finite values; null with fewer than two. */
function variance(xs: ArrayLike<number>): number | null {
  let n = 0;
  let s = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (!Number.isFinite(x)) continue;
    n++;
    s += x;
  }
  if (n < 2) return null;
  const m = s / n;
  let v = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (Number.isFinite(x)) v += (x - m) * (x - m);
  }
  return v / (n - 1);
}

/**
 * The factor (≥ 1) by which the replicates' spread is widened for the drift between repeats:
 * `perRepeat` the statistic on each repeat alone, `sizes` their requests.
 */
export function driftFactor(
  reps: Float64Array,
  perRepeat: readonly number[],
  sizes: readonly number[],
): number {
  const V = variance(reps);
  const between = variance(perRepeat);
  if (V === null || between === null || !(V > 0)) return 1;
  const N = sizes.reduce((a, b) => a + b, 0);
  let expected = 0;
  let k = 0;
  perRepeat.forEach((x, j) => {
    if (!Number.isFinite(x) || !(sizes[j]! > 0)) return;
    expected += (V * N) / sizes[j]!;
    k++;
  });
  expected /= Math.max(1, k);
  const tau2 = Math.max(0, between - expected);
  return Math.sqrt(1 + tau2 / (k * V));
}

/** Spreads replicates around `point` by `f` (in place). */
export function widen(reps: Float64Array, point: number, f: number): void {
  if (f === 1 || !Number.isFinite(point)) return;
  for (let b = 0; b < reps.length; b++) reps[b] = point + f * (reps[b]! - point);
}
