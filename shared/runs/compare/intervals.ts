/**
 * Confidence intervals of a comparison (compare.ts): each run's change against run 0 as a 95 %
 * interval, for every row that has a sample. Latencies and throughputs are resampled per run
 * (bootstrap.ts, bootstrap-rate.ts); the failure rate, a share of few events, takes Newcombe's
 * score interval (failure-interval.ts). Pooled repeats widen both by the drift between them
 * (bootstrap-repeats.ts). A tail quantile decided by too few requests gets no interval at all
 * (MIN_TAIL_REQUESTS) rather than a tight false one.
 */
import {
  bootstrapSteps,
  diffInterval,
  diffReplicates,
  drain,
  drainAsync,
  outcomesFromCounts,
  type RunReplicates,
} from './bootstrap.ts';
import { specKey, type SampleSpec } from './bootstrap-samples.ts';
import { COMPARE_ROWS, mixedItl, type CompareRowDef } from './rows.ts';
import { failureRateInterval, type FailureCounts } from './failure-interval.ts';
import { simultaneousLowerBounds } from './simultaneous.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import type { RunSummary } from '../summary/schema.ts';

/**
 * Run i's interval of the change against run 0 (see compare.ts CompareRow.ci): the interval, or
 * 'too-few' where a quantile rests on fewer than MIN_TAIL_REQUESTS requests in either run, or null.
 */
export type IntervalCell = [number, number] | 'too-few' | null;

/** Per row id, per run: the interval of the change against run 0. */
export type CompareIntervals = Map<string, IntervalCell[]>;

/**
 * What the gate (gate.ts) reads: per row id, per run, the bound of its change in the worse
 * direction (positive: worse; relative, or percentage points for the failure rate) that holds for
 * all gated rows together with 95 % confidence; null where the row has no interval.
 */
export type GateBounds = Map<string, (number | null)[]>;

/**
 * The gate's 5 % of false alarms, shared: 4 % for the resampled rows together (simultaneous.ts),
 * 1 % (one-sided) for the failure rate.
 */
const GATE_ALPHA_ROWS = 0.04;
const GATE_FAIL_LEVEL = 0.98;

/**
 * Requests that must hold a value above a quantile's estimate, in both runs, for its interval.
 * A distribution-free 95 % interval for the p-quantile of n values exists only when pⁿ ≤ 2.5 %
 * (the largest value is then an upper bound): about 3.7 values beyond it — for a p99, n ≥ 367.
 * Below that the bootstrap still gives an interval, but a tight and false one (its replicates
 * can only reshuffle the one or two values above; measured coverage 88 % at n = 30).
 */
export const MIN_TAIL_REQUESTS = 4;

export interface IntervalInput {
  summary: RunSummary;
  /** Measured requests; null when the run has none (an aggregate-only import). */
  outcomes: readonly RequestOutcome[] | null;
  /** Pooled repeats: the sizes of their blocks of outcomes (resampled within each). */
  strata?: readonly number[] | null;
}

/**
 * Intervals for every row that has a sample, each run against run 0. A run known only by counts
 * still gets its failure-rate interval. Seeded: the same runs in the same order always give the
 * same intervals.
 */
export function compareIntervals(
  runs: readonly IntervalInput[],
  opts: { replicates?: number; seed?: number } = {},
): CompareIntervals {
  return drain(intervalSteps(runs, opts)).intervals;
}

/** The intervals, and the bounds the gate reads (GateBounds). */
export function compareIntervalsForGate(
  runs: readonly IntervalInput[],
  opts: { replicates?: number; seed?: number } = {},
): { intervals: CompareIntervals; gate: GateBounds } {
  return drain(intervalSteps(runs, opts));
}

/** compareIntervals in slices that give the event loop back (the app's comparison view). */
export function compareIntervalsAsync(
  runs: readonly IntervalInput[],
  opts: { replicates?: number; seed?: number; signal?: AbortSignal } = {},
): Promise<CompareIntervals> {
  return drainAsync(intervalSteps(runs, opts), { signal: opts.signal }).then((r) => r.intervals);
}

/**
 * Run B's change against run A for one statistic, from their replicates: the 95 % interval, or
 * 'too-few' for a quantile that fewer than MIN_TAIL_REQUESTS requests lie above in either run.
 * @internal exported for its tests
 */
