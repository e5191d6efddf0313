/**
 * The interval of a change in failure rate between two runs: Newcombe's hybrid score interval for a
 * difference of proportions (Newcombe 1998, method 10), built from each run's Wilson interval. A
 * failure rate is a share of few events (5 of 100), where the bootstrap's percentile interval is
 * too narrow: with no failure in A and four of 100 in B it called B clearly worse (B's resamples
 * almost never draw none), where Fisher's exact test puts the chance of such a split between two
 * runs of one population at 6 % one-sided. The score interval holds its level down to zero
 * failures. Pooled repeats widen each run's Wilson interval by the drift between the repeats
 * (bootstrap-repeats.ts).
 */
import { CI_LEVEL } from './bootstrap.ts';

/** The standard normal quantile for a two-sided interval at `level` (Acklam's approximation). @internal exported for its tests */
export function zOf(level: number): number {
  const p = 1 - (1 - level) / 2;
  // Acklam's rational approximation of the inverse normal CDF, upper region (p > 0.5), |error| < 1.2e-9.
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  if (p > 0.97575) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return (
      -(((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/** Wilson's score interval for x of n. @internal exported for its tests */
export function wilson(x: number, n: number, z: number): [number, number] {
  const p = x / n;
  const z2 = z * z;
  const den = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / den;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / den;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export interface FailureCounts {
  failed: number;
  /** Measured requests (completed + failed). */
  n: number;
  /** Pooled repeats: the factor their drift widens the interval by (1: none). */
  drift?: number;
}

/**
 * The interval of B's failure rate minus A's, as a fraction; null when a run measured nothing or
 * neither had a failure (nothing to say an interval about).
 */
export function failureRateInterval(
  a: FailureCounts,
  b: FailureCounts,
  level = CI_LEVEL,
): [number, number] | null {
  if (a.n <= 0 || b.n <= 0 || (a.failed === 0 && b.failed === 0)) return null;
  const z = zOf(level);
  const pa = a.failed / a.n;
  const pb = b.failed / b.n;
  const [la, ua] = wilson(a.failed, a.n, z);
  const [lb, ub] = wilson(b.failed, b.n, z);
  const fa = a.drift ?? 1;
  const fb = b.drift ?? 1;
  const d = pb - pa;
  const lo = d - Math.hypot(fb * (pb - lb), fa * (ua - pa));
  const hi = d + Math.hypot(fb * (ub - pb), fa * (pa - la));
  return [Math.max(-1, lo), Math.min(1, hi)];
}
