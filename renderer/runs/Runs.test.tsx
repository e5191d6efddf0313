// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TargetView } from '../../shared/api.ts';
import type { RunProgress } from '../../shared/runs/live/progress-types.ts';
import { setTransport } from '../core/api.ts';
import type { RunFinished } from '../../shared/runs-api.ts';
import { openRun, sequenceRunFinished } from './run-actions.ts';
import { handleFinished, handleProgress, handleStarted } from './run-events.ts';
import { useRunsStore } from './run-store.ts';
import { defaultDraft } from './form/workload-draft.ts';
import { useAppStore } from '../core/app-store.ts';
import { FakeTransport } from '../testing/fake-transport.ts';
import { runDetail, runHeader } from '../testing/run-fixture.ts';
import { LiveDashboard } from './live/LiveDashboard.tsx';
import { RunDetailView } from './summary/RunSummaryView.tsx';
import { WorkloadForm } from './form/WorkloadForm.tsx';

const SIM: TargetView = {
  id: 'builtin-sim',
  name: 'Built-in simulator',
  baseUrl: 'http://127.0.0.1:8000',
  dialect: 'openai-chat',
  hasApiKey: false,
  builtin: true,
};

type StartArgs = { targetId: string; model?: string; name?: string; workload: Record<string, unknown> };

let fake: FakeTransport;
beforeEach(() => {
  fake = new FakeTransport({
    listModels: () => ({ ok: true, value: { models: ['tokenscope-sim'], source: '/v1/models' } }),
  });
  setTransport(fake);
  useAppStore.setState({ targets: [SIM], targetsLoaded: true, selectedTargetId: null });
  useRunsStore.setState({
    draft: defaultDraft(),
    startIssues: [],
    starting: false,
    live: null,
    view: { kind: 'new' },
    targetId: null,
  });
});
afterEach(() => {
  cleanup();
  setTransport(null);
});

