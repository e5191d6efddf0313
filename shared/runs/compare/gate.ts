/**
 * The CI gate of a comparison (`tokenscope compare --max-regression PCT`): which changes are
 * regressions *with 95 % confidence*. Only rows with an interval are gated — a change without one
 * (peak throughput, server metrics, counts, an aggregate-only import, a quantile on too few
 * requests) cannot be told from noise, so it is listed as not gated instead of failing the build
 * on a raw number. Two runs of one workload differ by their requests and by their time: the
 * latency intervals resample requests, the throughputs' resample their share of the run's time
 * too (bootstrap-rate.ts), the failure rate has a score interval (failure-interval.ts), and
 * pooled repeats add their drift (bootstrap-repeats.ts). gate.test.ts measures the gate's
 * false alarms on pairs of runs drawn from one population.
 */
import { ciCell, fmtChange } from './export.ts';
import { LETTERS } from '../letters.ts';
import type { CompareRow } from './compare.ts';
import type { GateBounds } from './intervals.ts';

interface Regression {
  run: string;
  metric: string;
  label: string;
  /** The change (relative, or percentage points for the failure rate). */
  change: number;
  /** Its 95 % interval. */
  interval: [number, number];
  /** The bound the gate read: worse by at least this, with the other gated rows (GateBounds). */
  bound: number;
  text: string;
}

/** A change worse than the threshold by its value that the gate could not judge (no interval). */
interface Ungated {
  run: string;
  metric: string;
  label: string;
  change: number;
  text: string;
}

export interface GateResult {
  regressions: Regression[];
  ungated: Ungated[];
}

/**
 * A metric regresses when it is worse than A by more than `maxRel` (a fraction: 0.05) with
 * confidence — its bound in the worse direction clears the threshold; the failure rate when its
 * bound lies above `maxFailPp` percentage points. The bounds hold for all gated rows together
 * (GateBounds), so two runs of one population fail the gate at most one time in twenty.
 */
export function gateRegressions(
  rows: readonly CompareRow[],
  bounds: GateBounds,
  maxRel: number | null,
  maxFailPp: number,
): GateResult {
  const regressions: Regression[] = [];
  const ungated: Ungated[] = [];
  for (const r of rows) {
    const fail = r.def.id === 'fail-rate';
    if (!fail && (maxRel === null || r.def.better === null)) continue;
    const limit = fail ? maxFailPp : maxRel!;
    const lower = r.def.better === 'lower';
    r.rel.forEach((change, i) => {
      // A quantile known only to a wide server bucket has no number to gate on.
      if (i === 0 || change === null || r.byBucket[i]) return;
      const ci = r.ci[i] ?? null;
      const bound = bounds.get(r.def.id)?.[i] ?? null;
      const base = { run: LETTERS[i]!, metric: r.def.id, label: r.def.label, change };
      if (!ci || bound === null) {
        if ((lower ? change : -change) > limit)
          ungated.push({
            ...base,
            text: `${fmtChange(r, change)} (${r.tooFew[i] ? 'too few requests' : 'no interval'})`,
          });
        return;
      }
      if (bound <= limit) return;
      const shown = fmtChange(r, lower ? bound : -bound);
      regressions.push({
        ...base,
        interval: ci,
        bound,
        text: `${fmtChange(r, change)} ${ciCell(r, i)} (gate bound ${shown})`,
      });
    });
  }
  return { regressions, ungated };
}
