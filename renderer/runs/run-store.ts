/**
 * Load runs' summaries for React: the history list, what the Runs tab shows, the live run's
 * latest progress (≤ 4 updates a second, as the core sends them) and its derived series, the
 * opened run. Per-event swimlane data is not here: it lives in lane-store.ts.
 */
import { create } from 'zustand';
import type { RunDetail, RunEntry, RunFinished } from '../../shared/runs-api.ts';
import type { RunHeader } from '../../shared/runs/file/line-schema.ts';
import type { LiveSnapshot, RunProgress } from '../../shared/runs/live/progress-types.ts';
import type { WorkloadIssue } from '../../shared/runs/workload/workload.ts';
import type { ProgressSample, TimePoint } from './charts/run-series.ts';
import { defaultDraft, validateDraft, type WorkloadDraft } from './form/workload-draft.ts';

type RunsView = { kind: 'new' } | { kind: 'live' } | { kind: 'run'; key: string } | { kind: 'compare' };

/** The runs shown side by side, in pick order (the first is the baseline), with their details. */
export interface ComparedRuns {
  keys: string[];
  details: (RunDetail | null)[];
  errors: (string | null)[];
  loading: boolean;
}

export interface LiveRun {
  runId: string;
  key: string | null;
  header: RunHeader | null;
  thresholds: { eventLoopDelayP99Ms: number; cpuMeanPct: number } | null;
  progress: RunProgress | null;
  /** What the charts draw, refreshed once a second (charts cost more to render than the counters). */
  charts: LiveCharts;
  /** The distributions' percentiles, refreshed once a second on other ticks than `charts` (one chart group per frame). */
  dist: { at: number; stats: LiveSnapshot | null };
  finished: RunFinished | null;
  cancelling: boolean;
  /** When the latest progress arrived (performance.now()), to move the swimlane smoothly between ticks. */
  progressAt: number;
}

export interface LiveCharts {
  /** performance.now() of this refresh. */
  at: number;
  /** In flight / queued at each progress tick. */
  samples: ProgressSample[];
  /** Output tok/s and req/s per second (from the lanes). */
  throughput: TimePoint[];
  /** Right end of the time axes, s. */
  xMax: number;
}

/**
 * One workload run on several targets in turn (the form's "also run on"), then opened side by
 * side. The runs are ordinary runs; this only chains them and remembers their keys.
 */
interface RunSequence {
  /**
   * The runs to make, in order: each target (repeated when the form asks for repeats; `repeat`
   * ties a target's repeats together, and they open pooled).
   */
  targets: { id: string; name: string; repeat?: { group: string; index: number; of: number } }[];
  /** The run going on (or starting): an index into targets. */
  index: number;
  /** The runs so far, in order (runIds[index] is the current one once started). */
  runIds: string[];
  keys: string[];
  workload: Record<string, unknown>;
  /** What the user typed ('' = none): each run is named after it and its target. */
  name: string;
  model: string;
  serverMetrics: boolean;
  /** The form's trace receiver, for each run of the sequence in turn. */
  otlpListen?: { port: number };
}

interface OpenedRun {
  key: string;
  loading: boolean;
  detail: RunDetail | null;
  error: string | null;
}

export interface RunsState {
  runs: RunEntry[];
  dir: string | null;
  skipped: { file: string; error: string }[];
  listError: string | null;
  listLoaded: boolean;
  view: RunsView;
  live: LiveRun | null;
  opened: OpenedRun | null;
  /** Ticked in the history for comparison, in the order they were ticked. */
  compareKeys: string[];
  compared: ComparedRuns | null;
  draft: WorkloadDraft;
  /** The form's target (null: the app's selected target). */
  targetId: string | null;
  /** Other targets the form's workload runs on after the first, one after another, then compared. */
  alsoTargetIds: string[];
  /** How many times each target runs the workload (1–100); repeats are pooled when compared. */
  repeats: number;
  sequence: RunSequence | null;
  starting: boolean;
  startIssues: WorkloadIssue[];
  /** One line about the last action (export saved, folder path, import warnings…). */
  message: RunsMessage | null;
}

export interface RunsMessage {
  tone: 'info' | 'warn' | 'error';
  text: string;
  /** A button after the text (e.g. "Add it as a target…"). */
  action?: { label: string; run: () => void; testId?: string };
}

export const useRunsStore = create<RunsState>(() => ({
  runs: [],
  dir: null,
  skipped: [],
  listError: null,
  listLoaded: false,
  view: { kind: 'new' },
  live: null,
  opened: null,
  compareKeys: [],
  compared: null,
  draft: defaultDraft(),
  targetId: null,
  alsoTargetIds: [],
  repeats: 1,
  sequence: null,
  starting: false,
  startIssues: [],
  message: null,
}));

/**
 * Whether a finished run belongs to the sequence going on, which then decides what is shown next
 * (the next run live, or the comparison at the end) instead of the run's own summary.
 */
export function sequenceOwns(f: RunFinished): boolean {
  const q = useRunsStore.getState().sequence;
  return q !== null && q.runIds[q.index] === f.runId && !f.cancelled && !f.error;
}

export function setDraft(patch: Partial<WorkloadDraft>): void {
  useRunsStore.setState((s) => {
    const draft = { ...s.draft, ...patch };
    // Once a start showed problems, they follow the values: a fixed field loses its message at
    // once (problems without a field — the server's — stay until the next start).
    if (s.startIssues.length === 0) return { draft };
    const general = s.startIssues.filter((i) => i.path === '');
    return { draft, startIssues: [...general, ...validateDraft(draft)] };
  });
}

export function setRunsMessage(message: RunsState['message']): void {
  useRunsStore.setState({ message });
}

export function newLiveRun(runId: string, key: string | null): LiveRun {
  return {
    runId,
    key,
    header: null,
    thresholds: null,
    progress: null,
    charts: { at: 0, samples: [], throughput: [], xMax: 1 },
    dist: { at: 0, stats: null },
    finished: null,
    cancelling: false,
    progressAt: 0,
  };
}