describe('WorkloadForm', () => {
  it('starts the default workload against the simulator in one click', async () => {
    fake.handlers.startRun = () => ({ ok: true, value: { runId: 'run-9', key: 'k9.jsonl' } });
    render(<WorkloadForm />);
    // The picker fills the draft once the model list is in (the <select> shows its first option
    // before that, so wait on the draft, not on the DOM).
    await waitFor(() => expect(useRunsStore.getState().draft.model).toBe('tokenscope-sim'));
    expect((screen.getByTestId('model-select') as HTMLSelectElement).value).toBe('tokenscope-sim');
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(useRunsStore.getState().view).toEqual({ kind: 'live' }));
    const call = fake.calls.find((c) => c.method === 'startRun')!;
    const input = call.args[0] as { targetId: string; model: string; workload: Record<string, unknown> };
    expect(input.targetId).toBe('builtin-sim');
    expect(input.model).toBe('tokenscope-sim');
    expect((call.args[0] as { serverMetrics?: boolean }).serverMetrics).toBe(true); // watched by default
    expect(input.workload).toMatchObject({
      requests: 200,
      maxConcurrency: 32,
      rate: 'inf',
      prompts: { type: 'synthetic', inputLen: 128, outputLen: 64 },
    });
    expect(useRunsStore.getState().live?.runId).toBe('run-9');
  });

  it('listens for server traces on the port asked; a taken port is said at the field', async () => {
    fake.handlers.startRun = () => ({
      ok: false,
      error: {
        kind: 'client',
        message:
          'cannot listen for server traces on 127.0.0.1:4399: the port is taken (another program listens there, e.g. an OpenTelemetry collector); choose another port',
      },
    });
    render(<WorkloadForm />);
    await waitFor(() => expect(useRunsStore.getState().draft.model).toBe('tokenscope-sim'));
    expect(screen.queryByTestId('run-otlp-port')).toBe(null);
    fireEvent.click(screen.getByTestId('run-otlp-listen'));
    fireEvent.change(screen.getByTestId('run-otlp-port'), { target: { value: '4399' } });
    expect(screen.getByText(/--otlp-traces-endpoint http:\/\/127\.0\.0\.1:4399\/v1\/traces/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() =>
      expect(screen.getByTestId('run-otlp-port').getAttribute('aria-invalid')).toBe('true'),
    );
    const call = fake.calls.find((c) => c.method === 'startRun')!;
    expect((call.args[0] as { otlpListen?: unknown }).otlpListen).toEqual({ port: 4399 });
    expect(screen.getAllByText(/the port is taken/).length).toBeGreaterThan(0);
  });

  it("lists the core's validation errors with their paths and marks the fields", async () => {
    fake.handlers.startRun = () => ({
      ok: false,
      error: {
        kind: 'client',
        message: 'bad workload: maxConcurrency: Too small: expected number to be >=1',
      },
    });
    render(<WorkloadForm />);
    fireEvent.click(screen.getByTestId('run-start'));
    const issues = await screen.findByTestId('run-issues');
    expect(issues.textContent).toContain('maxConcurrency');
    expect(issues.textContent).toContain('Too small');
    expect(screen.getByTestId('run-concurrency').getAttribute('aria-invalid')).toBe('true');
  });

  it('refuses a bad field before sending anything', async () => {
    render(<WorkloadForm />);
    fireEvent.change(screen.getByTestId('run-requests'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByTestId('run-start'));
    await screen.findByTestId('run-issues');
    expect(fake.calls.some((c) => c.method === 'startRun')).toBe(false);
    expect(screen.getByTestId('run-requests').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('one workload on several targets in turn', () => {
  const B: TargetView = {
    ...SIM,
    id: 'gpu-b',
    name: 'GPU box B',
    baseUrl: 'http://10.0.0.2:8000',
    builtin: false,
  };
  const finished = (runId: string, key: string, patch: Partial<RunFinished> = {}): RunFinished => ({
    runId,
    key,
    summary: runDetail(3).summary,
    cancelled: false,
    fileError: null,
    error: null,
    ...patch,
  });
  const end = async (f: RunFinished) => {
    handleFinished(f, (key) => void openRun(key, true));
    await sequenceRunFinished(f);
  };

  beforeEach(() => {
    useAppStore.setState({ targets: [SIM, B] });
    useRunsStore.setState({
      alsoTargetIds: [],
      sequence: null,
      compareKeys: [],
      compared: null,
      message: null,
    });
    let n = 0;
    fake.handlers.startRun = () => ({ ok: true, value: { runId: `run-${++n}`, key: `k${n}.jsonl` } });
    fake.handlers.openRun = () => ({ ok: true, value: runDetail(3) });
    // B serves another model: the picked one is not sent to it (the core takes B's own).
    fake.handlers.listModels = (id) =>
      id === 'gpu-b'
        ? { ok: true, value: { models: ['other-model'], source: '/v1/models' } }
        : { ok: true, value: { models: ['tokenscope-sim'], source: '/v1/models' } };
  });

  it('runs on each ticked target after the first, then opens them side by side', async () => {
    render(<WorkloadForm />);
    await waitFor(() => expect(useRunsStore.getState().draft.model).toBe('tokenscope-sim'));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'same load' } });
    fireEvent.click(screen.getByText(/Also run on other targets/));
    fireEvent.click(screen.getByTestId('run-also-target'));
    expect(screen.getByTestId('run-start').textContent).toBe('Start 2 runs');
    expect(screen.getByTestId('run-against').textContent).toBe('against Built-in simulator, then GPU box B');
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(useRunsStore.getState().live?.runId).toBe('run-1'));
    const starts = () => fake.calls.filter((c) => c.method === 'startRun').map((c) => c.args[0] as StartArgs);
    expect(starts()).toHaveLength(1);
    expect(starts()[0]).toMatchObject({
      targetId: 'builtin-sim',
      model: 'tokenscope-sim',
      name: 'same load · Built-in simulator',
    });
    // The first run ends: the second starts on B with the same workload, the view stays live.
    await act(() => end(finished('run-1', 'k1.jsonl')));
    expect(starts()).toHaveLength(2);
    expect(starts()[1]).toMatchObject({ targetId: 'gpu-b', model: undefined, name: 'same load · GPU box B' });
    expect(starts()[1]!.workload).toEqual(starts()[0]!.workload);
    expect(useRunsStore.getState().view).toEqual({ kind: 'live' });
    expect(useRunsStore.getState().sequence?.index).toBe(1);
    // Another start is refused while the sequence goes on.
    expect(screen.getByTestId('run-start').textContent).toBe('Run 2 of 2 going on');
    await act(() => end(finished('run-2', 'k2.jsonl')));
    expect(useRunsStore.getState().sequence).toBeNull();
    expect(useRunsStore.getState().compareKeys).toEqual(['k1.jsonl', 'k2.jsonl']);
    await waitFor(() => expect(useRunsStore.getState().compared?.loading).toBe(false));
    expect(useRunsStore.getState().view).toEqual({ kind: 'compare' });
  });

  it('a cancelled run ends the sequence there and says what was not run', async () => {
    useRunsStore.setState({ alsoTargetIds: ['gpu-b'] });
    render(<WorkloadForm />);
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(useRunsStore.getState().live?.runId).toBe('run-1'));
    await act(() => end(finished('run-1', 'k1.jsonl', { cancelled: true })));
    expect(fake.calls.filter((c) => c.method === 'startRun')).toHaveLength(1);
    expect(useRunsStore.getState().sequence).toBeNull();
    expect(useRunsStore.getState().message?.text).toBe(
      'Stopped at run 1 of 2 (cancelled): GPU box B not run; the runs that finished are in the history.',
    );
    expect(useRunsStore.getState().view.kind).not.toBe('compare');
  });

  it('goes on when a run ends before its start was even answered', async () => {
    useRunsStore.setState({ alsoTargetIds: ['gpu-b'] });
    // B's run finishes (every request refused at once) before startRun's answer arrives.
    let n = 0;
    fake.handlers.startRun = () => {
      n++;
      if (n === 2) handleFinished(finished('run-2', 'k2.jsonl'), (key) => void openRun(key, true));
      return { ok: true, value: { runId: `run-${n}`, key: `k${n}.jsonl` } };
    };
    render(<WorkloadForm />);
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(useRunsStore.getState().live?.runId).toBe('run-1'));
    await act(() => end(finished('run-1', 'k1.jsonl')));
    await waitFor(() => expect(useRunsStore.getState().compareKeys).toEqual(['k1.jsonl', 'k2.jsonl']));
    expect(useRunsStore.getState().sequence).toBeNull();
    // The early finish had asked for its summary; the comparison stays on screen all the same.
    await waitFor(() => expect(useRunsStore.getState().compared?.loading).toBe(false));
    await waitFor(() => expect(useRunsStore.getState().opened?.loading).toBe(false));
    expect(useRunsStore.getState().view).toEqual({ kind: 'compare' });
  });
});

