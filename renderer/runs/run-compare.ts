/**
 * The comparison view's distributions: an empirical CDF per run from its per-request values, on
 * an x axis fitted to the data. The numbers themselves are compared in shared/runs/compare.ts.
 */
import { niceTicks } from '../core/charts/ticks.ts';

export {
  bucketChangeText,
  compareRows,
  failureBanner,
  MAX_COMPARED,
  RUN_COLORS,
  SAME_WITHIN,
  tooFewText,
  workloadDifferences,
  type CompareRow,
  type Verdict,
} from '../../shared/runs/compare.ts';
export { compareIntervalsAsync, type CompareIntervals } from '../../shared/runs/compare-intervals.ts';
export { cdfFromValues } from '../../shared/runs/distributions.ts';
export { COMPARE_ROWS, type CompareRowDef } from '../../shared/runs/compare-rows.ts';

/**
 * The x axis of overlaid CDFs: from the smallest to the largest value of any run, widened to
 * whole steps of a nice tick spacing. Not from 0: TPOTs of 20.3 and 20.6 ms would be two
 * vertical lines at the right edge of a 0–21 ms axis.
 */
export function cdfDomain(
  series: readonly { points: readonly { v: number }[] }[],
  target = 5,
): { lo: number; hi: number; ticks: number[] } {
  let min = Infinity;
  let max = -Infinity;
  for (const s of series)
    for (const p of s.points) {
      if (p.v < min) min = p.v;
      if (p.v > max) max = p.v;
    }
  if (!Number.isFinite(min)) return { lo: 0, hi: 1, ticks: [0, 1] };
  // One value, or one value written two ways (19.999999999999996 and 20.000000000000004: the same
  // gap from two pairs of rounded times): nice ticks cannot step through a range at the values'
  // float precision (niceTicks would count ~1e16 + 1 = 1e16 forever), so widen it around the middle.
  if (max - min <= Math.max(Math.abs(min), Math.abs(max)) * 1e-9) {
    const mid = (min + max) / 2;
    const pad = mid === 0 ? 1 : Math.abs(mid) * 0.05;
    ({ min, max } = { min: mid - pad, max: mid + pad });
  }
  const { step, decimals } = niceTicks(min, max, target);
  const round = (v: number) => Number(v.toFixed(decimals));
  const lo = round(Math.floor(min / step + 1e-9) * step);
  const hi = round(Math.ceil(max / step - 1e-9) * step);
  const ticks: number[] = [];
  for (let k = 0; lo + k * step <= hi + step * 1e-9; k++) ticks.push(round(lo + k * step));
  return { lo, hi, ticks };
}
