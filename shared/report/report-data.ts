/**
 * The report's data from runs the core has read (the run library's RunDetail, or the CLI's files):
 * each run's summary with its charts' inputs precomputed by the app's own functions
 * (shared/runs/summary/distributions.ts, report-lanes.ts), and for several runs the comparison's inputs —
 * the columns under one set of definitions (repeats pooled) with their bootstrap intervals, which
 * need every request's gaps and so cannot be computed in the report itself.
 */
import { ok, fail, type Result } from '../result.ts';
import type { RunDetail } from '../runs-api.ts';
import { LETTERS } from '../runs/letters.ts';
import { compareIntervals } from '../runs/compare/intervals.ts';
import { modelIntervals } from '../runs/compare/by-model.ts';
import { poolLoaded, resolveDefinitions, type LoadedRun } from '../runs/compare/runs.ts';
import { clientsNote, definitionsLine, rederiveRun } from '../runs/summary/rederive.ts';
import type { DefinitionsId } from '../runs/summary/definitions.ts';
import {
  cdfsOf,
  histogramData,
  metricValues,
  type DistMetric,
  type HistDatum,
} from '../runs/summary/distributions.ts';
import { isCancelledLine, outcomeOfLine } from '../runs/summary/outcome.ts';
import { repeatSpread } from '../runs/compare/pooled.ts';
import type { RequestOutcome } from '../runs/summary/outcome.ts';
import { reportLanes, DEFAULT_TICK_BUDGET } from './report-lanes.ts';
import {
  REPORT_FORMAT,
  REPORT_VERSION,
  type ReportComparison,
  type ReportData,
  type ReportRun,
} from './report-types.ts';

const DIST: DistMetric[] = ['ttft', 'tpot', 'itl', 'itl_per_token', 'e2el', 'client_queue_time'];

/** The measured requests' outcomes (warm-up and cancelled left out, as the summary does). */
function outcomesOfDetail(d: RunDetail): RequestOutcome[] {
  if (!d.lines) return d.outcomes ?? [];
  return d.lines.filter((l) => !l.warmup && !isCancelledLine(l)).map((l) => outcomeOfLine(l));
}

/** One run's section. @internal exported for its tests */
export function reportRun(d: RunDetail, tickBudget = DEFAULT_TICK_BUDGET): ReportRun {
  const outcomes = outcomesOfDetail(d);
  const hist = {} as Record<DistMetric, HistDatum[]>;
  const histLog = {} as Record<DistMetric, HistDatum[]>;
  for (const m of DIST) {
    const v = metricValues(outcomes, m);
    hist[m] = histogramData(v);
    histLog[m] = histogramData(v, 30, 'log');
  }
  return {
    entry: d.entry,
    header: d.header,
    summary: d.summary,
    problems: d.problems,
    hist,
    histLog,
    cdfs: cdfsOf([outcomes], [d.summary]),
    lanes: d.lines ? reportLanes(d.lines, tickBudget) : null,
  };
}

/** A run as a comparison column (re-derivable when it has its events). @internal exported for its tests */
export function loadedOfDetail(d: RunDetail): LoadedRun {
  const { header, lines } = d;
  return {
    file: d.entry.key,
    label: d.entry.name || 'Load run',
    model: d.entry.model,
    url: d.entry.url,
    header,
    summary: d.summary,
    outcomes: outcomesOfDetail(d),
    ...(header && lines ? { rederive: (x: DefinitionsId) => rederiveRun(header, lines, d.summary, x) } : {}),
  };
}

/** The app's columns: consecutive runs of one repeat group pooled (as its comparison view does). */
export function detailColumns(details: readonly RunDetail[]): LoadedRun[] | string {
  const groups: RunDetail[][] = [];
  for (const d of details) {
    const g = d.header?.repeat?.group;
    const last = groups[groups.length - 1];
    if (g && last && last[0]!.header?.repeat?.group === g) last.push(d);
    else groups.push([d]);
  }
  const out: LoadedRun[] = [];
  for (const col of groups) {
    if (col.length === 1) {
      out.push(loadedOfDetail(col[0]!));
      continue;
    }
    const pooled = poolLoaded(col.map(loadedOfDetail), col.map((d) => d.entry.key).join(' + '));
    if (typeof pooled === 'string') return pooled;
    out.push(pooled);
  }
  return out;
}

/** The comparison's inputs: columns under one set of definitions, their intervals, CDFs, spreads. */
function reportComparison(
  columns: readonly LoadedRun[],
  o: { definitions?: DefinitionsId; replicates?: number; sameWithin?: number } = {},
): Result<ReportComparison> {
  const resolved = resolveDefinitions(columns, o.definitions);
  if (typeof resolved === 'string')
    return fail({ kind: 'client', code: 'invalid-arguments', message: resolved });
  const runs = resolved.runs;
  const summaries = runs.map((r) => r.summary);
  const input = runs.map((r) => ({ summary: r.summary, outcomes: r.outcomes, strata: r.strata ?? null }));
  // Model mixes: each model's rows' intervals, from its own requests, in the same map (by-model.ts).
  const intervals =
    o.replicates === 0
      ? null
      : new Map([
          ...compareIntervals(input, { replicates: o.replicates }),
          ...modelIntervals(input, { replicates: o.replicates }),
        ]);
  const rederived = runs.map((r) => !!r.rederivedAs);
  // Pooled repeats: each repeat's own headline numbers under the same definitions.
  const spreads = columns.map((col, i) => {
    if (!col.parts || col.parts.length < 2) return null;
    const parts = resolveDefinitions(col.parts, resolved.definitions);
    if (typeof parts === 'string') return null;
    return {
      letter: LETTERS[i]!,
      name: runs[i]!.label,
      rows: repeatSpread(parts.runs.map((p) => p.summary)),
    };
  });
  return ok({
    labels: runs.map((r) => ({ label: r.label, model: r.model ?? '', url: r.url ?? '' })),
    headers: runs.map((r) => r.header),
    summaries,
    intervals: intervals ? [...intervals.entries()] : null,
    ...(o.sameWithin === undefined ? {} : { sameWithin: o.sameWithin }),
    definitions: resolved.definitions,
    definitionsLine: definitionsLine(resolved.definitions, rederived, resolved.defaulted),
    rederived,
    clients: clientsNote(summaries),
    spreads,
    cdfs: cdfsOf(
      runs.map((r) => r.outcomes ?? []),
      summaries,
    ),
  });
}

export interface ReportInput {
  /** Each run's own section. */
  runs: readonly RunDetail[];
  /** Columns to compare (two or more), or null for no comparison. */
  compare: readonly LoadedRun[] | null;
  definitions?: DefinitionsId;
  replicates?: number;
  /** The verdicts' equivalence margin, a fraction (compare.ts SAME_WITHIN by default). */
  sameWithin?: number;
  tickBudget?: number;
  tokenscopeVersion: string;
  generatedAtWall: number;
}

export function buildReportData(input: ReportInput): Result<ReportData> {
  let comparison: ReportComparison | null = null;
  if (input.compare && input.compare.length >= 2) {
    const c = reportComparison(input.compare, input);
    if (!c.ok) return c;
    // Each run's section is one column's run, or one of a pooled column's repeats, in order.
    const runColumns = input.compare.flatMap((col, i) => (col.parts ?? [col]).map(() => i));
    comparison = runColumns.length === input.runs.length ? { ...c.value, runColumns } : c.value;
  }
  return ok({
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    generatedAtWall: input.generatedAtWall,
    tokenscopeVersion: input.tokenscopeVersion,
    runs: input.runs.map((d) => reportRun(d, input.tickBudget)),
    comparison,
  });
}