describe('LiveDashboard', () => {
  const p = (patch: Partial<RunProgress>): RunProgress => ({
    runId: 'run-1',
    phase: 'running',
    elapsedMs: 2000,
    total: 60,
    durationMs: null,
    arrived: 60,
    started: 40,
    completed: 24,
    failed: 1,
    inFlight: 16,
    queued: 20,
    maxInFlight: 16,
    warmupDone: 0,
    warmupTotal: 0,
    outputTokens: 1536,
    fraction: 25 / 60,
    etaMs: 2800,
    live: {
      ttft: {
        count: 24,
        mean: 90,
        p50: 80,
        p90: 150,
        p99: 200,
        max: 210,
        cdf: [
          [0, 40],
          [50, 80],
          [100, 210],
        ],
      },
      tpot: null,
      itl: null,
      itl_per_token: null,
      e2el: null,
      client_queue_time: null,
    },
    selfCheck: { eventLoopDelayP99Ms: 1.2, cpuPct: 30 },
    ...patch,
  });

  it('shows progress, counts, ETA, live percentiles; warns when the client is overloaded', () => {
    handleStarted({
      runId: 'run-1',
      key: 'k.jsonl',
      header: runHeader(),
      selfCheckThresholds: { eventLoopDelayP99Ms: 5, cpuMeanPct: 85 },
    });
    act(() => handleProgress(p({})));
    render(<LiveDashboard />);
    expect(screen.getByTestId('run-phase').getAttribute('data-phase')).toBe('running');
    expect(screen.getByTestId('run-progress').textContent).toContain('25 / 60 requests');
    expect(screen.getByTestId('run-progress').textContent).toContain('ETA 3 s');
    expect(screen.getByTestId('run-progress').getAttribute('aria-valuenow')).toBe('41.7');
    expect(screen.getByTestId('run-completed').textContent).toBe('24');
    expect(screen.getByTestId('run-inflight').textContent).toBe('16');
    expect(screen.getByTestId('run-queued').textContent).toBe('20');
    const ttftRow = screen.getByTestId('live-stats').querySelector('tr[data-metric="ttft"]')!;
    expect(ttftRow.textContent).toContain('200 ms');
    expect(screen.queryByTestId('selfcheck-warning')).toBeNull();
    act(() => handleProgress(p({ selfCheck: { eventLoopDelayP99Ms: 12.5, cpuPct: 40 } })));
    expect(screen.getByTestId('selfcheck-warning').textContent).toContain('12.5 ms > 5 ms');

    // The run's first second has no CPU figure yet: no warning from the start-up burst.
    act(() => handleProgress(p({ selfCheck: { eventLoopDelayP99Ms: 0.2, cpuPct: null } })));
    expect(screen.queryByTestId('selfcheck-warning')).toBeNull();
    expect(screen.getByTestId('selfcheck-live').textContent).toContain('CPU measuring…');
  });

  it('labels live ITL per token "(estimated counts)" when the server sent no per-event counts', () => {
    handleStarted({
      runId: 'run-1',
      key: 'k.jsonl',
      header: runHeader(),
      selfCheckThresholds: { eventLoopDelayP99Ms: 5, cpuMeanPct: 85 },
    });
    const live = p({}).live;
    const stat = live.ttft!;
    act(() => handleProgress(p({ live: { ...live, itl_per_token: stat } })));
    render(<LiveDashboard />);
    const row = () => screen.getByTestId('live-stats').querySelector('tr[data-metric="itl_per_token"] th')!;
    expect(row().textContent).not.toContain('estimated');
    act(() => handleProgress(p({ live: { ...live, itl_per_token: stat, itlPerTokenEstimated: true } })));
    expect(row().textContent).toContain('ITL per token (estimated counts)');
    expect(row().getAttribute('title')).toContain('no per-event token counts');
    expect(screen.getByLabelText('ITL per token distribution').querySelector('h3')!.textContent).toBe(
      'ITL per token (estimated counts) · CDF',
    );
  });

  it('says how many ITL gaps were coalesced, under the live percentiles', () => {
    handleStarted({
      runId: 'run-1',
      key: 'k.jsonl',
      header: runHeader(),
      selfCheckThresholds: { eventLoopDelayP99Ms: 5, cpuMeanPct: 85 },
    });
    const live = p({}).live;
    act(() => handleProgress(p({ live: { ...live, coalesced: { gaps: 0, totalGaps: 900, share: 0 } } })));
    render(<LiveDashboard />);
    expect(screen.queryByTestId('live-coalesced')).toBeNull();
    act(() =>
      handleProgress(
        p({ live: { ...live, coalesced: { gaps: 232, totalGaps: 25_600, share: 232 / 25_600 } } }),
      ),
    );
    expect(screen.getByTestId('live-coalesced').textContent).toBe(
      'Coalesced gaps 0.9 % (232 of 25,600) — left out of the ITL above',
    );
  });
});

