/**
 * What the summary view draws for an opened run, derived once per run: per-request outcomes (from
 * the lines with the one definition, shared/runs/outcome.ts, or an import's own), the swimlane
 * rebuilt from the lines, series over time, histograms, and statistics (falling back to vLLM's
 * reported keys for imports without per-request data).
 */
import type { RunDetail } from '../../shared/runs-api.ts';
import { isCancelledLine, outcomeOfLine } from '../../shared/runs/outcome.ts';
import type { RequestOutcome, RunSummary } from '../../shared/runs/run-types.ts';
import { LaneStore } from './lane-store.ts';
import { DIST_METRICS } from './metric-defs.ts';
import {
  concurrencySeries,
  histogramData,
  metricValues,
  throughputSeries,
  type DistMetric,
  type HistDatum,
  type TimePoint,
} from './run-series.ts';

export interface DerivedRun {
  outcomes: RequestOutcome[];
  /** Null when the run has no per-request times (imports). */
  lanes: LaneStore | null;
  throughput: TimePoint[];
  concurrency: TimePoint[];
  xMax: number;
  hist: Record<DistMetric, HistDatum[]>;
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
  const hist = {} as Record<DistMetric, HistDatum[]>;
  for (const m of DIST_METRICS) hist[m.id] = histogramData(metricValues(outcomes, m.id));
  return {
    outcomes,
    lanes,
    throughput: lanes ? throughputSeries(lanes, end, true) : [],
    concurrency: lanes ? concurrencySeries(lanes, end) : [],
    xMax: Math.max(1, end / 1000),
    hist,
  };
}

export { statsOf } from '../../shared/runs/stats-of.ts';

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
