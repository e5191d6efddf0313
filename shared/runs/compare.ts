/**
 * Two to four runs side by side (the same workload against two servers, or two configurations of
 * one): the numbers `vllm bench serve` reports and ours, each against the first run (the
 * baseline), with which way is better. Used by the app's comparison view and `tokenscope compare`.
 */
import {
  bootstrapSteps,
  diffInterval,
  drain,
  drainAsync,
  outcomesFromCounts,
  specKey,
  type SampleMetric,
  type SampleSpec,
  type SampleStat,
} from './bootstrap.ts';
import type {
  MetricStats,
  RequestOutcome,
  RunHeader,
  RunSummary,
  StatMetric,
  VllmMetrics,
} from './run-types.ts';
import { compareBuckets, serverQuantileRange, type QuantileBucket } from './server-quantile.ts';
import { statsOf } from './stats-of.ts';

export const MAX_COMPARED = 4;
/** One colour per compared run, in pick order (distinct from each other on the dark theme). */
export const RUN_COLORS = ['#22d3ee', '#ffb020', '#b48cff', '#ff6b9a'] as const;

export interface CompareRowDef {
  id: string;
  label: string;
  unit: 'ms' | 'req/s' | 'tok/s' | 's' | 'count' | '%';
  /**
   * How a run differs from the baseline: relative ((X − A)/A, the default) or absolute in the
   * row's unit (a failure rate: percentage points).
   */
  change?: 'relative' | 'absolute';
  /**
   * The statistic recomputed on resampled requests for a confidence interval (bootstrap.ts); rows
   * without one (throughputs, server metrics) have no interval.
   */
  sample?: SampleSpec;
  /** The sample of the every-gap variant (see everyGap). */
  everyGapSample?: SampleSpec;
  /** Throughput and client latency: marked unreliable where the runs' failure rates differ. */
  failureSensitive?: boolean;
  /** Which direction is an improvement; null when neither is (a count of requests). */
  better: 'lower' | 'higher' | null;
  get: (s: RunSummary) => number | null;
  /** A group heading shown above the row. */
  group?: string;
  /**
   * ITL rows: the every-gap value (coalesced gaps included). Used for every run when a run in the
   * comparison cannot say which gaps were coalesced (an import, an older file) while another left
   * some out: like is compared with like.
   */
  everyGap?: (s: RunSummary) => number | null;
  /**
   * For a server quantile: the bucket it was interpolated in. Where that bucket is wide the value
   * is shown and compared as the bucket (server-quantile.ts), not as the interpolated number.
   */
  bucket?: (s: RunSummary) => { wide: QuantileBucket | null; all: QuantileBucket | null };
}

