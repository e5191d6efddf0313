/**
 * The comparison view's distributions: an empirical CDF per run from its per-request values, on
 * an x axis fitted to the data. The numbers themselves are compared in shared/runs/compare/compare.ts.
 */
import { LOG_X_DECADES } from '../../../shared/charts/histogram-bins.ts';
import { niceTicks } from '../../core/charts/ticks.ts';
import { compareRows, failureBanner, workloadDifferences } from '../../../shared/runs/compare/compare.ts';
import { compareByModel } from '../../../shared/runs/compare/by-model.ts';
import type { CompareIntervals } from '../../../shared/runs/compare/intervals.ts';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import type { RunHeader } from '../../../shared/runs/file/line-schema.ts';

export {
  bucketChangeText,
  MAX_COMPARED,
  SAME_WITHIN,
  tooFewText,
  type CompareRow,
} from '../../../shared/runs/compare/compare.ts';
export { RUN_COLORS } from '../../../shared/runs/letters.ts';
export { compareIntervalsAsync, type CompareIntervals } from '../../../shared/runs/compare/intervals.ts';
export { modelIntervalsAsync, type ModelComparison } from '../../../shared/runs/compare/by-model.ts';

/**
 * What a comparison says of its runs, the app's and a report's alike: the rows against the first
 * run (with the intervals once computed; `sameWithin` the equivalence margin), the failure
 * banner, whether any row is unreliable, how the workloads differ, and for model mixes each
 * model's rows (`byModel`: their intervals are in `ci` too, under the rows' own ids).
 */
export function comparisonVerdicts(
  summaries: readonly RunSummary[],
  headers: readonly (RunHeader | null)[],
  ci: CompareIntervals | null,
  sameWithin: number | undefined,
) {
  const rows = compareRows(summaries, ci, sameWithin === undefined ? {} : { sameWithin });
  return {
    rows,
    byModel: compareByModel(summaries, ci, sameWithin === undefined ? {} : { sameWithin }),
    banner: failureBanner(summaries, rows),
    anyUnreliable: rows.some((r) => r.unreliable.some(Boolean)),
    diffs: workloadDifferences(headers.map((header, i) => ({ header, summary: summaries[i]! }))),
  };
}
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

/**
 * The x axis of overlaid CDFs on a log scale: whole decades around the positive values, ticks at
 * each decade (and at 2 and 5 when there are fewer than three). Whether it is the default: the
 * values from the 1st percentile up span more than LOG_X_DECADES (a seconds-long tail beside
 * milliseconds squeezes the bulk against the axis).
 */
export function cdfLogDomain(series: readonly { points: readonly { v: number; p: number }[] }[]): {
  lo: number;
  hi: number;
  ticks: number[];
  auto: boolean;
} {
  let min = Infinity;
  let bulk = Infinity;
  let max = -Infinity;
  for (const s of series)
    for (const q of s.points) {
      if (q.v > 0 && q.v < min) min = q.v;
      if (q.v > 0 && q.p >= 1 && q.v < bulk) bulk = q.v;
      if (q.v > max) max = q.v;
    }
  if (!Number.isFinite(min) || !(max > 0)) return { lo: 1, hi: 10, ticks: [1, 10], auto: false };
  const e0 = Math.floor(Math.log10(min) + 1e-9);
  const e1 = Math.max(e0 + 1, Math.ceil(Math.log10(max) - 1e-9));
  const decades: number[] = [];
  for (let e = e0; e <= e1; e++) decades.push(Number((10 ** e).toPrecision(6)));
  const ticks =
    decades.length >= 3
      ? decades
      : decades
          .flatMap((d, i) => (i < decades.length - 1 ? [d, d * 2, d * 5] : [d]))
          .map((v) => Number(v.toPrecision(6)));
  const lo = decades[0]!;
  const hi = decades[decades.length - 1]!;
  return { lo, hi, ticks, auto: Math.log10(max / (Number.isFinite(bulk) ? bulk : min)) > LOG_X_DECADES };
}
