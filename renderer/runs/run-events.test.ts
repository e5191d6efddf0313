import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunProgress } from '../../shared/runs/live/progress-types.ts';
import type { RunEntry } from '../../shared/runs-api.ts';
import { runHeader } from '../testing/run-fixture.ts';
import { liveLanes } from './live/lane-store.ts';
import {
  CHART_INTERVAL_MS,
  handleFinished,
  handleLanes,
  handleList,
  handleProgress,
  handleStarted,
} from './run-events.ts';
import { useRunsStore } from './run-store.ts';

const progress = (patch: Partial<RunProgress> = {}): RunProgress => ({
  runId: 'run-1',
  phase: 'running',
  elapsedMs: 1000,
  total: 10,
  durationMs: null,
  arrived: 10,
  started: 4,
  completed: 2,
  failed: 0,
  inFlight: 2,
  queued: 6,
  maxInFlight: 2,
  warmupDone: 0,
  warmupTotal: 0,
  outputTokens: 8,
  fraction: 0.2,
  etaMs: 4000,
  live: { ttft: null, tpot: null, itl: null, itl_per_token: null, e2el: null, client_queue_time: null },
  selfCheck: { eventLoopDelayP99Ms: 1, cpuPct: 10 },
  ...patch,
});

let now = 10_000;
beforeEach(() => {
  now = 10_000;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  useRunsStore.setState({ live: null, view: { kind: 'new' } });
});
afterEach(() => vi.restoreAllMocks());

