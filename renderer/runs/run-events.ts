/**
 * The core's run events into the run store (summaries, ≤ 4 Hz: progress comes every ~250 ms)
 * and the lane store (every swimlane batch, no React). Called from the controller.
 */
import type { RunEntry, RunFinished, RunLaneBatch, RunList, RunStarted } from '../../shared/runs-api.ts';
import type { RunProgress } from '../../shared/runs/live/progress-types.ts';
import { onEvent } from '../core/api.ts';
import { useAppStore } from '../core/app-store.ts';
import { clientTokens } from '../core/client-tokens.ts';
import { liveLanes } from './live/lane-store.ts';
import { concurrencySeries, sampleOf, throughputSeries, type ProgressSample } from './charts/run-series.ts';
import { newLiveRun, sequenceOwns, useRunsStore, type LiveRun } from './run-store.ts';

/** Progress samples kept for the concurrency chart (at 4 Hz: 2 hours). */
const MAX_SAMPLES = 28_800;

/** The live run for `runId`, created (with fresh lanes) if it is a new one. */
export function ensureLive(runId: string, key: string | null): LiveRun {
  const cur = useRunsStore.getState().live;
  if (cur && cur.runId === runId) {
    if (key && !cur.key) {
      const next = { ...cur, key };
      useRunsStore.setState({ live: next });
      return next;
    }
    return cur;
  }
  liveLanes.reset(runId);
  const live = newLiveRun(runId, key ?? runningKeyOf(runId, useRunsStore.getState().runs));
  useRunsStore.setState({ live });
  return live;
}

/** @internal exported for its tests */
export function handleStarted(s: RunStarted): void {
  const live = ensureLive(s.runId, s.key);
  const view = useRunsStore.getState().view;
  useRunsStore.setState({
    live: { ...live, key: s.key, header: s.header, thresholds: s.selfCheckThresholds },
    view: view.kind === 'new' ? { kind: 'live' } : view,
  });
}

/** Progress samples of the live run (mutable; the charts get a copy once a second). */
let samples: ProgressSample[] = [];
/** Charts refresh at most this often (ms); counters follow every progress tick. @internal exported for its tests */
export const CHART_INTERVAL_MS = 1000;

/** @internal exported for its tests */
export function handleProgress(p: RunProgress): void {
  const live = ensureLive(p.runId, null);
  if (!live.progress) samples = [];
  const sample = sampleOf(p);
  if (sample) {
    if (samples.length >= MAX_SAMPLES) samples = samples.filter((_, i) => i % 2 === 0);
    samples.push(sample);
  }
  const over = p.phase === 'done' || p.phase === 'cancelled';
  const at = performance.now();
  const c = live.charts;
  // The series charts and the distributions refresh on different ticks, so one frame never
  // renders both groups.
  const refresh = over || at - c.at >= CHART_INTERVAL_MS;
  const refreshStats = over || (!refresh && at - live.dist.at >= CHART_INTERVAL_MS);
  let charts = c;
  if (refresh) {
    charts = {
      ...charts,
      at,
      samples: samples.slice(),
      throughput: throughputSeries(liveLanes, over ? liveLanes.lastMs : p.elapsedMs, over),
      xMax: Math.max(1, (over ? Math.max(p.elapsedMs, liveLanes.lastMs) : p.elapsedMs) / 1000),
    };
  }
  const dist = refreshStats ? { at, stats: p.live } : live.dist;
  useRunsStore.setState({ live: { ...live, progress: p, progressAt: at, charts, dist } });
}

/** @internal exported for its tests */
export function handleLanes(b: RunLaneBatch): void {
  if (liveLanes.runId !== b.runId) {
    const live = useRunsStore.getState().live;
    if (live?.runId !== b.runId) ensureLive(b.runId, null);
  }
  liveLanes.apply(b);
  countClientTokens(b);
}

/** Warm-up requests of the live run: their times count from the warm-up's start, not the run's. */
let warmupIds = new Set<string>();
let warmupRun: string | null = null;

