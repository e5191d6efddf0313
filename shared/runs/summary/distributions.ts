/**
 * A run's latency distributions from its per-request outcomes: the values of each metric pooled as
 * the summary pools them, equal-width histogram bins, and empirical CDF points. In shared/ because
 * the app draws them from a run's lines and the core's report builder (shared/report/) ships them
 * precomputed (a run's every token gap is too large to put in a report).
 */
import { binValues, binValuesLog, type Bin } from '../../charts/histogram-bins.ts';
import { LETTERS, RUN_COLORS } from '../letters.ts';
import type { RequestOutcome } from './outcome.ts';
import type { RunSummary } from './schema.ts';
import { streamsTokens } from './batch.ts';

export type DistMetric = 'ttft' | 'tpot' | 'itl' | 'itl_per_token' | 'e2el' | 'client_queue_time';

/**
 * The values a metric's distribution is drawn from, pooled as the summary's `stats` pool them
 * (successful requests only; ITL without the coalesced gaps where the outcome knows them).
 */
export function metricValues(outcomes: readonly RequestOutcome[], m: DistMetric): number[] {
  const out: number[] = [];
  for (const o of outcomes) {
    if (!o.ok) continue;
    switch (m) {
      case 'ttft':
        if (o.ttftMs !== null) out.push(o.ttftMs);
        break;
      case 'tpot':
        if (o.tpotMs !== null && o.outputTokens > 1) out.push(o.tpotMs);
        break;
      case 'itl':
        for (const g of o.itlChunkMeasuredMs ?? o.itlChunkMs) out.push(g);
        break;
      case 'itl_per_token':
        for (const g of o.itlTokenMeasuredMs ?? o.itlTokenMs ?? []) out.push(g);
        break;
      case 'e2el':
        if (o.e2eMs !== null) out.push(o.e2eMs);
        break;
      case 'client_queue_time':
        if (o.queueMs !== null) out.push(o.queueMs);
        break;
    }
  }
  return out;
}

export interface HistDatum {
  /** Bin centre (ms), the x of the bar. */
  x: number;
  x0: number;
  x1: number;
  count: number;
  overflow: boolean;
}

/** Equal-width bins (`linear`), or equal width in log10 (`log`: for values spanning decades). */
export function histogramData(
  values: readonly number[],
  target = 30,
  scale: 'linear' | 'log' = 'linear',
): HistDatum[] {
  if (scale === 'log')
    return binValuesLog(values, { target }).map((b) => ({
      x: b.x0 > 0 ? Math.sqrt(b.x0 * b.x1) : b.x1 / 2,
      x0: b.x0,
      x1: b.x1,
      count: b.count,
      overflow: false,
    }));
  const bins: Bin[] = binValues(values, { target });
  return bins.map((b) => {
    const w = bins[0] ? bins[0].x1 - bins[0].x0 : 1;
    const x1 = b.overflow ? b.x0 + w : b.x1;
    return {
      x: (b.x0 + x1) / 2,
      x0: b.x0,
      x1: b.overflow ? Infinity : b.x1,
      count: b.count,
      overflow: b.overflow,
    };
  });
}

/**
 * An empirical CDF of `values` (ms): x = value, y = percentile (0–100], at most `maxPoints`
 * points, always keeping the minimum and the maximum (a tail is what a comparison is about).
 * @internal exported for its tests
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

/** One metric's CDFs, a series per run (letter and colour as in the comparison). */
export interface CdfSet {
  id: DistMetric;
  /** The metric drawn: `id`, or its fallback. */
  metric: DistMetric;
  name: string;
  series: { name: string; color: string; points: { v: number; p: number }[] }[];
}

/** The metrics a comparison (and a report) draws as CDFs; ITL per chunk where a run has no per-token gaps. */
const CDFS: { id: DistMetric; name: string; fallback?: DistMetric }[] = [
  { id: 'ttft', name: 'TTFT' },
  { id: 'tpot', name: 'TPOT' },
  { id: 'itl_per_token', name: 'ITL per token', fallback: 'itl' },
  { id: 'e2el', name: 'E2E latency' },
];

/**
 * Each metric's CDF per column, from its values pooled and sorted (ITL per chunk where a run has no
 * per-token gaps).
 */
export function cdfsOf(
  outcomes: readonly (readonly RequestOutcome[])[],
  summaries: readonly RunSummary[],
): CdfSet[] {
  // Runs that streamed no token (embeddings, rerank) have latency only: no empty TTFT/TPOT/ITL charts.
  const batchOnly = summaries.length > 0 && !summaries.some((s) => streamsTokens(s));
  return (batchOnly ? CDFS.filter((c) => c.id === 'e2el') : CDFS).map((c) => {
    let values = outcomes.map((o) => metricValues(o, c.id));
    let metric = c.id;
    let name = c.name;
    if (c.fallback && values.some((v) => v.length === 0)) {
      metric = c.fallback;
      name = 'ITL per chunk';
      values = outcomes.map((o) => metricValues(o, metric));
    }
    const series = values.map((v, i) => ({
      name: LETTERS[i]!,
      color: RUN_COLORS[i]!,
      points: cdfFromValues(v),
    }));
    const est =
      metric === 'itl_per_token' &&
      summaries.some((x) => x.tokens.outputSource.estimated > 0 || x.tokens.outputSource['usage-total'] > 0);
    return { id: c.id, metric, name: est ? `${name} (estimated counts)` : name, series };
  });
}
