/**
 * Two to four runs side by side (the same workload against two servers, or two configurations of
 * one): the numbers `vllm bench serve` reports and ours, each against the first run (the
 * baseline), with which way is better. Used by the app's comparison view and `tokenscope compare`.
 * The rows compared are defined in rows.ts, their confidence intervals computed in
 * intervals.ts.
 */
import type { CompareIntervals } from './intervals.ts';
import type { SampleStat } from './bootstrap-samples.ts';
import { COMPARE_ROWS, failureRate, mixedItl, type CompareRowDef } from './rows.ts';
import type { RunHeader } from '../file/line-schema.ts';
import { textOfMix } from '../workload/models.ts';
import type { RunSummary } from '../summary/schema.ts';
import { compareBuckets, type QuantileBucket } from '../summary/server-quantile.ts';

export const MAX_COMPARED = 4;

/**
 * same: equivalent — the whole interval lies within ±the margin (`--same-within`, SAME_WITHIN by
 * default; without an interval, the change itself); better / worse: otherwise, the difference is
 * clear (its interval excludes zero; without an interval, the value decides); unclear: the
 * interval spans zero — not distinguishable from noise.
 */
type Verdict = 'better' | 'worse' | 'same' | 'unclear';

export interface CompareRow {
  def: CompareRowDef;
  values: (number | null)[];
  /** (value − baseline) / baseline, per run; null for the baseline itself and where undefined. */
  rel: (number | null)[];
  verdict: (Verdict | null)[];
  /** Per run: the wide bucket its value lies in (show this, not the value), else null. */
  ranges: (QuantileBucket | null)[];
  /** Per run: compared with the baseline as histogram buckets (no relative change), see above. */
  byBucket: boolean[];
  /** Per run: the server histogram bucket the value was interpolated in (server quantiles). */
  buckets: (QuantileBucket | null)[];
  /**
   * Per run: the 95 % confidence interval of the change against the baseline, in the same terms
   * as `rel` (relative, or absolute in the row's unit); null for the baseline and where none can
   * be computed (no per-request data, a throughput, a server metric).
   */
  ci: ([number, number] | null)[];
  /**
   * Per run: a tail quantile decided by too few requests (in this run or the baseline) for an
   * interval (intervals.ts MIN_TAIL_REQUESTS): no interval and no verdict, said instead.
   */
  tooFew: boolean[];
  /** Per run: the failure rates differ clearly from the baseline's, so this change is unreliable. */
  unreliable: boolean[];
}

/** What a row says where its quantile rests on too few requests ("too few requests for p99"). */
export function tooFewText(row: CompareRow): string {
  const st: SampleStat | undefined = row.def.sample?.stat;
  return `too few requests for ${typeof st === 'number' ? `p${st}` : 'an interval'}`;
}

/**
 * The change of a run's value against the baseline where it is compared as histogram buckets
 * (row.byBucket), in words, since no percentage can be given: "same bucket", "higher bucket"...
 */
export function bucketChangeText(row: CompareRow, i: number): string {
  const v = row.verdict[i] ?? null;
  if (v === null) return 'buckets overlap';
  if (v === 'same') return 'same bucket';
  const lower = (v === 'better') === (row.def.better === 'lower');
  return lower ? 'lower bucket' : 'higher bucket';
}

/**
 * The default equivalence margin: a change whose whole interval lies within ±1 % of the baseline
 * (without an interval: the change itself) is called the same. `--same-within` widens it.
 */
export const SAME_WITHIN = 0.01;

export interface CompareOptions {
  /** The equivalence margin as a fraction of the baseline (0.03: ±3 %); default SAME_WITHIN. */
  sameWithin?: number;
}

export function compareRows(
  summaries: readonly RunSummary[],
  intervals: CompareIntervals | null = null,
  opts: CompareOptions = {},
): CompareRow[] {
  const rows: CompareRow[] = [];
  // A run that cannot say which ITL gaps were coalesced beside one that left some out: compare
  // every gap in all of them (vLLM's definition), not two different definitions.
  const every = mixedItl(summaries);
  // Per-token ITL where some run had no per-event token counts is spread over estimated counts.
  const estimatedTokens = summaries.some(
    (s) => (s.tokens?.outputSource?.estimated ?? 0) > 0 || (s.tokens?.outputSource?.['usage-total'] ?? 0) > 0,
  );
  const ctx: RowContext = { summaries, every, intervals, sameWithin: opts.sameWithin ?? SAME_WITHIN };
  for (const baseDef of COMPARE_ROWS) {
    const row = compareRow(labelled(baseDef, estimatedTokens), ctx);
    if (row) rows.push(row);
  }
  markUnreliable(rows);
  return rows;
}