const stat =
  (m: StatMetric, k: keyof Pick<MetricStats, 'mean' | 'median' | 'p90' | 'p99'>) =>
  (s: RunSummary): number | null => {
    const v = statsOf(s, m)?.[k];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
const num = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

const everyGapStat =
  (m: StatMetric, k: keyof Pick<MetricStats, 'mean' | 'median' | 'p90' | 'p99'>) =>
  (s: RunSummary): number | null => {
    const st = statsOf(s, m);
    const v = (st?.vllm ?? st)?.[k];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };

const ROW_STATS: SampleStat[] = ['mean', 50, 90, 99];

function latencyRows(m: StatMetric, name: string): CompareRowDef[] {
  const metric = m as SampleMetric;
  const rows = latencyRowsOf(m, name).map((r, i) => ({
    ...r,
    sample: { metric, stat: ROW_STATS[i]! },
    failureSensitive: true,
  }));
  if (m !== 'itl' && m !== 'itl_per_token') return rows;
  const keys = ['mean', 'median', 'p90', 'p99'] as const;
  const every: SampleMetric = m === 'itl' ? 'itl_every_gap' : 'itl_per_token_every_gap';
  return rows.map((r, i) => ({
    ...r,
    everyGap: everyGapStat(m, keys[i]!),
    everyGapSample: { metric: every, stat: ROW_STATS[i]! },
  }));
}

function latencyRowsOf(m: StatMetric, name: string): CompareRowDef[] {
  return [
    {
      id: `${m}-mean`,
      label: `${name} mean`,
      unit: 'ms',
      better: 'lower',
      get: stat(m, 'mean'),
      group: name,
    },
    { id: `${m}-p50`, label: `${name} p50`, unit: 'ms', better: 'lower', get: stat(m, 'median') },
    { id: `${m}-p90`, label: `${name} p90`, unit: 'ms', better: 'lower', get: stat(m, 'p90') },
    { id: `${m}-p99`, label: `${name} p99`, unit: 'ms', better: 'lower', get: stat(m, 'p99') },
  ];
}

function serverRow(h: 'ttft' | 'queueTime' | 'e2e', q: 'p50' | 'p99', label: string): CompareRowDef {
  return {
    id: `srv-${h === 'queueTime' ? 'queue' : h}-${q}`,
    label,
    unit: 'ms',
    better: 'lower',
    get: (s) => num(s.server?.[h]?.[q]),
    bucket: (s) => {
      const stats = s.server?.[h];
      return {
        wide: serverQuantileRange(stats, q),
        all: (q === 'p50' ? stats?.p50Bucket : stats?.p99Bucket) ?? null,
      };
    },
  };
}

/** A row read straight from the vLLM-named numbers. */
function vllmRow(
  id: string,
  label: string,
  unit: CompareRowDef['unit'],
  better: CompareRowDef['better'],
  key: keyof VllmMetrics,
): CompareRowDef {
  return { id, label, unit, better, get: (s) => num(s.vllm[key]) };
}

/** Failed requests as a share of the measured ones, %; null when the run measured none. */
export function failureRate(s: RunSummary): number | null {
  const n = s.vllm.completed + s.vllm.failed;
  return n > 0 ? (100 * s.vllm.failed) / n : null;
}

const sensitive = (r: CompareRowDef): CompareRowDef => ({ ...r, failureSensitive: true });

export const COMPARE_ROWS: CompareRowDef[] = [
  {
    id: 'fail-rate',
    label: 'Failure rate',
    unit: '%',
    better: 'lower',
    change: 'absolute',
    get: failureRate,
    sample: { metric: 'failed', stat: 'mean' },
    group: 'Requests',
  },
  vllmRow('completed', 'Successful requests', 'count', 'higher', 'completed'),
  vllmRow('failed', 'Failed requests', 'count', 'lower', 'failed'),
  { ...sensitive(vllmRow('duration', 'Benchmark duration', 's', null, 'duration')), group: 'Throughput' },
  sensitive(vllmRow('req-tput', 'Request throughput', 'req/s', 'higher', 'request_throughput')),
  sensitive(vllmRow('goodput', 'Request goodput', 'req/s', 'higher', 'request_goodput')),
  sensitive(vllmRow('out-tput', 'Output token throughput', 'tok/s', 'higher', 'output_throughput')),
  sensitive(
    vllmRow('peak-tput', 'Peak output token throughput', 'tok/s', 'higher', 'max_output_tokens_per_s'),
  ),
  sensitive(vllmRow('total-tput', 'Total token throughput', 'tok/s', 'higher', 'total_token_throughput')),
  ...latencyRows('ttft', 'TTFT'),
  ...latencyRows('tpot', 'TPOT'),
  ...latencyRows('itl', 'ITL per chunk'),
  ...latencyRows('itl_per_token', 'ITL per token'),
  ...latencyRows('e2el', 'E2E latency'),
  // What the servers' own metrics said over each run (runs that watched them).
  { ...serverRow('ttft', 'p50', 'Server TTFT p50'), group: 'Server side' },
  serverRow('ttft', 'p99', 'Server TTFT p99'),
  serverRow('queueTime', 'p50', 'Server queue time p50'),
  serverRow('queueTime', 'p99', 'Server queue time p99'),
  serverRow('e2e', 'p99', 'Server E2E p99'),
  {
    id: 'srv-kv-peak',
    label: 'Peak KV-cache usage',
    unit: '%',
    better: null,
    get: (s) => {
      const v = num(s.server?.peak.kvCacheUsage);
      return v === null ? null : v * 100;
    },
  },
  {
    id: 'srv-preempt',
    label: 'Preemptions',
    unit: 'count',
    better: 'lower',
    get: (s) => num(s.server?.delta.preemptions),
  },
];

/**
 * better / worse: the difference is clear (its interval excludes zero, or without an interval it
 * exceeds SAME_WITHIN); same: within SAME_WITHIN (for an interval: all of it); unclear: the
 * interval spans zero — not distinguishable from noise.
 */
export type Verdict = 'better' | 'worse' | 'same' | 'unclear';

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
  /** Per run: the failure rates differ clearly from the baseline's, so this change is unreliable. */
  unreliable: boolean[];
}

