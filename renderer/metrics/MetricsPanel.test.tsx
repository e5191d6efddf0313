// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExplorerSeries } from '../../shared/metrics-api.ts';
import type { Concepts } from '../../shared/metrics/concepts.ts';
import type { RequestSummary } from '../../shared/api.ts';
import { api, markReady, setTransport } from '../core/api.ts';
import { metricsStore } from './metrics-store.ts';
import { setPanel } from './panel-store.ts';
import { setTab } from '../core/tab-store.ts';
import { flushMetricsSummary, resetMetricsSummary } from './summary-store.ts';
import { scrape, state, ttftHist } from '../testing/metrics-fixture.ts';
import { setTargets, useAppStore } from '../core/app-store.ts';
import { refreshRequestHistory } from '../request/controller.ts';
import { subscribeMetricsEvents } from './metrics-events.ts';
import { useRequestStore } from '../request/request-store.ts';
import { FakeTransport } from '../testing/fake-transport.ts';
import { MetricsPanel } from './MetricsPanel.tsx';

const T0 = Date.now() - 10_000;

const request = (i: number, ttftMs: number): RequestSummary => ({
  id: `r${i}`,
  targetId: 'builtin-sim',
  targetName: 'Built-in simulator',
  model: 'tokenscope-sim',
  dialect: 'openai-chat',
  startedAtWall: T0 + 1100 + i * 100,
  state: 'done',
  ttftMs,
  e2eMs: 500,
  outputTokens: 20,
  errorKind: null,
  promptPreview: 'hi',
});

function explorer(i: number): ExplorerSeries[] {
  const h = i < 2 ? ttftHist([0, 0, 0, 0, 0]) : ttftHist([0, 1, 3, 3, 3]);
  return [
    {
      key: 'vllm:generation_tokens_total{engine="0"}',
      family: 'vllm:generation_tokens',
      type: 'counter',
      labels: '{engine="0"}',
      value: 1000 + (i < 2 ? 0 : 60),
    },
    {
      key: 'vllm:num_requests_running{engine="0"}',
      family: 'vllm:num_requests_running',
      type: 'gauge',
      labels: '{engine="0"}',
      value: i === 2 ? 3 : 0,
    },
    {
      key: 'vllm:time_to_first_token_seconds{engine="0"}',
      family: 'vllm:time_to_first_token_seconds',
      type: 'histogram',
      labels: '{engine="0"}',
      value: h.count,
      sum: h.sum,
      buckets: h.buckets,
    },
  ];
}

let t: FakeTransport;
let stop: () => void;

beforeEach(async () => {
  localStorage.clear();
  setPanel({ window: '1m', cvsWindow: '1m' });
  setTab('metrics');
  metricsStore.clear();
  resetMetricsSummary();
  useAppStore.setState({ targets: [], selectedTargetId: null });
  useRequestStore.setState({ history: [] });
  t = new FakeTransport({
    getAppInfo: () => ({
      ok: true,
      value: { version: 't', mode: 'web', simUrl: null, secretsPersisted: false },
    }),
    listTargets: () => ({
      ok: true,
      value: [
        {
          id: 'builtin-sim',
          name: 'Built-in simulator',
          baseUrl: 'http://127.0.0.1:9',
          dialect: 'openai-chat',
          hasApiKey: false,
          builtin: true,
        },
      ],
    }),
    listHistory: () => ({ ok: true, value: [request(0, 150), request(1, 160), request(2, 170)] }),
    watchMetrics: (ids) => ({
      ok: true,
      value: (ids as string[]).map((id) => state({ targetId: id, status: 'idle', profile: null })),
    }),
  });
  setTransport(t);
  // What the app's start does for this panel: the metrics events, the targets, this session's requests.
  const offs = subscribeMetricsEvents();
  markReady();
  const targets = await api.listTargets();
  if (targets.ok) setTargets(targets.value);
  await refreshRequestHistory();
  stop = () => offs.forEach((off) => off());
  await act(async () => {});
});

