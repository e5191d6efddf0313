// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TargetView } from '../../../shared/api.ts';
import type { RunProgress } from '../../../shared/runs/run-types.ts';
import { setTransport } from '../../api.ts';
import { handleProgress, handleStarted } from '../../runs/run-events.ts';
import { useRunsStore } from '../../runs/run-store.ts';
import { defaultDraft } from '../../runs/workload-draft.ts';
import { useAppStore } from '../../stores/app-store.ts';
import { FakeTransport } from '../../testing/fake-transport.ts';
import { runDetail, runHeader } from '../../testing/run-fixture.ts';
import { LiveDashboard } from './LiveDashboard.tsx';
import { RunDetailView } from './RunSummaryView.tsx';
import { WorkloadForm } from './WorkloadForm.tsx';

const SIM: TargetView = {
  id: 'builtin-sim',
  name: 'Built-in simulator',
  baseUrl: 'http://127.0.0.1:8000',
  dialect: 'openai-chat',
  hasApiKey: false,
  builtin: true,
};

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