/** Per row id, per run: the interval of the change against run 0 (see CompareRow.ci). */
export type CompareIntervals = Map<string, ([number, number] | null)[]>;

/**
 * Whether ITL rows compare every gap (a run that cannot say which gaps were coalesced beside one
 * that left some out): like is compared with like.
 */
export function mixedItl(summaries: readonly RunSummary[]): boolean {
  return summaries.some((s) => !s.coalesced) && summaries.some((s) => (s.coalesced?.gaps ?? 0) > 0);
}

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

/** Differences under this share of the baseline are called the same (noise, not a result). */
export const SAME_WITHIN = 0.01;

export function compareRows(
  summaries: readonly RunSummary[],
  intervals: CompareIntervals | null = null,
): CompareRow[] {
  const rows: CompareRow[] = [];
  // A run that cannot say which ITL gaps were coalesced beside one that left some out: compare
  // every gap in all of them (vLLM's definition), not two different definitions.
  const every = mixedItl(summaries);
  // Per-token ITL where some run had no per-event token counts is spread over estimated counts.
  const estimatedTokens = summaries.some(
    (s) => (s.tokens?.outputSource?.estimated ?? 0) > 0 || (s.tokens?.outputSource?.['usage-total'] ?? 0) > 0,
  );
  for (const baseDef of COMPARE_ROWS) {
    const def =
      estimatedTokens && baseDef.id.startsWith('itl_per_token')
        ? {
            ...baseDef,
            label: `${baseDef.label} (est.)`,
            ...(baseDef.group ? { group: `${baseDef.group} (estimated counts)` } : {}),
          }
        : baseDef;
    const get = every && def.everyGap ? def.everyGap : def.get;
    const values = summaries.map((s) => get(s));
    if (values.every((v) => v === null)) continue; // e.g. goodput without SLOs
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
    const ci = values.map((v, i) => {
      if (i === 0 || v === null || base === null || bucketed(i)) return null;
      const c = intervals?.get(def.id)?.[i] ?? null;
      // Nothing on either side (no failures in both): no interval worth printing.
      return c && c[0] === 0 && c[1] === 0 ? null : c;
    });
    // Successful requests: more is better only between runs that measured as many requests.
    const sameCount = (i: number) =>
      summaries[i]!.vllm.completed + summaries[i]!.vllm.failed ===
      summaries[0]!.vllm.completed + summaries[0]!.vllm.failed;
    const interval = (i: number): QuantileBucket => buckets[i]!.all ?? [values[i]!, values[i]!];
    const lowerIsBetter = def.better === 'lower';
    const verdict = values.map((v, i): Verdict | null => {
      if (i === 0 || v === null || base === null || def.better === null) return null;
      if (def.id === 'completed' && !sameCount(i)) return null;
      if (bucketed(i)) {
        const c = compareBuckets(interval(0), interval(i));
        if (c === null) return null;
        if (c === 'same') return 'same';
        return (c === 'lower') === lowerIsBetter ? 'better' : 'worse';
      }
      const c = ci[i];
      if (c) {
        if (!absolute && c[0] > -SAME_WITHIN && c[1] < SAME_WITHIN) return 'same';
        if (c[0] > 0) return lowerIsBetter ? 'worse' : 'better';
        if (c[1] < 0) return lowerIsBetter ? 'better' : 'worse';
        return 'unclear';
      }
      const r = rel[i];
      if (r === null || r === undefined) return null;
      if (absolute ? r === 0 : Math.abs(r) < SAME_WITHIN) return 'same';
      return r < 0 === lowerIsBetter ? 'better' : 'worse';
    });
    rows.push({
      def,
      values,
      rel,
      verdict,
      ranges,
      byBucket,
      buckets: buckets.map((b) => b.all),
      ci,
      unreliable: values.map(() => false),
    });
  }
  // Failed requests end fast and leave the server less loaded: where the failure rates differ
  // clearly, throughput and client latency changes say little about the server.
  const fail = rows.find((r) => r.def.id === 'fail-rate');
  if (fail) {
    const differs = fail.verdict.map((v) => v === 'better' || v === 'worse');
    for (const r of rows) if (r.def.failureSensitive) r.unreliable = differs.map((d, i) => i > 0 && d);
  }
  return rows;
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