afterEach(() => {
  cleanup();
  stop();
  setTransport(null);
});

async function feed(): Promise<void> {
  await act(async () => {
    for (let i = 0; i < 5; i++) {
      const running = i === 2 ? 3 : 0;
      t.emit(
        'onMetricsScrape',
        scrape({
          targetId: 'builtin-sim',
          t: T0 + i * 1000,
          concepts: {
            requestsRunning: running,
            requestsWaiting: 0,
            kvCacheUsage: 0.1,
            generationTokensTotal: 1000 + (i < 2 ? 0 : 60),
            promptTokensTotal: 50,
            ttftHistogram: i < 2 ? ttftHist([0, 0, 0, 0, 0]) : ttftHist([0, 1, 3, 3, 3]),
          },
          explorer: explorer(i),
          help: { 'vllm:generation_tokens': 'Number of generation tokens processed.' },
        }),
      );
    }
    t.emit('onMetricsState', state({ targetId: 'builtin-sim', url: 'http://127.0.0.1:9/metrics' }));
    flushMetricsSummary();
  });
}

const W = 520;

/** Three scrapes of `targetId`, a second apart from T0, with these concepts. */
function emitScrapes(targetId: string, concepts: Partial<Concepts>): void {
  for (let i = 0; i < 3; i++) t.emit('onMetricsScrape', scrape({ targetId, t: T0 + i * 1000, concepts }));
}

/** A second target, 'gpu-b', beside the built-in simulator. */
function addSecondTarget(): void {
  const a = useAppStore.getState().targets[0]!;
  const b = { ...a, id: 'gpu-b', name: 'GPU box B', baseUrl: 'http://10.0.0.2:8000', builtin: false };
  useAppStore.setState({ targets: [a, b] });
}

