// @vitest-environment happy-dom
/**
 * Embeddings and rerank runs in the app: the summary, the server side, the live dashboard and the
 * comparison show latency, request and input-token throughput and batch sizes, and no TTFT, ITL or
 * TPOT card, row, chart or legend entry — absent, not zeros or dashes. A streamed run beside them
 * keeps every one (so the absence is the guard's, not a broken view).
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunDetail } from '../../shared/runs-api.ts';
import type { RunProgress } from '../../shared/runs/live/progress-types.ts';
import { setTransport } from '../core/api.ts';
import { FakeTransport } from '../testing/fake-transport.ts';
import { poolingRunDetail } from '../testing/pooling-fixture.ts';
import { runDetail, runHeader } from '../testing/run-fixture.ts';
import { serverSide } from '../testing/server-fixture.ts';
import { showCompare, toggleCompare } from './run-actions.ts';
import { handleProgress, handleStarted } from './run-events.ts';
import { useRunsStore } from './run-store.ts';
import { RunCompareView } from './compare/RunCompareView.tsx';
import { LiveDashboard } from './live/LiveDashboard.tsx';
import { RunDetailView } from './summary/RunSummaryView.tsx';

/** Every mark of token timing or of generated output a view could show. */
const TOKEN_WORDS =
  /TTFT|ITL|TPOT|Inter-token|first token|token event|generating|Output token|generated tokens/i;

afterEach(() => {
  cleanup();
  setTransport(null);
});

const text = (id: string) => screen.getByTestId(id).textContent;
const metricsOf = (table: string) =>
  [...screen.getByTestId(table).querySelectorAll('tr[data-metric]')].map((r) =>
    r.getAttribute('data-metric'),
  );

describe('the run summary of an embeddings run', () => {
  const d = poolingRunDetail('openai-embeddings');

  it('shows latency, request and input throughput, batch sizes, the dimension; no token timing anywhere', () => {
    const { container } = render(<RunDetailView detail={d} width={480} />);
    expect(text('sum-completed')).toBe('4');
    expect(text('sum-req-throughput')).toBe('8.00 req/s');
    // 4 requests × 4 inputs in 0.5 s; 4 × 120 usage tokens in 0.5 s.
    expect(text('sum-batch-size')).toBe('4.00 / 4 / 4');
    expect(text('sum-batch-inputs')).toBe('16');
    expect(text('sum-inputs-tput')).toBe('32.00 inputs/s');
    expect(text('sum-input-tput')).toBe('960.00 tok/s');
    expect(screen.getByTestId('sum-input-tput').parentElement!.getAttribute('title')).toMatch(
      /counted from server usage/,
    );
    expect(text('sum-embedding-dim')).toBe('384');
    expect(text('sum-peak-concurrency')).toBe('1.00');
    expect(metricsOf('sum-stats')).toEqual(['e2el', 'client_queue_time']);
    expect(screen.getByTestId('sum-stats').querySelector('tr[data-metric="e2el"]')!.textContent).toContain(
      '55.00',
    );
    expect(screen.getByTestId('sum-hist-e2el')).toBeTruthy();
    expect(screen.getByTestId('sum-req-chart')).toBeTruthy();
    for (const id of ['sum-output-tokens', 'sum-output-throughput', 'sum-peak-tput', 'sum-tok-chart'])
      expect(screen.queryByTestId(id), id).toBeNull();
    for (const m of ['ttft', 'tpot', 'itl', 'itl_per_token'])
      expect(screen.queryByTestId(`sum-hist-${m}`), m).toBeNull();
    expect(text('sum-token-source')).toBe(
      'Input tokens: 4 from server usage, 0 estimated. Each answer came whole, not as a token stream: latency is sent → whole answer.',
    );
    expect(container.textContent).not.toMatch(TOKEN_WORDS);
    expect(container.textContent).not.toMatch(/NaN|undefined/);
  });

  it('a rerank run: documents per query, no dimension row', () => {
    render(<RunDetailView detail={poolingRunDetail('rerank')} width={480} />);
    expect(text('sum-batch-size')).toBe('4.00 / 4 / 4');
    expect(screen.queryByTestId('sum-embedding-dim')).toBeNull();
  });

  it("the server side: E2E and queue time beside the client's, no TTFT, inter-token or generated-token row", () => {
    const withServer: RunDetail = { ...d, summary: { ...d.summary, server: serverSide } };
    const { container } = render(<RunDetailView detail={withServer} width={480} />);
    expect(screen.getByTestId('sum-server-e2e')).toBeTruthy();
    expect(screen.getByTestId('sum-server-queue')).toBeTruthy();
    for (const id of ['sum-server-ttft', 'sum-server-itl', 'sum-server-gen'])
      expect(screen.queryByTestId(id), id).toBeNull();
    expect(container.textContent).not.toMatch(TOKEN_WORDS);
  });

  it('a streamed run keeps all of them (the guard is the batch, not a broken view)', () => {
    const chat = runDetail(5);
    render(
      <RunDetailView detail={{ ...chat, summary: { ...chat.summary, server: serverSide } }} width={480} />,
    );
    expect(metricsOf('sum-stats')).toEqual(expect.arrayContaining(['ttft', 'tpot', 'itl', 'e2el']));
    for (const id of [
      'sum-output-tokens',
      'sum-output-throughput',
      'sum-tok-chart',
      'sum-hist-ttft',
      'sum-server-ttft',
    ])
      expect(screen.getByTestId(id), id).toBeTruthy();
    expect(screen.queryByTestId('sum-batch-size')).toBeNull();
  });
});

