/**
 * What a report file carries (`tokenscope report`, the app's "Export report"): each run's summary
 * and what its charts need, precomputed and compact — per-request scalars as columns, histogram
 * bins and CDF points instead of every token gap, swimlane ticks up to a budget — and, for several
 * runs, the comparison's inputs (summaries under one set of definitions and their intervals).
 * Plain JSON inside the report's `<script type="application/json" id="tokenscope-report">`.
 */
import type { RunEntry } from '../runs-api.ts';
import type { CdfSet, DistMetric, HistDatum } from '../runs/summary/distributions.ts';
import type { DefinitionsId } from '../runs/summary/definitions.ts';
import type { IntervalCell } from '../runs/compare/intervals.ts';
import type { SpreadRow } from '../runs/compare/pooled.ts';
import type { RunHeader } from '../runs/file/line-schema.ts';
import type { RunSummary } from '../runs/summary/schema.ts';

export const REPORT_FORMAT = 'tokenscope-report';
export const REPORT_VERSION = 1;

/** The element the data sits in, and what the template holds until it is filled. */
export const REPORT_DATA_ID = 'tokenscope-report';
export const REPORT_DATA_PLACEHOLDER = '"__TOKENSCOPE_REPORT_DATA__"';

/**
 * The swimlane's requests, in the order the app's lane store loads a run's lines (by send time):
 * one entry per measured request in each column. Times as the run file has them (ms, µs rounded).
 */
export interface ReportLanes {
  id: string[];
  seq: number[];
  arrivedMs: number[];
  startedMs: number[];
  /** The request's end, ms after it was sent (E2E, else the end phase, else its last event). */
  endAfterMs: number[];
  ttftMs: (number | null)[];
  ok: (0 | 1)[];
  outTokens: number[];
  /** Failed requests: [lane, "kind/code: message"]. */
  errors: [number, string][];
  /** Token ticks per lane (how many of `tickT` are lane i's), then their times (ms since sent) and tokens. */
  tickCount: number[];
  tickT: number[];
  tickTok: number[];
  /** Events in the run, and ticks kept (fewer when the run had more than the budget). */
  events: number;
  ticksKept: number;
  /** Output tokens per 1-s bucket of the run, from every event (the throughput chart). */
  tokPerS: number[];
}

export interface ReportRun {
  entry: RunEntry;
  header: RunHeader | null;
  summary: RunSummary;
  problems: string[];
  /** A histogram per latency metric (an overflow bin's x1 is Infinity, null in JSON). */
  hist: Record<DistMetric, HistDatum[]>;
  /** The same values in log bins (the log x axis); absent in reports made before it was added. */
  histLog?: Record<DistMetric, HistDatum[]>;
  /** The run's CDFs (one series each). */
  cdfs: CdfSet[];
  /** Null when the run has no per-request times (imports). */
  lanes: ReportLanes | null;
}

/** A comparison's inputs; the report computes its rows with the app's own functions. */
export interface ReportComparison {
  labels: { label: string; model: string; url: string }[];
  headers: (RunHeader | null)[];
  /** Each column's summary under `definitions` (re-derived, repeats pooled). */
  summaries: RunSummary[];
  /**
   * Per row id, per run: the 95 % interval of the change, or 'too-few' (shared/runs/compare/intervals.ts); null:
   * none computed.
   */
  intervals: [string, IntervalCell[]][] | null;
  /** The equivalence margin the verdicts were asked with (compare.ts SAME_WITHIN; absent: default). */
  sameWithin?: number;
  definitions: DefinitionsId;
  definitionsLine: string;
  rederived: boolean[];
  clients: string | null;
  spreads: ({ letter: string; name: string; rows: SpreadRow[] } | null)[];
  cdfs: CdfSet[];
  /**
   * Per report run (`ReportData.runs`, in order): the column it is part of — a pooled column's
   * repeats each have a section of their own. Absent in reports made before it was recorded.
   */
  runColumns?: number[];
}

export interface ReportData {
  format: typeof REPORT_FORMAT;
  version: number;
  generatedAtWall: number;
  tokenscopeVersion: string;
  runs: ReportRun[];
  comparison: ReportComparison | null;
}