describe('run events', () => {
  it('a started run becomes the live run, with fresh lanes, and the view follows it', () => {
    handleStarted({
      runId: 'run-1',
      key: 'k.jsonl',
      header: runHeader(),
      selfCheckThresholds: { eventLoopDelayP99Ms: 5, cpuMeanPct: 85 },
    });
    const s = useRunsStore.getState();
    expect(s.view).toEqual({ kind: 'live' });
    expect(s.live?.key).toBe('k.jsonl');
    expect(s.live?.thresholds?.cpuMeanPct).toBe(85);
    expect(liveLanes.runId).toBe('run-1');
    expect(liveLanes.n).toBe(0);
  });

  it('counters follow every progress tick; series and distributions refresh once a second, on different ticks', () => {
    handleStarted({
      runId: 'run-1',
      key: 'k.jsonl',
      header: runHeader(),
      selfCheckThresholds: { eventLoopDelayP99Ms: 5, cpuMeanPct: 85 },
    });
    handleLanes({
      runId: 'run-1',
      starts: [{ id: 'r0', seq: 0, warmup: false, scheduledMs: 0, arrivedMs: 0, startedMs: 0, queueMs: 0 }],
      events: [{ id: 'r0', t: [100, 1200], tok: [1, 1] }],
      done: [],
    });
    handleProgress(progress());
    const a = useRunsStore.getState().live!;
    expect(a.progress?.completed).toBe(2);
    expect(a.charts.at).toBe(now);
    expect(a.charts.throughput).toEqual([{ t: 0.5, tokS: 1, reqS: 0, errS: 0 }]);
    expect(a.charts.samples).toEqual([{ t: 1, inFlight: 2, queued: 6 }]);
    expect(a.dist.at).toBe(0); // not on the same tick as the series
    now += 250;
    handleProgress(progress({ completed: 3, elapsedMs: 1250 }));
    const b = useRunsStore.getState().live!;
    expect(b.progress?.completed).toBe(3);
    expect(b.charts).toBe(a.charts); // same object: the charts do not re-render
    expect(b.dist.at).toBe(now);
    now += 250;
    handleProgress(progress({ elapsedMs: 1500 }));
    expect(useRunsStore.getState().live!.charts).toBe(a.charts);
    now += CHART_INTERVAL_MS;
    handleProgress(progress({ elapsedMs: 2500 }));
    const c = useRunsStore.getState().live!;
    expect(c.charts).not.toBe(a.charts);
    expect(c.charts.samples).toHaveLength(4);
    expect(c.charts.throughput).toHaveLength(2);
  });

  it("at the end opens the run file when the user watches the live run, or that run's file opened mid-run", () => {
    handleStarted({
      runId: 'run-1',
      key: 'k.jsonl',
      header: runHeader(),
      selfCheckThresholds: { eventLoopDelayP99Ms: 5, cpuMeanPct: 85 },
    });
    const open = vi.fn();
    const summary = {} as never;
    handleFinished(
      { runId: 'run-1', key: 'k.jsonl', summary, cancelled: false, fileError: null, error: null },
      open,
    );
    expect(open).toHaveBeenCalledWith('k.jsonl');
    expect(useRunsStore.getState().live?.finished?.key).toBe('k.jsonl');
    useRunsStore.setState({ view: { kind: 'run', key: 'other' } });
    handleFinished(
      { runId: 'run-1', key: 'k.jsonl', summary, cancelled: false, fileError: null, error: null },
      open,
    );
    expect(open).toHaveBeenCalledTimes(1);
    // The user opened this run's file mid-run (from the list, say after a reload): read it again,
    // whole, whatever the ending.
    useRunsStore.setState({ view: { kind: 'run', key: 'k.jsonl' } });
    handleFinished(
      { runId: 'run-1', key: 'k.jsonl', summary, cancelled: false, fileError: null, error: null },
      open,
    );
    expect(open).toHaveBeenCalledTimes(2);
    useRunsStore.setState({ view: { kind: 'live' } });
    handleFinished(
      {
        runId: 'run-1',
        key: 'k.jsonl',
        summary,
        cancelled: false,
        fileError: null,
        error: 'prompts unreadable',
      },
      open,
    );
    expect(open).toHaveBeenCalledTimes(2);
  });

  it("a page that missed the start (reloaded mid-run) learns the live run's file from the list", () => {
    const entry = (runId: string, running: boolean) =>
      ({ key: `${runId}.jsonl`, runId, running }) as RunEntry;
    // Progress first, then the list.
    handleProgress(progress());
    expect(useRunsStore.getState().live?.key).toBeNull();
    handleList({ runs: [entry('run-0', false), entry('run-1', false)], skipped: [], dir: '/r' });
    expect(useRunsStore.getState().live?.key).toBeNull(); // not the one going on
    handleList({ runs: [entry('run-0', false), entry('run-1', true)], skipped: [], dir: '/r' });
    expect(useRunsStore.getState().live?.key).toBe('run-1.jsonl');
    // The list first, then progress.
    useRunsStore.setState({ live: null });
    handleList({ runs: [entry('run-2', true)], skipped: [], dir: '/r' });
    handleProgress(progress({ runId: 'run-2' }));
    expect(useRunsStore.getState().live?.key).toBe('run-2.jsonl');
  });

  it('a run whose test request failed never started: the form comes back with the error at its top', () => {
    useRunsStore.setState({ view: { kind: 'live' }, startIssues: [] });
    handleProgress(progress({ phase: 'test', fraction: 0, completed: 0, started: 0, arrived: 0 }));
    expect(useRunsStore.getState().live?.progress?.phase).toBe('test');
    const open = vi.fn();
    const error =
      'The test request failed, so the run did not start: HTTP 404: The model `x` does not exist.';
    handleFinished(
      { runId: 'run-1', key: 'k.jsonl', summary: null, cancelled: false, fileError: null, error },
      open,
    );
    const s = useRunsStore.getState();
    expect(s.view).toEqual({ kind: 'new' });
    expect(s.startIssues).toEqual([{ path: '', message: error }]);
    expect(open).not.toHaveBeenCalled();
    // Said to be the test request's: the form adds how to run anyway.
    useRunsStore.setState({ view: { kind: 'live' }, startIssues: [] });
    handleFinished(
      {
        runId: 'run-1',
        key: 'k.jsonl',
        summary: null,
        cancelled: false,
        fileError: null,
        error,
        testRequestFailed: true,
      },
      open,
    );
    expect(useRunsStore.getState().startIssues[0]!.message).toBe(
      `${error} To run anyway, untick “send one test request first” under “Arrivals, warm-up, seed, test request”.`,
    );
  });

  it('a run that started and then failed stays on the live view, which says why', () => {
    useRunsStore.setState({ view: { kind: 'live' }, startIssues: [] });
    handleStarted({
      runId: 'run-1',
      key: 'k.jsonl',
      header: runHeader(),
      selfCheckThresholds: { eventLoopDelayP99Ms: 5, cpuMeanPct: 85 },
    });
    handleFinished(
      {
        runId: 'run-1',
        key: 'k.jsonl',
        summary: null,
        cancelled: false,
        fileError: null,
        error: 'disk full',
      },
      vi.fn(),
    );
    const s = useRunsStore.getState();
    expect(s.view).toEqual({ kind: 'live' });
    expect(s.startIssues).toEqual([]);
    expect(s.live?.finished?.error).toBe('disk full');
  });
});