describe('the live dashboard of an embeddings run', () => {
  const stat = {
    count: 12,
    mean: 50,
    p50: 48,
    p90: 60,
    p99: 70,
    max: 71,
    cdf: [
      [0, 40],
      [100, 71],
    ] as [number, number][],
  };
  const progress = (patch: Partial<RunProgress> = {}): RunProgress => ({
    runId: 'run-e',
    phase: 'running',
    elapsedMs: 2000,
    total: 40,
    durationMs: null,
    arrived: 40,
    started: 20,
    completed: 12,
    failed: 0,
    inFlight: 8,
    queued: 20,
    maxInFlight: 8,
    warmupDone: 0,
    warmupTotal: 0,
    outputTokens: 0,
    batch: { inputs: 96, inputTokens: 3000 },
    fraction: 0.3,
    etaMs: 4000,
    live: { ttft: null, tpot: null, itl: null, itl_per_token: null, e2el: stat, client_queue_time: stat },
    selfCheck: { eventLoopDelayP99Ms: 1, cpuPct: 20 },
    ...patch,
  });

  it('counts requests, batch sizes, inputs and input tokens per second; latency rows and CDFs only', () => {
    const header = runHeader();
    handleStarted({
      runId: 'run-e',
      key: 'e.jsonl',
      header: { ...header, target: { ...header.target, dialect: 'openai-embeddings' } },
      selfCheckThresholds: { eventLoopDelayP99Ms: 5, cpuMeanPct: 85 },
    });
    act(() => handleProgress(progress()));
    const { container } = render(<LiveDashboard />);
    // 12 done in 2 s; 96 inputs over 12 requests; 96 and 3000 per 2 s.
    expect(text('run-req-rate')).toBe('6');
    expect(text('run-batch-size')).toBe('8.00');
    expect(text('run-inputs-rate')).toBe('48');
    expect(text('run-input-tok-rate')).toBe('1,500');
    expect(metricsOf('live-stats')).toEqual(['e2el', 'client_queue_time']);
    expect(screen.getByTestId('live-cdf-e2el')).toBeTruthy();
    for (const id of ['live-cdf-ttft', 'live-cdf-itl', 'live-cdf-tpot', 'run-tok-chart'])
      expect(screen.queryByTestId(id), id).toBeNull();
    expect(container.textContent).not.toMatch(TOKEN_WORDS);
  });
});

describe('comparing two rerank runs', () => {
  const a = poolingRunDetail('rerank');
  const b: RunDetail = { ...a, entry: { ...a.entry, key: 'b.jsonl', name: 'second' } };
  beforeEach(() => {
    const byKey = new Map([a, b].map((d) => [d.entry.key, d]));
    setTransport(
      new FakeTransport({ openRun: (key: unknown) => ({ ok: true, value: byKey.get(key as string) }) }),
    );
    useRunsStore.setState({ runs: [], compareKeys: [], compared: null, view: { kind: 'new' } });
  });

  it('compares latency, request and input throughput and batch sizes; no token rows or CDFs', async () => {
    toggleCompare(a.entry.key);
    toggleCompare(b.entry.key);
    const { container } = render(<RunCompareView />);
    await showCompare();
    await waitFor(() => expect(screen.getByTestId('run-compare').dataset.ready).toBe('yes'));
    const table = screen.getByTestId('compare-table');
    const rows = [...table.querySelectorAll('tr[data-row]')].map((r) => r.getAttribute('data-row'));
    expect(rows).toEqual(
      expect.arrayContaining([
        'req-tput',
        'e2el-p99',
        'batch-inputs-mean',
        'batch-inputs-tput',
        'batch-input-tok-tput',
      ]),
    );
    expect(rows.filter((r) => /ttft|tpot|itl|out-tput|peak-tput|total-tput/.test(r!))).toEqual([]);
    const cells = [...table.querySelectorAll('tr[data-row="batch-input-tok-tput"] > *')].map((c) =>
      c.textContent?.trim(),
    );
    expect(cells.slice(0, 3)).toEqual(['Input token throughput', '960 tok/s', '960 tok/s']);
    expect(screen.getByTestId('compare-cdf-e2el')).toBeTruthy();
    expect(screen.queryByTestId('compare-cdf-ttft')).toBeNull();
    expect(screen.queryByTestId('compare-cdf-tpot')).toBeNull();
    expect(container.textContent).not.toMatch(/TTFT|TPOT|ITL|Output token/);
  });
});