export function changeInterval(
  a: RunReplicates,
  b: RunReplicates,
  spec: SampleSpec,
  mode: 'relative' | 'absolute',
): IntervalCell {
  const k = specKey(spec);
  const ra = a.replicates.get(k);
  const rb = b.replicates.get(k);
  if (!ra || !rb) return null;
  const few = (r: RunReplicates) => (r.tail.get(k) ?? Infinity) < MIN_TAIL_REQUESTS;
  if (spec.stat !== 'mean' && (few(a) || few(b))) return 'too-few';
  return diffInterval(ra, rb, mode);
}

function* intervalSteps(
  runs: readonly IntervalInput[],
  opts: { replicates?: number; seed?: number },
): Generator<void, { intervals: CompareIntervals; gate: GateBounds }> {
  const every = mixedItl(runs.map((r) => r.summary));
  const specOf = (d: CompareRowDef): SampleSpec | undefined =>
    every && d.everyGapSample ? d.everyGapSample : d.sample;
  const specs = COMPARE_ROWS.map(specOf).filter((x): x is SampleSpec => !!x);
  const boots: RunReplicates[] = [];
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i]!;
    const outcomes = r.outcomes ?? outcomesFromCounts(r.summary.vllm.completed, r.summary.vllm.failed);
    const own = r.outcomes ? specs : specs.filter((s) => s.metric === 'failed');
    const seed = opts.seed === undefined ? {} : { seed: opts.seed };
    boots.push(
      yield* bootstrapSteps(outcomes, own, {
        ...seed,
        replicates: opts.replicates,
        salt: `run${i}`,
        strata: r.strata ?? null,
        rates: {
          durationS: r.summary.vllm.duration,
          slo: r.summary.slo ?? null,
          closedLoop: r.summary.config?.requestRate === 'inf',
        },
      }),
    );
  }
  const out: CompareIntervals = new Map();
  const gate: GateBounds = new Map();
  /** Per run: the gated rows' oriented replicate differences, for the simultaneous bounds. */
  const family = runs.map(() => [] as { id: string; worse: Float64Array }[]);
  for (const d of COMPARE_ROWS) {
    const spec = specOf(d);
    if (!spec) continue;
    const k = specKey(spec);
    if (spec.metric === 'failed') {
      const counts = (i: number): FailureCounts => ({
        failed: runs[i]!.summary.vllm.failed,
        n: runs[i]!.summary.vllm.completed + runs[i]!.summary.vllm.failed,
        drift: boots[i]!.drift.get(k) ?? 1,
      });
      const pp = (c: [number, number] | null): [number, number] | null => c && [c[0] * 100, c[1] * 100];
      out.set(
        d.id,
        runs.map((_, i) => (i === 0 ? null : pp(failureRateInterval(counts(0), counts(i))))),
      );
      gate.set(
        d.id,
        runs.map((_, i) => {
          const c = i === 0 ? null : pp(failureRateInterval(counts(0), counts(i), GATE_FAIL_LEVEL));
          return c && (d.better === 'lower' ? c[0] : -c[1]);
        }),
      );
      continue;
    }
    const base = boots[0]?.replicates.get(k);
    const mode = d.change === 'absolute' ? 'absolute' : 'relative';
    out.set(
      d.id,
      boots.map((b, i) => {
        const x = b.replicates.get(k);
        if (i === 0 || !base || !x) return null;
        const ci = changeInterval(boots[0]!, b, spec, mode);
        if (ci === 'too-few') return ci;
        const diffs = ci && d.better ? diffReplicates(base, x, mode) : null;
        if (diffs) family[i]!.push({ id: d.id, worse: d.better === 'lower' ? diffs : diffs.map((v) => -v) });
        return ci;
      }),
    );
  }
  family.forEach((rows, i) => {
    const bounds = simultaneousLowerBounds(
      rows.map((r) => r.worse),
      GATE_ALPHA_ROWS,
    );
    rows.forEach((r, j) => {
      if (!gate.has(r.id))
        gate.set(
          r.id,
          runs.map(() => null),
        );
      gate.get(r.id)![i] = bounds[j]!;
    });
  });
  return { intervals: out, gate };
}
