/**
 * Two to four runs side by side (the same workload against two servers, or two configurations of
 * one): the numbers `vllm bench serve` reports and ours, each against the first run picked (the
 * baseline), with which way is better; and each latency metric's distribution as a CDF drawn from
 * the per-request values (statsOf's aggregates for imports without them).
 */
import type { MetricStats, RunSummary, StatMetric } from '../../shared/runs/run-types.ts';
import { niceTicks } from '../charts/ticks.ts';
import { statsOf } from './run-detail.ts';

export const MAX_COMPARED = 4;
/** One colour per compared run, in pick order (distinct from each other on the dark theme). */
export const RUN_COLORS = ['#22d3ee', '#ffb020', '#b48cff', '#ff6b9a'] as const;

export interface CompareRowDef {
  id: string;
  label: string;
  unit: 'ms' | 'req/s' | 'tok/s' | 's' | 'count';
  /** Which direction is an improvement; null when neither is (a count of requests). */
  better: 'lower' | 'higher' | null;
  get: (s: RunSummary) => number | null;
  /** A group heading shown above the row. */
  group?: string;
}

const stat =
  (m: StatMetric, k: keyof Pick<MetricStats, 'mean' | 'median' | 'p90' | 'p99'>) =>
  (s: RunSummary): number | null => {
    const v = statsOf(s, m)?.[k];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
const num = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

function latencyRows(m: StatMetric, name: string): CompareRowDef[] {
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

export const COMPARE_ROWS: CompareRowDef[] = [
  {
    id: 'completed',
    label: 'Successful requests',
    unit: 'count',
    better: null,
    get: (s) => s.vllm.completed,
    group: 'Throughput',
  },
  { id: 'failed', label: 'Failed requests', unit: 'count', better: 'lower', get: (s) => s.vllm.failed },
  { id: 'duration', label: 'Benchmark duration', unit: 's', better: null, get: (s) => num(s.vllm.duration) },
  {
    id: 'req-tput',
    label: 'Request throughput',
    unit: 'req/s',
    better: 'higher',
    get: (s) => num(s.vllm.request_throughput),
  },
  {
    id: 'goodput',
    label: 'Request goodput',
    unit: 'req/s',
    better: 'higher',
    get: (s) => num(s.vllm.request_goodput),
  },
  {
    id: 'out-tput',
    label: 'Output token throughput',
    unit: 'tok/s',
    better: 'higher',
    get: (s) => num(s.vllm.output_throughput),
  },
  {
    id: 'peak-tput',
    label: 'Peak output token throughput',
    unit: 'tok/s',
    better: 'higher',
    get: (s) => num(s.vllm.max_output_tokens_per_s),
  },
  {
    id: 'total-tput',
    label: 'Total token throughput',
    unit: 'tok/s',
    better: 'higher',
    get: (s) => num(s.vllm.total_token_throughput),
  },
  ...latencyRows('ttft', 'TTFT'),
  ...latencyRows('tpot', 'TPOT'),
  ...latencyRows('itl', 'ITL per chunk'),
  ...latencyRows('itl_per_token', 'ITL per token'),
  ...latencyRows('e2el', 'E2E latency'),
];

export type Verdict = 'better' | 'worse' | 'same';

export interface CompareRow {
  def: CompareRowDef;
  values: (number | null)[];
  /** (value − baseline) / baseline, per run; null for the baseline itself and where undefined. */
  rel: (number | null)[];
  verdict: (Verdict | null)[];
}

/** Differences under this share of the baseline are called the same (noise, not a result). */
export const SAME_WITHIN = 0.01;

export function compareRows(summaries: readonly RunSummary[]): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const def of COMPARE_ROWS) {
    const values = summaries.map((s) => def.get(s));
    if (values.every((v) => v === null)) continue; // e.g. goodput without SLOs
    const base = values[0] ?? null;
    const rel = values.map((v, i) =>
      i === 0 || v === null || base === null || base === 0 ? null : (v - base) / Math.abs(base),
    );
    const verdict = rel.map((r): Verdict | null => {
      if (r === null || def.better === null) return null;
      if (Math.abs(r) < SAME_WITHIN) return 'same';
      return r < 0 === (def.better === 'lower') ? 'better' : 'worse';
    });
    rows.push({ def, values, rel, verdict });
  }
  return rows;
}

/**
 * An empirical CDF of `values` (ms): x = value, y = percentile (0–100], at most `maxPoints`
 * points, always keeping the minimum and the maximum (a tail is what a comparison is about).
 */
export function cdfFromValues(values: readonly number[], maxPoints = 200): { v: number; p: number }[] {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = xs.length;
  if (n === 0) return [];
  const out: { v: number; p: number }[] = [];
  const step = Math.max(1, Math.ceil(n / maxPoints));
  for (let i = step - 1; i < n; i += step) out.push({ v: xs[i]!, p: ((i + 1) / n) * 100 });
  if (out[0]!.v !== xs[0]) out.unshift({ v: xs[0]!, p: (1 / n) * 100 });
  if (out[out.length - 1]!.p !== 100) out.push({ v: xs[n - 1]!, p: 100 });
  return out;
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
  if (max <= min) {
    const pad = min === 0 ? 1 : Math.abs(min) * 0.05;
    ({ min, max } = { min: min - pad, max: max + pad });
  }
  const { step, decimals } = niceTicks(min, max, target);
  const round = (v: number) => Number(v.toFixed(decimals));
  const lo = round(Math.floor(min / step + 1e-9) * step);
  const hi = round(Math.ceil(max / step - 1e-9) * step);
  const ticks: number[] = [];
  for (let k = 0; lo + k * step <= hi + step * 1e-9; k++) ticks.push(round(lo + k * step));
  return { lo, hi, ticks };
}
