/**
 * The "nice" step (1, 2 or 5 × 10^k) of axis ticks and histogram bins, in shared/ because both the
 * app's charts and the core's report builder (shared/report/) bin values with it.
 */

/** The nice step (1, 2 or 5 × 10^k) closest above `rough`. */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const exp = Math.floor(Math.log10(rough));
  const base = 10 ** exp;
  const f = rough / base;
  // A tolerance, so 0.4 / 4 = 0.10000000000000009 still counts as 0.1.
  const e = 1e-9;
  const m = f <= 1 + e ? 1 : f <= 2 + e ? 2 : f <= 5 + e ? 5 : 10;
  return m * base;
}
