/**
 * A comparison by model: where compared runs spread their requests over a model mix (workload
 * `models`, summary.byModel), each model's numbers side by side — failure rate, request and output
 * throughput, TTFT, ITL and E2E p50 and p99 — with the same changes, 95 % intervals and verdicts as
 * the overall rows (compare.ts), except throughput: a share of the run, without a verdict (BASE).
 * A model's intervals resample that model's requests alone (modelIntervals: the runs' outcomes
 * carry their model), so a verdict on a model's p99 is as honest as the run's: "too few requests"
 * where its tail is thin. A model that only some runs
 * sent is listed, with the runs it is missing from, never dropped.
 */
import { streamsTokens } from '../summary/batch.ts';
import type { ModelRow } from '../summary/by-model-schema.ts';
import type { RunSummary } from '../summary/schema.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import { LETTERS } from '../letters.ts';
import { MAX_MIX_MODELS } from '../workload/models.ts';
import { compareRowsOf, type CompareOptions, type CompareRow } from './compare.ts';
import {
  compareIntervals,
  compareIntervalsAsync,
  type CompareIntervals,
  type IntervalCell,
  type IntervalInput,
} from './intervals.ts';
import { mixedItl, type CompareRowDef } from './rows.ts';
import type { SampleSpec } from './bootstrap-samples.ts';

/** One model across the compared runs. */
interface ModelCompare {
  model: string;
  /** Per run: the model is in its by-model numbers (false: the run has a mix without it, or none). */
  present: boolean[];
  /** Its rows; the first carries the model's heading as its group. */
  rows: CompareRow[];
}

export interface ModelComparison {
  models: ModelCompare[];
  /** Models past MAX_MIX_MODELS left out (a file naming more than any mix can: not compared). */
  more: number;
  /** Runs (indices) with no numbers by model at all: no mix, an import, an older file. */
  noMix: number[];
}

/**
 * The overall rows (rows.ts ids) a model's rows mirror, with their samples: the intervals' keys.
 * A model's throughput is its requests over the whole run's time: a share of a run the models
 * share. It moves when another model changes (a slower adapter holds the run's concurrency slots
 * longer, so the others get fewer), so its change is shown, with its interval, but without a
 * verdict on the model; its latencies carry the verdicts.
 */
const BASE: readonly {
  base: string;
  label: string;
  unit: CompareRowDef['unit'];
  better: 'lower' | 'higher' | null;
  sample: SampleSpec;
  get: (r: ModelRow) => number | null;
}[] = [
  {
    base: 'fail-rate',
    label: 'Failure rate',
    unit: '%',
    better: 'lower',
    sample: { metric: 'failed', stat: 'mean' },
    get: (r) => (r.requests > 0 ? (100 * r.failed) / r.requests : null),
  },
  {
    base: 'req-tput',
    label: 'Request throughput',
    unit: 'req/s',
    better: null, // a share of the run (see the note above BASE)
    sample: { metric: 'req_tput', stat: 'mean' },
    get: (r) => r.requestThroughput,
  },
  {
    base: 'out-tput',
    label: 'Output token throughput',
    unit: 'tok/s',
    better: null, // a share of the run (see the note above BASE)
    sample: { metric: 'out_tput', stat: 'mean' },
    get: (r) => r.outputThroughput,
  },
  ...(['ttft', 'itl', 'e2el'] as const).flatMap((m) =>
    ([50, 99] as const).map((q) => ({
      base: `${m}-p${q}`,
      label: `${m === 'ttft' ? 'TTFT' : m === 'itl' ? 'ITL per chunk' : 'E2E latency'} p${q}`,
      unit: 'ms' as const,
      better: 'lower' as const,
      sample: { metric: m, stat: q },
      get: (r: ModelRow) => r[m]?.[q === 50 ? 'median' : 'p99'] ?? null,
    })),
  ),
];

const num = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

/**
 * A model's row id: unique across models (`model:<name>:<overall row id>`).
 * @internal exported for its tests
 */
export const modelRowId = (model: string, base: string): string => `model:${model}:${base}`;

const rowOf = (s: RunSummary, model: string): ModelRow | undefined =>
  s.byModel?.find((r) => r.model === model);

/** The heading above a model's rows: its name, and the runs it is missing from. */
function heading(model: string, present: readonly boolean[], noMix: readonly number[]): string {
  const missing = present.flatMap((p, i) => (p || noMix.includes(i) ? [] : [LETTERS[i]!]));
  const only = present.flatMap((p, i) => (p ? [LETTERS[i]!] : []));
  if (missing.length === 0) return `Model ${model}`;
  return `Model ${model} — only in ${only.join(', ')} (not in ${missing.join(', ')})`;
}

function defsOf(model: string, group: string): CompareRowDef[] {
  return BASE.map((b, i) => ({
    id: modelRowId(model, b.base),
    label: b.label,
    unit: b.unit,
    better: b.better,
    sample: b.sample,
    ...(b.base === 'fail-rate' ? { change: 'absolute' as const } : { failureSensitive: true }),
    ...(i === 0 ? { group } : {}),
    get: (s: RunSummary) => {
      const r = rowOf(s, model);
      if (!r || (b.base !== 'fail-rate' && b.base !== 'req-tput' && !streamsTokens(s))) return null;
      return num(b.get(r));
    },
  }));
}