/**
 * Rows of other definitions than COMPARE_ROWS, with the same values, changes, intervals and
 * verdicts (by-model.ts: one model's rows); `failId` names their failure-rate row, which marks
 * the others unreliable where it differs clearly.
 */
export function compareRowsOf(
  defs: readonly CompareRowDef[],
  summaries: readonly RunSummary[],
  intervals: CompareIntervals | null,
  opts: CompareOptions & { failId: string },
): CompareRow[] {
  const ctx: RowContext = { summaries, every: false, intervals, sameWithin: opts.sameWithin ?? SAME_WITHIN };
  const rows = defs.map((d) => compareRow(d, ctx)).filter((r): r is CompareRow => r !== null);
  markUnreliable(rows, opts.failId);
  return rows;
}

/** The row as shown: per-token ITL rows say so when some run's token counts were estimated. */
function labelled(baseDef: CompareRowDef, estimatedTokens: boolean): CompareRowDef {
  return estimatedTokens && baseDef.id.startsWith('itl_per_token')
    ? {
        ...baseDef,
        label: `${baseDef.label} (est.)`,
        ...(baseDef.group ? { group: `${baseDef.group} (estimated counts)` } : {}),
      }
    : baseDef;
}

/** What every row of one comparison is computed against. */
interface RowContext {
  summaries: readonly RunSummary[];
  /** ITL rows compare every gap (mixedItl). */
  every: boolean;
  intervals: CompareIntervals | null;
  sameWithin: number;
}

/** A row's values and changes, before its verdicts. */
interface RowDraft {
  def: CompareRowDef;
  values: (number | null)[];
  base: number | null;
  buckets: { wide: QuantileBucket | null; all: QuantileBucket | null }[];
  byBucket: boolean[];
  rel: (number | null)[];
  ci: ([number, number] | null)[];
  sameWithin: number;
}

/** One row across the runs; null when no run has its value (e.g. goodput without SLOs). */
function compareRow(def: CompareRowDef, ctx: RowContext): CompareRow | null {
  const { summaries, every, intervals } = ctx;
  const get = every && def.everyGap ? def.everyGap : def.get;
  const values = summaries.map((s) => get(s));
  if (values.every((v) => v === null)) return null; // e.g. goodput without SLOs
  const base = values[0] ?? null;
  const buckets = summaries.map((s) => def.bucket?.(s) ?? { wide: null, all: null });
  const ranges = buckets.map((b) => b.wide);
  // A value known only to a wide bucket has no meaningful relative change, and two quantiles in
  // the same bucket differ only by interpolation (two p99s at the bucket's upper bound both
  // read "1.50 s"): compare the buckets.
  const sameBucket = (i: number) => {
    const a = buckets[0]!.all;
    const b = buckets[i]!.all;
    return a !== null && b !== null && compareBuckets(a, b) === 'same';
  };
  const byBucket = values.map(
    (v, i) =>
      i > 0 && v !== null && base !== null && (ranges[0] !== null || ranges[i] !== null || sameBucket(i)),
  );
  const bucketed = (i: number) => byBucket[i] === true;
  const absolute = def.change === 'absolute';
  const rel = values.map((v, i) =>
    i === 0 || v === null || base === null || bucketed(i)
      ? null
      : absolute
        ? v - base
        : base === 0
          ? null
          : (v - base) / Math.abs(base),
  );
  const cell = (v: number | null, i: number) =>
    i === 0 || v === null || base === null || bucketed(i) ? null : (intervals?.get(def.id)?.[i] ?? null);
  const tooFew = values.map((v, i) => cell(v, i) === 'too-few');
  const ci = values.map((v, i) => {
    const c = cell(v, i);
    // Nothing on either side (no failures in both): no interval worth printing.
    return c === 'too-few' || (c && c[0] === 0 && c[1] === 0) ? null : c;
  });
  const draft: RowDraft = { def, values, base, buckets, byBucket, rel, ci, sameWithin: ctx.sameWithin };
  return {
    def,
    values,
    rel,
    verdict: values.map((v, i) => (tooFew[i] ? null : verdictAt(draft, v, i))),
    ranges,
    byBucket,
    buckets: buckets.map((b) => b.all),
    ci,
    tooFew,
    unreliable: values.map(() => false),
  };
}

