/**
 * Two to four runs side by side (the same workload against two servers, or two configurations of
 * one): the numbers `vllm bench serve` reports and ours, each against the first run (the
 * baseline), with which way is better. Used by the app's comparison view and `tokenscope compare`.
 */
import type { MetricStats, RunHeader, RunSummary, StatMetric, VllmMetrics } from './run-types.ts';
import { compareBuckets, serverQuantileRange, type QuantileBucket } from './server-quantile.ts';
import { statsOf } from './stats-of.ts';

export const MAX_COMPARED = 4;
/** One colour per compared run, in pick order (distinct from each other on the dark theme). */
export const RUN_COLORS = ['#22d3ee', '#ffb020', '#b48cff', '#ff6b9a'] as const;

export interface CompareRowDef {
  id: string;
  label: string;
  unit: 'ms' | 'req/s' | 'tok/s' | 's' | 'count' | '%';
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

function latencyRows(m: StatMetric, name: string): CompareRowDef[] {
  const rows = latencyRowsOf(m, name);
  if (m !== 'itl' && m !== 'itl_per_token') return rows;
  const keys = ['mean', 'median', 'p90', 'p99'] as const;
  return rows.map((r, i) => ({ ...r, everyGap: everyGapStat(m, keys[i]!) }));
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

export const COMPARE_ROWS: CompareRowDef[] = [
  { ...vllmRow('completed', 'Successful requests', 'count', null, 'completed'), group: 'Throughput' },
  vllmRow('failed', 'Failed requests', 'count', 'lower', 'failed'),
  vllmRow('duration', 'Benchmark duration', 's', null, 'duration'),
  vllmRow('req-tput', 'Request throughput', 'req/s', 'higher', 'request_throughput'),
  vllmRow('goodput', 'Request goodput', 'req/s', 'higher', 'request_goodput'),
  vllmRow('out-tput', 'Output token throughput', 'tok/s', 'higher', 'output_throughput'),
  vllmRow('peak-tput', 'Peak output token throughput', 'tok/s', 'higher', 'max_output_tokens_per_s'),
  vllmRow('total-tput', 'Total token throughput', 'tok/s', 'higher', 'total_token_throughput'),
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

export type Verdict = 'better' | 'worse' | 'same';

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

export function compareRows(summaries: readonly RunSummary[]): CompareRow[] {
  const rows: CompareRow[] = [];
  // A run that cannot say which ITL gaps were coalesced beside one that left some out: compare
  // every gap in all of them (vLLM's definition), not two different definitions.
  const mixedItl = summaries.some((s) => !s.coalesced) && summaries.some((s) => (s.coalesced?.gaps ?? 0) > 0);
  for (const def of COMPARE_ROWS) {
    const get = mixedItl && def.everyGap ? def.everyGap : def.get;
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
    const rel = values.map((v, i) =>
      i === 0 || v === null || base === null || base === 0 || bucketed(i)
        ? null
        : (v - base) / Math.abs(base),
    );
    const interval = (i: number): QuantileBucket => buckets[i]!.all ?? [values[i]!, values[i]!];
    const verdict = values.map((v, i): Verdict | null => {
      if (i === 0 || v === null || base === null || def.better === null) return null;
      if (bucketed(i)) {
        const c = compareBuckets(interval(0), interval(i));
        if (c === null) return null;
        if (c === 'same') return 'same';
        return (c === 'lower') === (def.better === 'lower') ? 'better' : 'worse';
      }
      const r = rel[i];
      if (r === null || r === undefined) return null;
      if (Math.abs(r) < SAME_WITHIN) return 'same';
      return r < 0 === (def.better === 'lower') ? 'better' : 'worse';
    });
    rows.push({ def, values, rel, verdict, ranges, byBucket, buckets: buckets.map((b) => b.all) });
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