describe('MetricsPanel', () => {
  it('watches the selected target while shown and stops when hidden', async () => {
    const { unmount } = render(<MetricsPanel chartWidth={W} />);
    await act(async () => {});
    expect(t.calls.filter((c) => c.method === 'watchMetrics').map((c) => c.args[0])).toEqual([
      ['builtin-sim'],
    ]);
    expect(screen.getByTestId('metrics-status').getAttribute('data-status')).toBe('idle');
    unmount();
    await act(async () => {});
    expect(t.calls.filter((c) => c.method === 'watchMetrics').at(-1)!.args[0]).toEqual([]);
  });

  it('shows the profile, charts with units and client vs server for the same window', async () => {
    render(<MetricsPanel chartWidth={W} />);
    await act(async () => {});
    await feed();
    const status = screen.getByTestId('metrics-status');
    expect(status.getAttribute('data-status')).toBe('ok');
    expect(status.getAttribute('data-profile')).toBe('vllm-v1');
    expect(status.textContent).toContain('vLLM v1');
    expect(status.textContent).toContain('http://127.0.0.1:9/metrics');

    const running = screen.getByTestId('metrics-running-chart');
    expect(running.querySelectorAll('.recharts-line').length).toBe(3);
    expect(running.textContent).toContain('requests');
    const ttft = screen.getByTestId('metrics-ttft-chart');
    expect(ttft.textContent).toContain('ms');
    // The server has no ITL histogram in this fixture: said, not drawn as zeros.
    expect(screen.getByTestId('metrics-itl-chart').textContent).toContain('Not exposed by this server');

    // Client: TTFTs 150, 160, 170 → p50 160 ms. Server: 3 observations, 1 in (50, 100] ms and 2 in
    // (100, 250] ms → p50 rank 1.5: 100 + 150 × 0.5/2 = 137.5 ms; the difference is +22.5 ms.
    expect(screen.getByTestId('cvs-client-ttft-p50').textContent).toBe('160 ms');
    expect(screen.getByTestId('cvs-server-ttft-p50').textContent).toBe('138 ms');
    expect(screen.getByTestId('cvs-diff-ttft-p50').textContent).toBe('+22.5 ms');
    expect(screen.getByTestId('cvs-buckets').textContent).toContain('(100 ms, 250 ms]');
    expect(screen.getByTestId('cvs-client-tokens').textContent).toContain('60');
    expect(screen.getByTestId('cvs-server-tokens').textContent).toBe('60 generated');
  });

  it('side by side with a second target: both watched, one column each, the same charts', async () => {
    addSecondTarget();
    render(<MetricsPanel chartWidth={W} />);
    await act(async () => {});
    fireEvent.change(screen.getByTestId('metrics-compare-select'), { target: { value: 'gpu-b' } });
    await act(async () => {});
    expect(t.calls.filter((c) => c.method === 'watchMetrics').at(-1)!.args[0]).toEqual([
      'builtin-sim',
      'gpu-b',
    ]);
    await feed();
    await act(async () => {
      t.emit(
        'onMetricsState',
        state({
          targetId: 'gpu-b',
          url: 'http://10.0.0.2:8000/metrics',
          status: 'failing',
          lastError: { kind: 'network', message: 'connect ECONNREFUSED 10.0.0.2:8000' },
          consecutiveFailures: 2,
          profile: null,
        }),
      );
      flushMetricsSummary();
    });
    const cols = screen.getAllByTestId('metrics-column');
    expect(cols.map((c) => c.getAttribute('data-target-id'))).toEqual(['builtin-sim', 'gpu-b']);
    // A has its charts; B says why it has none, with its own status and error.
    expect(cols[0]!.querySelector('[data-testid="metrics-running-chart"]')).not.toBeNull();
    expect(cols[1]!.querySelector('[data-testid="metrics-running-chart"]')).toBeNull();
    expect(cols[1]!.querySelector('[data-testid="metrics-no-data"]')!.textContent).toContain('GPU box B');
    expect(cols[1]!.querySelector('[data-testid="metrics-status"]')!.textContent).toContain('ECONNREFUSED');
    expect(screen.queryByTestId('explorer-search')).toBeNull(); // the explorer is for one target
    // Back to one target: only it is watched, and the explorer returns.
    fireEvent.change(screen.getByTestId('metrics-compare-select'), { target: { value: '' } });
    await act(async () => {});
    expect(t.calls.filter((c) => c.method === 'watchMetrics').at(-1)!.args[0]).toEqual(['builtin-sim']);
    expect(screen.queryByTestId('metrics-columns')).toBeNull();
    expect(screen.getByTestId('explorer-search')).toBeTruthy();
  });

  it('side by side: each chart has one y scale for both targets', async () => {
    addSecondTarget();
    setPanel({ compareTargetId: 'gpu-b' });
    render(<MetricsPanel chartWidth={W} />);
    await act(async () => {});
    await feed(); // A: up to 3 running
    await act(async () => {
      emitScrapes('gpu-b', { requestsRunning: 1, requestsWaiting: 0 });
      t.emit('onMetricsState', state({ targetId: 'gpu-b' }));
      flushMetricsSummary();
    });
    // The y scale as drawn: one horizontal grid line per y tick (happy-dom draws no tick labels).
    const gridYs = (col: Element) =>
      [
        ...col.querySelectorAll(
          '[data-testid="metrics-running-chart"] .recharts-cartesian-grid-horizontal line',
        ),
      ].map((e) => e.getAttribute('y1'));
    const [ca, cb] = screen.getAllByTestId('metrics-column');
    // A peaked at 3 running: ticks 0…4, five lines. B peaked at 1 but shares A's scale, so the
    // same height is the same count in both columns (alone it would have had 0…1).
    expect(gridYs(ca!)).toHaveLength(5);
    expect(gridYs(cb!)).toEqual(gridYs(ca!));
    setPanel({ compareTargetId: null });
    await act(async () => {});
    expect(screen.queryByTestId('metrics-columns')).toBeNull();
  });

  it("says when Prometheus' clock is off from ours, and by how much", async () => {
    render(<MetricsPanel chartWidth={W} />);
    await act(async () => {});
    const prom = (clockSkewMs: number) =>
      state({
        targetId: 'builtin-sim',
        source: 'prometheus',
        selector: '{job="sim"}',
        url: 'http://prom:9090/',
        clockSkewMs,
      });
    await act(async () => {
      t.emit('onMetricsState', prom(2100));
      flushMetricsSummary();
    });
    expect(screen.getByTestId('metrics-clock-skew').textContent).toMatch(/2\.1 s ahead of this machine/);
    await act(async () => {
      t.emit('onMetricsState', prom(-40)); // within a round trip: nothing to say
      flushMetricsSummary();
    });
    expect(screen.queryByTestId('metrics-clock-skew')).toBeNull();
  });

  it('searches the explorer and plots a counter as a rate', async () => {
    render(<MetricsPanel chartWidth={W} />);
    await act(async () => {});
    await feed();
    expect(screen.getAllByTestId('explorer-series-row')).toHaveLength(3);
    fireEvent.change(screen.getByTestId('explorer-search'), { target: { value: 'generation processed' } });
    const rows = screen.getAllByTestId('explorer-series-row');
    expect(rows).toHaveLength(1);
    fireEvent.click(rows[0]!);
    const chart = screen.getByTestId('explorer-chart');
    expect(chart.getAttribute('data-kind')).toBe('rate');
    expect(chart.textContent).toContain('per second');
    expect(screen.getByText('Number of generation tokens processed.')).toBeTruthy();

    fireEvent.change(screen.getByTestId('explorer-search'), { target: { value: 'first_token' } });
    fireEvent.click(screen.getAllByTestId('explorer-series-row')[0]!);
    expect(screen.getByTestId('explorer-chart').getAttribute('data-kind')).toBe('quantiles');
    fireEvent.click(screen.getByRole('button', { name: 'heatmap' }));
    expect(screen.getByTestId('explorer-chart').getAttribute('data-kind')).toBe('heatmap');
    expect(screen.getByTestId('explorer-chart').textContent).toContain('√ scale');
  });

  it('says "no observations" for an empty window instead of drawing zeros', async () => {
    useRequestStore.setState({ history: [] });
    render(<MetricsPanel chartWidth={W} />);
    await act(async () => {
      emitScrapes('builtin-sim', { ttftHistogram: ttftHist([1, 2, 2, 2, 2]) });
      flushMetricsSummary();
    });
    const card = screen.getByTestId('metrics-ttft-chart-card');
    expect(card.textContent).toContain('No observations in this window');
    expect(card.textContent).toContain('p50no obs.');
    expect(card.textContent).toContain('0 observations in the window');
    // Nothing was plotted as 0: every quantile point is a gap.
    expect(card.querySelectorAll('.recharts-line-dots circle').length).toBe(0);
  });

  it('shows a failing scrape with its error, the backoff and what to do', async () => {
    render(<MetricsPanel chartWidth={W} />);
    await act(async () => {
      t.emit(
        'onMetricsState',
        state({
          targetId: 'builtin-sim',
          status: 'failing',
          lastError: { kind: 'http', message: 'HTTP 404 Not Found', status: 404 },
          consecutiveFailures: 3,
          nextAttemptInMs: 8000,
          profile: null,
        }),
      );
      flushMetricsSummary();
    });
    const status = screen.getByTestId('metrics-status');
    expect(status.getAttribute('data-status')).toBe('failing');
    expect(status.textContent).toContain('HTTP 404 Not Found');
    expect(status.textContent).toContain('3 failures in a row');
    expect(screen.getByTestId('metrics-retry').textContent).toMatch(/retry in [78]\.\d s/);
    expect(status.textContent).toMatch(/may not expose Prometheus metrics \(Ollama/);
    // Never scraped: one message instead of empty charts.
    expect(screen.getByTestId('metrics-no-data').textContent).toContain('every scrape so far has failed');
    expect(screen.queryByTestId('metrics-running-chart')).toBeNull();
  });
});
