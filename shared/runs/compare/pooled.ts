/**
 * Repeats of one workload (`tokenscope run --repeat N`) pooled into one run, and how much they
 * differed from each other.
 *
 * Pooled: every measured request of every repeat in one summary, computed by the one summary
 * function (summary.ts). Durations add up, so a pooled throughput is total tokens over total
 * measured time; each repeat's request times are moved after the previous repeat's end so peaks
 * (concurrency, tokens per second) are never counted across repeats. The server side is per
 * repeat and is not pooled. For intervals, requests are resampled within each repeat (strata).
 *
 * Spread: the headline numbers of each repeat side by side with their mean, standard deviation
 * and range — the run-to-run variation a single run's interval cannot show (a server warming
 * up, another tenant, thermal throttling).
 */
import { COMPARE_ROWS } from './rows.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import type { RunHeader } from '../file/line-schema.ts';
import type { RunSummary } from '../summary/schema.ts';
import { computeRunSummary } from '../summary/summary.ts';
import { byModelOf } from '../summary/by-model.ts';

export interface PoolPart {
  header: RunHeader | null;
  summary: RunSummary;
  /** Measured requests (warm-up and cancelled left out). */
  outcomes: readonly RequestOutcome[];
}

export interface PooledRun {
  summary: RunSummary;
  outcomes: RequestOutcome[];
  /** Requests per repeat, in order: the strata of the pooled bootstrap. */
  strata: number[];
}

export function poolRuns(parts: readonly PoolPart[]): PooledRun {
  const outcomes: RequestOutcome[] = [];
  const strata: number[] = [];
  let offsetMs = 0;
  let durationS = 0;
  for (const p of parts) {
    for (const o of p.outcomes)
      outcomes.push(o.startMs === null || offsetMs === 0 ? o : { ...o, startMs: o.startMs + offsetMs });
    strata.push(p.outcomes.length);
    const d = p.summary.vllm.duration;
    const dur = Number.isFinite(d) && d > 0 ? d : 0;
    durationS += dur;
    offsetMs += dur * 1000;
  }
  const first = parts[0]!;
  const summary = computeRunSummary({
    outcomes,
    durationS,
    slo: first.summary.slo ?? null,
    config: first.summary.config,
    source: first.summary.source,
    definitions: first.summary.definitions ?? 'tokenscope',
    partial: parts.some((p) => p.summary.partial),
    cancelled: parts.some((p) => p.summary.cancelled),
    cancelledRequests: parts.reduce((a, p) => a + p.summary.cancelledRequests, 0),
    warmupRequests: parts.reduce((a, p) => a + p.summary.warmupRequests, 0),
    nonStreaming: first.summary.batch !== undefined,
  });
  // Model mixes: the pooled requests by model, as one run's (by-model.ts).
  const byModel = byModelOf({
    outcomes,
    models: outcomes.map((o) => o.model),
    durationS,
    config: first.summary.config,
    definitions: first.summary.definitions ?? 'tokenscope',
    order: first.header?.workload.models?.map((m) => m.name),
  });
  if (byModel) summary.byModel = byModel;
  return { summary, outcomes, strata };
}

/** The headline numbers whose run-to-run spread is shown (ids of rows.ts rows). */
const SPREAD_ROWS = [
  'out-tput',
  'req-tput',
  'fail-rate',
  'ttft-mean',
  'ttft-p99',
  'tpot-mean',
  'tpot-p99',
  'itl-p99',
  'e2el-p99',
] as const;

export interface SpreadRow {
  id: string;
  label: string;
  unit: string;
  /** Per repeat, in order; null where the repeat had no value. */
  values: (number | null)[];
  mean: number | null;
  /** Sample standard deviation (n − 1); null with fewer than two values. */
  sd: number | null;
  min: number | null;
  max: number | null;
  /** sd / mean; null where undefined. */
  cv: number | null;
}

export function repeatSpread(summaries: readonly RunSummary[]): SpreadRow[] {
  const out: SpreadRow[] = [];
  for (const id of SPREAD_ROWS) {
    const def = COMPARE_ROWS.find((r) => r.id === id);
    if (!def) continue;
    const values = summaries.map((s) => def.get(s));
    const xs = values.filter((v): v is number => v !== null);
    if (xs.length === 0) continue;
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd =
      xs.length < 2 ? null : Math.sqrt(xs.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (xs.length - 1));
    out.push({
      id,
      label: def.label,
      unit: def.unit,
      values,
      mean,
      sd,
      min: Math.min(...xs),
      max: Math.max(...xs),
      cv: sd === null || mean === 0 ? null : sd / Math.abs(mean),
    });
  }
  return out;
}

const fmt = (v: number | null, unit: string): string => {
  if (v === null) return '—';
  const digits = Math.abs(v) >= 100 ? 1 : 2;
  return unit === '%' ? `${v.toFixed(2)} %` : `${v.toFixed(digits)} ${unit}`;
};

/** The spread as a terminal table: one column per repeat, then mean ± sd, range and CV. */
export function spreadText(rows: readonly SpreadRow[], title = 'Run-to-run spread'): string {
  if (rows.length === 0) return '';
  const n = rows[0]!.values.length;
  const head = ['', ...Array.from({ length: n }, (_, i) => `#${i + 1}`), 'mean', '± sd', 'CV'];
  const table = rows.map((r) => [
    r.label,
    ...r.values.map((v) => fmt(v, r.unit)),
    fmt(r.mean, r.unit),
    r.sd === null ? '—' : fmt(r.sd, r.unit),
    r.cv === null ? '—' : `${(r.cv * 100).toFixed(1)} %`,
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...table.map((t) => (t[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [`${title} (${n} repeats)`, line(head), ...table.map(line)].join('\n') + '\n';
}