/**
 * The models of the runs' mixes: the first mix's order, then names only later runs have. A run
 * file's lines name their model, so a damaged or hostile one could name thousands: past the most
 * a mix can list (MAX_MIX_MODELS) they are counted, not compared (each costs a bootstrap).
 */
function allModels(summaries: readonly RunSummary[]): string[] {
  const seen = new Set<string>();
  for (const s of summaries) for (const r of s.byModel ?? []) seen.add(r.model);
  return [...seen];
}
const mixModels = (summaries: readonly RunSummary[]): string[] =>
  allModels(summaries).slice(0, MAX_MIX_MODELS);

/**
 * Each model's rows across the runs (null when no run has numbers by model). `intervals` are
 * modelIntervals' (keyed by modelRowId); without them the verdicts come from the values alone.
 */
export function compareByModel(
  summaries: readonly RunSummary[],
  intervals: CompareIntervals | null = null,
  opts: CompareOptions = {},
): ModelComparison | null {
  const models = mixModels(summaries);
  if (models.length === 0) return null;
  const noMix = summaries.flatMap((s, i) => (s.byModel && s.byModel.length > 0 ? [] : [i]));
  return {
    noMix,
    more: allModels(summaries).length - models.length,
    models: models.map((model) => {
      const present = summaries.map((s) => rowOf(s, model) !== undefined);
      const defs = defsOf(model, heading(model, present, noMix));
      const rows = compareRowsOf(defs, summaries, intervals, {
        ...opts,
        failId: modelRowId(model, 'fail-rate'),
      });
      return { model, present, rows };
    }),
  };
}

/**
 * One model's part of a compared run, for its intervals: its requests alone (repeats' blocks kept),
 * its counts; null where the run has no numbers for it. A run whose outcomes name no model (an
 * import) is compared by its counts only.
 */
function modelInput(r: IntervalInput, model: string): IntervalInput | null {
  const row = rowOf(r.summary, model);
  if (!row) return null;
  const summary: RunSummary = {
    ...r.summary,
    vllm: { ...r.summary.vllm, completed: row.requests - row.failed, failed: row.failed },
  };
  if (!r.outcomes || !r.outcomes.some((o) => o.model !== undefined)) return { summary, outcomes: null };
  const picked: RequestOutcome[] = [];
  const strata: number[] = [];
  let k = 0;
  const sizes = r.strata && r.strata.reduce((a, b) => a + b, 0) === r.outcomes.length ? r.strata : null;
  for (const size of sizes ?? [r.outcomes.length]) {
    let n = 0;
    for (let j = 0; j < size; j++) {
      const o = r.outcomes[k++]!;
      if (o.model === model) {
        picked.push(o);
        n++;
      }
    }
    strata.push(n);
  }
  return { summary, outcomes: picked, strata: strata.length > 1 ? strata : null };
}

/** What one model's intervals are worked out over: the runs that sent it (the baseline first). */
function plan(runs: readonly IntervalInput[], model: string) {
  const inputs = runs.map((r) => modelInput(r, model));
  if (!inputs[0]) return null; // not in the baseline: nothing to compare against
  const idx = inputs.flatMap((x, i) => (x ? [i] : []));
  return { idx, inputs: idx.map((i) => inputs[i]!) };
}

/** One model's intervals (over the runs in `idx`) as cells of every run, under the model's row ids. */
function mergeInto(
  out: CompareIntervals,
  model: string,
  idx: readonly number[],
  runs: number,
  ci: CompareIntervals,
  mixedItlGaps: boolean,
): void {
  for (const b of BASE) {
    // The overall ITL interval resamples every gap where runs differ in what they left out
    // (rows.ts mixedItl); a model's ITL value is always the measured one: no interval then.
    if (mixedItlGaps && b.base.startsWith('itl')) continue;
    const cells = ci.get(b.base);
    if (!cells) continue;
    const full: IntervalCell[] = Array.from({ length: runs }, () => null);
    idx.forEach((i, j) => (full[i] = cells[j] ?? null));
    out.set(modelRowId(model, b.base), full);
  }
}

/**
 * The 95 % intervals of every model's rows (see compareByModel): each model's requests resampled
 * alone, each run against the baseline. Seeded like compareIntervals.
 */
export function modelIntervals(
  runs: readonly IntervalInput[],
  opts: { replicates?: number; seed?: number } = {},
): CompareIntervals {
  const out: CompareIntervals = new Map();
  const mixed = mixedItl(runs.map((r) => r.summary));
  for (const model of mixModels(runs.map((r) => r.summary))) {
    const p = plan(runs, model);
    if (p && p.inputs.length > 1)
      mergeInto(out, model, p.idx, runs.length, compareIntervals(p.inputs, opts), mixed);
  }
  return out;
}

/** modelIntervals in slices that give the event loop back (the app's comparison view). */
export async function modelIntervalsAsync(
  runs: readonly IntervalInput[],
  opts: { replicates?: number; seed?: number; signal?: AbortSignal } = {},
): Promise<CompareIntervals> {
  const out: CompareIntervals = new Map();
  const mixed = mixedItl(runs.map((r) => r.summary));
  for (const model of mixModels(runs.map((r) => r.summary))) {
    const p = plan(runs, model);
    if (p && p.inputs.length > 1)
      mergeInto(out, model, p.idx, runs.length, await compareIntervalsAsync(p.inputs, opts), mixed);
  }
  return out;
}