/** Run i's verdict against the baseline (see Verdict); null for the baseline and where none applies. */
function verdictAt(r: RowDraft, v: number | null, i: number): Verdict | null {
  const { def, values, base, buckets } = r;
  if (i === 0 || v === null || base === null || def.better === null) return null;
  const absolute = def.change === 'absolute';
  const lowerIsBetter = def.better === 'lower';
  if (r.byBucket[i] === true) {
    const interval = (j: number): QuantileBucket => buckets[j]!.all ?? [values[j]!, values[j]!];
    const c = compareBuckets(interval(0), interval(i));
    if (c === null) return null;
    if (c === 'same') return 'same';
    return (c === 'lower') === lowerIsBetter ? 'better' : 'worse';
  }
  const c = r.ci[i];
  const m = r.sameWithin;
  if (c) {
    // Equivalence: the whole interval inside ±m (relative changes; a failure rate's percentage
    // points have no relative margin).
    if (!absolute && c[0] > -m && c[1] < m) return 'same';
    if (c[0] > 0) return lowerIsBetter ? 'worse' : 'better';
    if (c[1] < 0) return lowerIsBetter ? 'better' : 'worse';
    return 'unclear';
  }
  const rel = r.rel[i];
  if (rel === null || rel === undefined) return null;
  if (absolute ? rel === 0 : Math.abs(rel) < m) return 'same';
  return rel < 0 === lowerIsBetter ? 'better' : 'worse';
}

/**
 * Failed requests end fast and leave the server less loaded: where the failure rates differ
 * clearly, throughput and client latency changes say little about the server.
 */
function markUnreliable(rows: CompareRow[], failId = 'fail-rate'): void {
  const fail = rows.find((r) => r.def.id === failId);
  if (fail) {
    const differs = fail.verdict.map((v) => v === 'better' || v === 'worse');
    for (const r of rows) if (r.def.failureSensitive) r.unreliable = differs.map((d, i) => i > 0 && d);
  }
}

/** A length distribution in a few characters: 128, 64–256, ~N(200, 50). */
function lenText(d: unknown): string | null {
  if (d === null || d === undefined || typeof d !== 'object') return null;
  const x = d as { type?: string; value?: number; min?: number; max?: number; mean?: number; std?: number };
  if (x.type === 'fixed') return String(x.value);
  if (x.type === 'uniform') return `${x.min}–${x.max}`;
  if (x.type === 'normal') return `~N(${x.mean}, ${x.std})`;
  return JSON.stringify(d);
}

/** What differs between the runs' workloads, as short phrases ("output tokens 64 vs 128"). */
export function workloadDifferences(
  runs: readonly { header: RunHeader | null; summary: RunSummary }[],
): string[] {
  const out: string[] = [];
  const desc = (d: { header: RunHeader | null; summary: RunSummary }) => {
    const w = d.header?.workload;
    const p = w?.prompts as { type?: string; inputLen?: unknown; outputLen?: unknown } | undefined;
    return {
      prompts: p?.type ?? null,
      'input tokens': lenText(p?.inputLen),
      'output tokens': lenText(p?.outputLen),
      requests: w?.requests ?? d.summary.config.numPrompts ?? null,
      'duration (s)': w?.durationS ?? null,
      'request rate': d.summary.config.requestRate ?? null,
      'max concurrency': d.summary.config.maxConcurrency ?? null,
      'model mix': textOfMix(w?.models) || null,
    } as Record<string, unknown>;
  };
  const all = runs.map(desc);
  for (const k of Object.keys(all[0] ?? {})) {
    const vals = all.map((a) => (a[k] === null || a[k] === undefined ? '—' : String(a[k])));
    // Unknown (an import that did not record it) is not a difference: only known values count.
    if (new Set(vals.filter((v) => v !== '—')).size > 1) out.push(`${k} ${vals.join(' vs ')}`);
  }
  return out;
}

/**
 * The failure rates of the compared runs in one line ("Failure rates: A 0.0 % (0 of 200) · B 41.0 %
 * (82 of 200)"), with what follows from them; null when no run had a failed request.
 */
export function failureBanner(summaries: readonly RunSummary[], rows: readonly CompareRow[]): string | null {
  if (!summaries.some((s) => s.vllm.failed > 0)) return null;
  const letters = ['A', 'B', 'C', 'D'];
  const parts = summaries.map((s, i) => {
    const r = failureRate(s);
    const n = s.vllm.completed + s.vllm.failed;
    return `${letters[i]} ${r === null ? '—' : `${r.toFixed(r > 0 && r < 1 ? 2 : 1)} %`} (${s.vllm.failed.toLocaleString('en-US')} of ${n.toLocaleString('en-US')})`;
  });
  const fail = rows.find((r) => r.def.id === 'fail-rate');
  const differ = (fail?.verdict ?? [])
    .map((v, i) => (v === 'better' || v === 'worse' ? letters[i] : null))
    .filter((x): x is string => x !== null);
  const tail = differ.length
    ? ` — ${differ.join(', ')} ${differ.length === 1 ? 'differs' : 'differ'} clearly from A: throughput and latency changes are unreliable (failed requests end early and unload the server)`
    : '';
  return `Failure rates: ${parts.join(' · ')}${tail}.`;
}
