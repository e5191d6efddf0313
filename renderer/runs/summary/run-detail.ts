/**
 * What the summary view draws for an opened run, derived once per run: per-request outcomes (from
 * the lines with the one definition, shared/runs/summary/outcome.ts, or an import's own), the swimlane
 * rebuilt from the lines, series over time, histograms, and statistics (falling back to vLLM's
 * reported keys for imports without per-request data).
 */
import type { RunDetail } from '../../../shared/runs-api.ts';
import { isCancelledLine, outcomeOfLine } from '../../../shared/runs/summary/outcome.ts';
import type { RequestOutcome } from '../../../shared/runs/summary/outcome.ts';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { LaneStore } from '../live/lane-store.ts';
import { DIST_METRICS } from '../charts/metric-defs.ts';
import {
  concurrencySeries,
  histogramData,
  metricValues,
  throughputSeries,
  type DistMetric,
  type HistDatum,
  type TimePoint,
} from '../charts/run-series.ts';

export interface DerivedRun {
  outcomes: RequestOutcome[];
  /** Null when the run has no per-request times (imports). */
  lanes: LaneStore | null;
  throughput: TimePoint[];
  concurrency: TimePoint[];
  xMax: number;
  hist: Record<DistMetric, HistDatum[]>;
  /** The same values in log bins (drawn on a log x axis: by default when they span decades). */
  histLog: Record<DistMetric, HistDatum[]>;
}

/** The measured requests' outcomes (warm-up and cancelled left out, as the summary does). */
export function outcomesOf(d: RunDetail): RequestOutcome[] {
  if (!d.lines) return d.outcomes ?? [];
  return d.lines.filter((l) => !l.warmup && !isCancelledLine(l)).map((l) => outcomeOfLine(l));
}

export function deriveRun(d: RunDetail): DerivedRun {
  const outcomes = outcomesOf(d);
  let lanes: LaneStore | null = null;
  if (d.lines) {
    lanes = new LaneStore();
    lanes.loadLines(d.entry.key, d.lines);
    if (lanes.n === 0) lanes = null;
  }
  const end = lanes ? lanes.lastMs : 0;
  const { hist, histLog } = histogramsOf(outcomes);
  return {
    outcomes,
    lanes,
    throughput: lanes ? throughputSeries(lanes, end, true) : [],
    concurrency: lanes ? concurrencySeries(lanes, end) : [],
    xMax: Math.max(1, end / 1000),
    hist,
    histLog,
  };
}

/** Each metric's histogram, in linear and in log bins. */
export function histogramsOf(outcomes: readonly RequestOutcome[]): Pick<DerivedRun, 'hist' | 'histLog'> {
  const hist = {} as Record<DistMetric, HistDatum[]>;
  const histLog = {} as Record<DistMetric, HistDatum[]>;
  for (const m of DIST_METRICS) {
    const v = metricValues(outcomes, m.id);
    hist[m.id] = histogramData(v);
    histLog[m.id] = histogramData(v, 30, 'log');
  }
  return { hist, histLog };
}

export { statsOf } from '../../../shared/runs/summary/stats-of.ts';

/** "per event 60 · usage total 0 · estimated 0" → a sentence on where token counts came from. */
export function tokenSourceText(s: RunSummary): string {
  const o = s.tokens.outputSource;
  const parts: string[] = [];
  if (o['per-event']) parts.push(`${o['per-event']} exact per event`);
  const tk = s.tokens.outputTokenized ?? 0;
  if (o['usage-total'] - tk > 0)
    parts.push(`${o['usage-total'] - tk} exact total from usage (per event estimated)`);
  if (tk > 0) parts.push(`${tk} counted by the server's tokenizer from the text (POST /tokenize)`);
  if (o.estimated) parts.push(`${o.estimated} estimated (1 per event)`);
  return parts.length ? parts.join(' · ') : '—';
}
