/**
 * The rows of a comparison of runs (compare.ts): which numbers are compared, how each is read from
 * a run's summary, which way is better, and which statistic a confidence interval resamples.
 */
import { streamsTokens } from '../summary/batch.ts';
import type { RateMetric, SampleMetric, SampleSpec, SampleStat } from './bootstrap-samples.ts';
import type { MetricStats, RunSummary, StatMetric, VllmMetrics } from '../summary/schema.ts';
import { serverQuantileRange, type QuantileBucket } from '../summary/server-quantile.ts';
import { statsOf } from '../summary/stats-of.ts';
import { SPEC_DECODE_ROWS } from './spec-decode-rows.ts';
import { UPLOAD_ROWS } from './upload-rows.ts';
import { TOOL_ROWS } from './tool-rows.ts';
import { BATCH_ROWS } from './batch-rows.ts';

export interface CompareRowDef {
  id: string;
  label: string;
  unit: 'ms' | 'req/s' | 'tok/s' | 'inputs/s' | 's' | 'count' | '%' | 'J' | 'W';
  /**
   * How a run differs from the baseline: relative ((X − A)/A, the default) or absolute in the
   * row's unit (a failure rate: percentage points).
   */
  change?: 'relative' | 'absolute';
  /**
   * The statistic recomputed on resampled requests for a confidence interval (bootstrap.ts); rows
   * without one (peak throughput, server metrics, counts) have no interval and are not gated.
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

type PhaseKey = 'queueMs' | 'prefillMs' | 'decodeMs' | 'serverTtftMs';

/**
 * The server's own phases from its spans (summary.serverPhases, exact per request: docs/tracing.md).
 * A run without joined spans has no serverPhases: its cells are absent, never zeros. No interval
 * (the bootstrap resamples the client's columns), so not gated.
 */
function phaseRows(k: PhaseKey, name: string, group?: string): CompareRowDef[] {
  const q = [
    ['p50', 'median'],
    ['p90', 'p90'],
    ['p99', 'p99'],
  ] as const;
  return q.map(([label, key], i) => ({
    id: `span-${k.replace(/Ms$/, '').toLowerCase()}-${label}`,
    label: `${name} ${label}`,
    unit: 'ms' as const,
    better: 'lower' as const,
    get: (s: RunSummary) => num(s.serverPhases?.[k]?.[key]),
    ...(i === 0 && group ? { group } : {}),
  }));
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
/** A row about the token stream: none for embeddings/rerank runs (left out, not zeros: batch.ts). */
const streamed = (r: CompareRowDef): CompareRowDef => ({
  ...r,
  get: (s) => (streamsTokens(s) ? r.get(s) : null),
});
/** A throughput resampled with each request's share of the run's time (bootstrap-rate.ts). */
const rate = (r: CompareRowDef, metric: RateMetric): CompareRowDef => ({
  ...sensitive(r),
  sample: { metric, stat: 'mean' },
});

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
  // The counts carry no verdict of their own: the failure rate above is the one with an interval.
  vllmRow('completed', 'Successful requests', 'count', null, 'completed'),
  vllmRow('failed', 'Failed requests', 'count', null, 'failed'),
  { ...sensitive(vllmRow('duration', 'Benchmark duration', 's', null, 'duration')), group: 'Throughput' },
  rate(vllmRow('req-tput', 'Request throughput', 'req/s', 'higher', 'request_throughput'), 'req_tput'),
  rate(vllmRow('goodput', 'Request goodput', 'req/s', 'higher', 'request_goodput'), 'goodput'),
  streamed(
    rate(vllmRow('out-tput', 'Output token throughput', 'tok/s', 'higher', 'output_throughput'), 'out_tput'),
  ),
  // A maximum over one-second windows: no resample gives it an interval, so the gate leaves it out.
  streamed(
    sensitive(
      vllmRow('peak-tput', 'Peak output token throughput', 'tok/s', 'higher', 'max_output_tokens_per_s'),
    ),
  ),
  // Embeddings/rerank: all of it is input, the batch rows' input token throughput.
  streamed(
    rate(
      vllmRow('total-tput', 'Total token throughput', 'tok/s', 'higher', 'total_token_throughput'),
      'total_tput',
    ),
  ),
  ...BATCH_ROWS,
  ...latencyRows('ttft', 'TTFT'),
  // Runs with reasoning only (stats.ttfat is null without it, so the rows are left out).
  ...latencyRows('ttfat', 'Time to first answer token'),
  ...latencyRows('tpot', 'TPOT'),
  ...latencyRows('itl', 'ITL per chunk'),
  ...latencyRows('itl_per_token', 'ITL per token'),
  ...latencyRows('e2el', 'E2E latency'),
  // Where the output went (runs with reasoning only: `reasoning` is absent without it).
  {
    id: 'reasoning-tokens',
    label: 'Reasoning tokens',
    unit: 'count',
    better: null,
    get: (s) => num(s.reasoning?.reasoningTokens),
    group: 'Reasoning',
  },
  {
    id: 'answer-tokens',
    label: 'Answer tokens',
    unit: 'count',
    better: null,
    get: (s) => num(s.reasoning?.answerTokens),
  },
  // Prefix caching (runs whose server reported cached tokens): a condition of the run more than a
  // result. No row here carries a verdict: the shares describe the run, and TTFT of the hits or
  // the misses is a subset no resample gives an interval (the TTFT rows above have one).
  {
    id: 'prefix-cached',
    label: 'Cached prompt tokens',
    unit: '%',
    change: 'absolute',
    better: null,
    group: 'Prefix cache',
    get: (s) => (s.prefixCache && s.prefixCache.reported > 0 ? s.prefixCache.ratio * 100 : null),
  },
  {
    id: 'prefix-hit-requests',
    label: 'Requests with a cache hit',
    unit: 'count',
    better: null,
    get: (s) => (s.prefixCache && s.prefixCache.reported > 0 ? s.prefixCache.hitRequests : null),
  },
  {
    id: 'prefix-ttft-hit',
    label: 'TTFT p50, cache hit',
    unit: 'ms',
    better: null,
    get: (s) => num(s.prefixCache?.ttftHit?.median),
  },
  {
    id: 'prefix-ttft-miss',
    label: 'TTFT p50, cache miss',
    unit: 'ms',
    better: null,
    get: (s) => num(s.prefixCache?.ttftMiss?.median),
  },
  {
    id: 'srv-prefix-hit',
    label: 'Server prefix-cache hit rate',
    unit: '%',
    change: 'absolute',
    better: null,
    get: (s) => {
      const v = num(s.server?.prefixCache?.hitRate);
      return v === null ? null : v * 100;
    },
  },
  // What the servers' own metrics said over each run (runs that watched them).
  { ...streamed(serverRow('ttft', 'p50', 'Server TTFT p50')), group: 'Server side' },
  streamed(serverRow('ttft', 'p99', 'Server TTFT p99')),
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
  // The server's spans joined to the requests (runs that received them: run --otlp-listen).
  ...phaseRows('queueMs', 'Queue (spans)', 'Server phases (spans)'),
  ...phaseRows('prefillMs', 'Prefill (spans)'),
  ...phaseRows('decodeMs', 'Decode (spans)'),
  ...phaseRows('serverTtftMs', 'Server TTFT (spans)'),
  ...SPEC_DECODE_ROWS,
  ...UPLOAD_ROWS,
  ...TOOL_ROWS,
  // GPU energy from the targets' telemetry endpoints (dcgm-exporter), over each measured run.
  {
    id: 'gpu-j-per-token',
    label: 'Energy per output token',
    unit: 'J',
    better: 'lower',
    group: 'GPU',
    get: (s) => num(s.server?.energy?.joulesPerToken),
  },
  {
    id: 'gpu-mean-power',
    label: 'Mean GPU power',
    unit: 'W',
    better: null,
    get: (s) => num(s.server?.energy?.meanPowerW),
  },
];

/**
 * Whether ITL rows compare every gap (a run that cannot say which gaps were coalesced beside one
 * that left some out): like is compared with like.
 */
export function mixedItl(summaries: readonly RunSummary[]): boolean {
  return summaries.some((s) => !s.coalesced) && summaries.some((s) => (s.coalesced?.gaps ?? 0) > 0);
}
