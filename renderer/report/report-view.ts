/**
 * The report page's data: read from its inline JSON element (checked for what it claims to be),
 * and turned into what the app's run views take — the swimlane's lane store, the series over time
 * (the app's own functions on the same requests), histograms with their overflow bins restored.
 */
import { fail, ok, type Result, errorMessage } from '../../shared/result.ts';
import type { RunDetail } from '../../shared/runs-api.ts';
import { LETTERS } from '../../shared/runs/letters.ts';
import type { DistMetric, HistDatum } from '../../shared/runs/summary/distributions.ts';
import {
  REPORT_DATA_ID,
  REPORT_FORMAT,
  REPORT_VERSION,
  type ReportData,
  type ReportRun,
} from '../../shared/report/report-types.ts';
import { LaneStore } from '../runs/live/lane-store.ts';
import type { DerivedRun } from '../runs/summary/run-detail.ts';
import { concurrencySeries, throughputSeries } from '../runs/charts/run-series.ts';

/** The data in the page, or why there is none to show. */
export function readReportData(doc: Document): Result<ReportData> {
  const text = doc.getElementById(REPORT_DATA_ID)?.textContent ?? '';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return fail({
      kind: 'client',
      code: 'invalid',
      message: `the report's data is not JSON: ${errorMessage(e)}`,
    });
  }
  if (typeof data === 'string')
    return fail({
      kind: 'client',
      code: 'empty',
      message: 'this is the report template, without a run in it',
    });
  const d = data as Partial<ReportData> | null;
  if (!d || d.format !== REPORT_FORMAT || !Array.isArray(d.runs))
    return fail({
      kind: 'client',
      code: 'invalid',
      message: 'the data in this page is not a Tokenscope report',
    });
  if (d.version !== REPORT_VERSION)
    return fail({
      kind: 'client',
      code: 'version',
      message: `report format version ${String(d.version)}, this page reads ${REPORT_VERSION}`,
    });
  return ok(d as ReportData);
}

/** JSON has no Infinity: an overflow bin's open upper edge comes back as null. */
function histOf(bins: readonly HistDatum[]): HistDatum[] {
  return bins.map((b) => (b.overflow ? { ...b, x1: Infinity } : b));
}

/** What the run views draw, as the app derives it from a run's lines (runs/run-detail.ts deriveRun). */
export function deriveReportRun(r: ReportRun): Omit<DerivedRun, 'outcomes'> {
  let lanes: LaneStore | null = null;
  if (r.lanes) {
    lanes = new LaneStore();
    lanes.loadReport(r.entry.key, r.lanes);
    if (lanes.n === 0) lanes = null;
  }
  const end = lanes ? lanes.lastMs : 0;
  const hist = {} as Record<DistMetric, HistDatum[]>;
  for (const [m, bins] of Object.entries(r.hist)) hist[m as DistMetric] = histOf(bins);
  const histLog = (r.histLog ?? {}) as Record<DistMetric, HistDatum[]>;
  return {
    lanes,
    throughput: lanes ? throughputSeries(lanes, end, true) : [],
    concurrency: lanes ? concurrencySeries(lanes, end) : [],
    xMax: Math.max(1, end / 1000),
    hist,
    histLog,
  };
}

/** The run as the app's run-detail parts take it (no lines: they are in the report's columns). */
export function detailOf(r: ReportRun): RunDetail {
  return {
    entry: r.entry,
    header: r.header,
    summary: r.summary,
    lines: null,
    outcomes: null,
    problems: r.problems,
  };
}

/**
 * What each run's section is called and what the page's head says, so a letter means one thing
 * on the whole page: with a comparison, a section takes its column's letter (A, B…), and a pooled
 * column's repeats are B1, B2… (the comparison's B is their pool); without one, A, B, C in order;
 * a single run has no letter. The head counts run files and, when repeats were pooled, columns.
 */
export function reportLabels(data: Pick<ReportData, 'runs' | 'comparison'>): {
  letters: (string | null)[];
  head: string;
} {
  const n = data.runs.length;
  const cols = data.comparison?.runColumns;
  if (n <= 1) return { letters: [null], head: data.runs[0]?.entry.name ?? 'Load run' };
  if (!cols || cols.length !== n)
    return { letters: data.runs.map((_, i) => LETTERS[i] ?? String(i + 1)), head: `${n} runs` };
  const size = new Map<number, number>();
  for (const c of cols) size.set(c, (size.get(c) ?? 0) + 1);
  const seen = new Map<number, number>();
  const letters = cols.map((c) => {
    const j = (seen.get(c) ?? 0) + 1;
    seen.set(c, j);
    const L = LETTERS[c] ?? String(c + 1);
    return size.get(c)! > 1 ? `${L}${j}` : L;
  });
  const pooled = [...size].filter(([, k]) => k > 1);
  if (pooled.length === 0) return { letters, head: `${n} runs` };
  const pools = pooled
    .map(([c, k]) => `${LETTERS[c]} pools ${k} repeats (${LETTERS[c]}1–${LETTERS[c]}${k} below)`)
    .join(', ');
  return { letters, head: `${n} run files compared as ${size.size} runs: ${pools}` };
}