/**
 * The run's tokens into the client's per-second token counts (the metrics panel draws them beside
 * the server's counters), at wall time: the run clock's zero plus the event's run time.
 */
function countClientTokens(b: RunLaneBatch): void {
  const header = useRunsStore.getState().live?.header;
  if (!header) return;
  if (warmupRun !== b.runId) {
    warmupIds = new Set();
    warmupRun = b.runId;
  }
  for (const s of b.starts) if (s.warmup) warmupIds.add(s.id);
  const url = header.target.url.replace(/\/+$/, '');
  const target = useAppStore.getState().targets.find((t) => t.baseUrl.replace(/\/+$/, '') === url);
  if (!target) return;
  const zero = header.clockZeroWall ?? header.startedAtWall;
  for (const e of b.events) {
    if (warmupIds.has(e.id)) continue;
    for (let i = 0; i < e.t.length; i++) clientTokens.add(target.id, zero + e.t[i]!, e.tok[i]!);
  }
}

/** @internal exported for its tests */
export function handleFinished(f: RunFinished, open: (key: string) => void): void {
  const live = ensureLive(f.runId, f.key);
  const end = liveLanes.lastMs;
  useRunsStore.setState({
    live: {
      ...live,
      key: f.key,
      finished: f,
      cancelling: false,
      charts: {
        ...live.charts,
        at: performance.now(),
        throughput: throughputSeries(liveLanes, end, true),
        samples: samples.length
          ? samples.slice()
          : concurrencySeries(liveLanes, end).map((q) => ({
              t: q.t,
              inFlight: q.inFlight ?? 0,
              queued: q.queued ?? 0,
            })),
        xMax: Math.max(1, end / 1000),
      },
    },
  });
  const view = useRunsStore.getState().view;
  // It never started (its test request failed; no header, no file): back to the form, which
  // says why at its top, as for a workload the core refused. A sequence says it in its message.
  if (f.error && !live.header && !f.summary && !f.cancelled) {
    const message = f.testRequestFailed
      ? `${f.error} To run anyway, untick “send one test request first” under “Arrivals, warm-up, seed, test request”.`
      : f.error;
    if (view.kind === 'live')
      useRunsStore.setState({ view: { kind: 'new' }, startIssues: [{ path: '', message }] });
    return;
  }
  // The whole-run summary with every chart, from the run file: only if the user is watching.
  // (A run of a sequence on several targets: the sequence shows the next run, or the comparison.)
  if (view.kind === 'live' && f.summary && !f.error && !sequenceOwns(f)) open(f.key);
  // The user opened this run's file while it ran (from the list, after a reload): what they see
  // was read mid-run, without the summary line; read it again now that it is whole.
  else if (view.kind === 'run' && view.key === f.key) open(f.key);
}

export function handleList(l: RunList): void {
  useRunsStore.setState({ runs: l.runs, dir: l.dir, skipped: l.skipped, listError: null, listLoaded: true });
  // A page that missed the run's start (reloaded mid-run) knows its key from the list.
  const live = useRunsStore.getState().live;
  const key = live && !live.key ? runningKeyOf(live.runId, l.runs) : null;
  if (live && key) useRunsStore.setState({ live: { ...live, key } });
}

/** The file key of the run going on with this id, from the list. */
function runningKeyOf(runId: string, runs: readonly RunEntry[]): string | null {
  return runs.find((r) => r.running && r.runId === runId)?.key ?? null;
}

/** `finished` runs after the run store has the finished run (a sequence starts its next run there). */
export function subscribeRunEvents(
  open: (key: string) => void,
  finished?: (f: RunFinished) => void,
): (() => void)[] {
  return [
    onEvent('onRunStarted', handleStarted),
    onEvent('onRunProgress', handleProgress),
    onEvent('onRunLanes', handleLanes),
    onEvent('onRunFinished', (f) => {
      handleFinished(f, open);
      finished?.(f);
    }),
    onEvent('onRunsChanged', handleList),
  ];
}
