/**
 * Bounds that hold together: a gate reads some 25 rows of one comparison, and a 95 % interval per
 * row says "worse" on one row or another of two runs from one population far more often than one
 * time in twenty (measured: 8 % of pairs at n = 100, gate.test.ts). The rows move together
 * (TTFT mean and p50, three throughputs), so a Bonferroni split (each row at 99.8 %) would be far
 * too strict. Instead one per-row tail share α* is found on the bootstrap's own replicates such
 * that all rows' replicates clear their α*-quantile together in 1 − α of the replicates (a
 * calibrated Bonferroni, the percentile form of the max-statistic method; Westfall & Young 1993):
 * correlated rows cost little, independent ones what they must.
 */

/**
 * Per row, the lower bound of its "worse" change (positive: worse), holding for all rows together
 * with confidence 1 − `alpha`. `worse[r]` is row r's replicates oriented so that worse is positive
 * (NaN: undefined replicate, ignored); all of one length (the same replicates, paired).
 */
export function simultaneousLowerBounds(worse: readonly Float64Array[], alpha: number): number[] {
  const R = worse.length;
  if (R === 0) return [];
  const sorted = worse.map((w) => w.filter(Number.isFinite).sort());
  const B = Math.min(...worse.map((w) => w.length));
  const q = (r: number, a: number) => {
    const s = sorted[r]!;
    return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.floor(a * s.length)))]! : NaN;
  };
  /** The share of replicates in which some row falls below its a-quantile. */
  const missed = (a: number) => {
    const bounds = sorted.map((_, r) => q(r, a));
    let m = 0;
    for (let b = 0; b < B; b++)
      for (let r = 0; r < R; r++)
        if (worse[r]![b]! < bounds[r]!) {
          m++;
          break;
        }
    return B ? m / B : 0;
  };
  // The largest per-row share whose joint miss stays within alpha: between alpha / R (Bonferroni,
  // always enough) and alpha (perfectly correlated rows).
  let lo = alpha / R;
  let hi = alpha;
  if (missed(hi) <= alpha) lo = hi;
  else
    for (let k = 0; k < 30; k++) {
      const mid = (lo + hi) / 2;
      if (missed(mid) <= alpha) lo = mid;
      else hi = mid;
    }
  return sorted.map((_, r) => q(r, lo));
}