describe('RunDetailView', () => {
  it("shows vLLM's numbers, the statistics, errors, histograms and a swimlane of the whole run", async () => {
    const d = runDetail(5);
    render(<RunDetailView detail={d} width={360} />);
    expect(screen.getByTestId('sum-completed').textContent).toBe('4');
    expect(screen.getByTestId('sum-failed').textContent).toBe('1');
    expect(screen.getByTestId('sum-duration').textContent).toBe('0.50 s');
    // 16 output tokens / 0.5 s; goodput: TTFT SLO 50 ms met by all 4.
    expect(screen.getByTestId('sum-output-throughput').textContent).toBe('32.00 tok/s');
    expect(screen.getByTestId('sum-goodput').textContent).toBe('8.00 req/s');
    const ttft = screen.getByTestId('sum-stats').querySelector('tr[data-metric="ttft"]')!;
    expect(ttft.textContent).toContain('12.35');
    const tpot = screen.getByTestId('sum-stats').querySelector('tr[data-metric="tpot"]')!;
    expect(tpot.textContent).toContain(((61.5 - 12.346) / 3).toFixed(2));
    expect(screen.getByTestId('sum-errors').textContent).toContain('http/status');
    expect(screen.getByTestId('sum-token-source').textContent).toContain('4 exact total from usage');
    expect(screen.getByTestId('sum-hist-ttft')).toBeTruthy();
    expect(screen.getByTestId('sum-text').textContent).toMatch(/Successful requests: +4\n/);
    await waitFor(() => expect(screen.getByTestId('sum-swimlane').getAttribute('data-requests')).toBe('5'));
    expect(document.body.textContent).not.toMatch(/NaN|undefined/);
  });

  it('shows an imported result with its badge and without a timeline', () => {
    const d = runDetail(5);
    const imported = {
      ...d,
      entry: { ...d.entry, imported: true, source: 'vllm' as const, key: 'imported/x.json#0' },
      header: null,
      lines: null,
      outcomes: null,
      summary: { ...d.summary, imported: true, source: 'vllm' as const, selfCheck: null },
    };
    render(<RunDetailView detail={imported} width={360} />);
    expect(screen.getByTestId('badge-imported').textContent).toBe('imported from vLLM');
    expect(screen.queryByTestId('sum-swimlane')).toBeNull();
    expect(screen.getByText(/no timeline or swimlane/)).toBeTruthy();
    expect(screen.getByTestId('sum-completed').textContent).toBe('4');
    // Imports export only as their original file.
    expect(
      [...(screen.getByTestId('run-export-format') as HTMLSelectElement).options].map((o) => o.value),
    ).toEqual(['raw']);
  });
});
