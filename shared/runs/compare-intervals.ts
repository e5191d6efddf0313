/**
 * Confidence intervals of a comparison (compare.ts): every row with a sample resampled per run
 * (bootstrap.ts), each run's change against run 0 as a 95 % interval.
 */
import { bootstrapSteps, diffInterval, drain, drainAsync, outcomesFromCounts } from './bootstrap.ts';
import { specKey, type SampleSpec } from './bootstrap-samples.ts';
import { COMPARE_ROWS, mixedItl, type CompareRowDef } from './compare-rows.ts';
import type { RequestOutcome, RunSummary } from './run-types.ts';

/** Per row id, per run: the interval of the change against run 0 (see compare.ts CompareRow.ci). */
export type CompareIntervals = Map<string, ([number, number] | null)[]>;

export interface IntervalInput {
  summary: RunSummary;
  /** Measured requests; null when the run has none (an aggregate-only import). */
  outcomes: readonly RequestOutcome[] | null;
  /** Pooled repeats: the sizes of their blocks of outcomes (resampled within each). */
  strata?: readonly number[] | null;
}

/**
 * Bootstrap intervals (bootstrap.ts) for every row that has a sample, each run against run 0.
 * A run known only by counts still gets its failure-rate interval. Seeded: the same runs in the
 * same order always give the same intervals.
 */
export function compareIntervals(
  runs: readonly IntervalInput[],
  opts: { replicates?: number; seed?: number } = {},
): CompareIntervals {
  return drain(intervalSteps(runs, opts));
}

/** compareIntervals in slices that give the event loop back (the app's comparison view). */
export function compareIntervalsAsync(
  runs: readonly IntervalInput[],
  opts: { replicates?: number; seed?: number; signal?: AbortSignal } = {},
): Promise<CompareIntervals> {
  return drainAsync(intervalSteps(runs, opts), { signal: opts.signal });
}

function* intervalSteps(
  runs: readonly IntervalInput[],
  opts: { replicates?: number; seed?: number },
): Generator<void, CompareIntervals> {
  const every = mixedItl(runs.map((r) => r.summary));
  const specOf = (d: CompareRowDef): SampleSpec | undefined =>
    every && d.everyGapSample ? d.everyGapSample : d.sample;
  const specs = COMPARE_ROWS.map(specOf).filter((x): x is SampleSpec => !!x);
  const reps: Map<string, Float64Array>[] = [];
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i]!;
    const outcomes = r.outcomes ?? outcomesFromCounts(r.summary.vllm.completed, r.summary.vllm.failed);
    const own = r.outcomes ? specs : specs.filter((s) => s.metric === 'failed');
    const seed = opts.seed === undefined ? {} : { seed: opts.seed };
    reps.push(
      (yield* bootstrapSteps(outcomes, own, { ...seed, replicates: opts.replicates, salt: `run${i}` }))
        .replicates,
    );
  }
  const out: CompareIntervals = new Map();
  for (const d of COMPARE_ROWS) {
    const spec = specOf(d);
    if (!spec) continue;
    const k = specKey(spec);
    const base = reps[0]?.get(k);
    const absolute = d.change === 'absolute';
    out.set(
      d.id,
      reps.map((r, i) => {
        const x = r.get(k);
        if (i === 0 || !base || !x) return null;
        const ci = diffInterval(base, x, absolute ? 'absolute' : 'relative');
        // A share's replicates are fractions; the row's unit is %.
        return ci && absolute && d.unit === '%' ? [ci[0] * 100, ci[1] * 100] : ci;
      }),
    );
  }
  return out;
}
