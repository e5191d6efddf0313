// @vitest-environment happy-dom
/**
 * The Sweep mode for an embeddings or rerank target (answered whole, no token stream): E2E against
 * the requests per second achieved (not against output tok/s, 0 at every load), the knee ringed, no
 * TTFT/ITL/TPOT switch, no per-user chart but input tok/s against the load; the steps table's own
 * columns; an overlaid token sweep left out of the latency chart with a note; the plan form's SLO
 * help for such a target.
 */
import { act, cleanup, render, screen, fireEvent } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TargetView } from '../../shared/api.ts';
import { setTransport } from '../core/api.ts';
import { useAppStore } from '../core/app-store.ts';
import { useRunsStore } from '../runs/run-store.ts';
import { defaultDraft } from '../runs/form/workload-draft.ts';
import { FakeTransport } from '../testing/fake-transport.ts';
import { poolingSweepFixture } from '../testing/pooling-sweep-fixture.ts';
import { sweepFixture } from '../testing/sweep-fixture.ts';
import { inputChart } from './pooling-chart-data.ts';
import { RunsTabSidebar } from './RunsTabSidebar.tsx';
import { colorOf, latencyChart, perUserChart } from './sweep-chart-data.ts';
import { SweepCharts } from './SweepCharts.tsx';
import { DEFAULT_PLAN, useSweepStore } from './sweep-store.ts';
import { SweepView } from './SweepView.tsx';

afterEach(() => {
  cleanup();
  setTransport(null);
});

const slo = {
  terms: 'p99_e2el_ms<=100',
  search: 'rate' as const,
  passing: { load: 40, decidedBy: 'interval' as const, runs: 1 },
  failing: { load: 50, decidedBy: 'interval' as const, runs: 1 },
  reason: 'converged' as const,
};
const emb = { id: 'e', label: 'embeddings', file: poolingSweepFixture({ slo }) };
const tok = { id: 't', label: 'chat server', file: sweepFixture() };

describe('sweep chart data of a target that answers whole', () => {
  it('latency: E2E p50/p99 against req/s whatever metric is asked, the knee at the wall', () => {
    const d = latencyChart([emb], 'ttft');
    expect(d.xLabel).toBe('req/s');
    expect(d.yLabel).toBe('E2E (ms)');
    expect(d.series.map((s) => s.name)).toEqual(['E2E p50', 'E2E p99']);
    const p99 = d.series[1]!.points;
    expect(p99.map((p) => p.x)).toEqual([10, 20, 30, 40, 40, 40]);
    expect(emb.file.knee.e2el!.stepIndex).toBe(3);
    expect(d.knees).toEqual([{ x: 40, y: 70, label: 'knee', color: colorOf(0) }]);
    expect(d.limit).toEqual({ y: 100, label: 'SLO p99_e2el <= 100 ms' });
  });

  it('input tok/s against the offered load; no per-user series', () => {
    const d = inputChart([emb]);
    expect([d.xLabel, d.yLabel]).toEqual(['offered load (req/s)', 'input tok/s']);
    expect(d.series[0]!.points.map((p) => [p.x, p.y])).toEqual([
      [10, 2600],
      [20, 5200],
      [30, 7800],
      [40, 10400],
      [50, 10400],
      [60, 10400],
    ]);
    expect(d.over).toEqual([{ x: 60, y: 10400 }]);
    expect(perUserChart([emb]).series).toEqual([]);
  });

  it('overlaid with a token sweep: each chart draws only the first sweep’s kind', () => {
    expect(latencyChart([emb, tok], 'e2el').series.map((s) => s.name)).toEqual([
      'embeddings · E2E p50',
      'embeddings · E2E p99',
    ]);
    expect(latencyChart([tok, emb], 'e2el').series.map((s) => s.name)).toEqual([
      'chat server · E2E p50',
      'chat server · E2E p99',
    ]);
    expect(perUserChart([tok, emb]).series.map((s) => s.name)).toEqual(['chat server']);
  });
});

describe('SweepCharts of a target that answers whole', () => {
  it('draws E2E vs req/s with its units and knee, the input chart, no metric switch or token chart', () => {
    render(<SweepCharts sources={[emb]} width={900} />);
    expect(screen.queryByTestId('sweep-metric-ttft')).toBeNull();
    expect(screen.queryByTestId('sweep-chart-per-user')).toBeNull();
    const lat = screen.getByTestId('sweep-chart-latency');
    expect(lat.textContent).toContain('E2E (ms)');
    expect(lat.textContent).toContain('req/s');
    expect(lat.textContent).toContain('E2E p99');
    expect(lat.textContent).toContain('SLO p99_e2el <= 100 ms');
    expect(lat.textContent).not.toMatch(/TTFT|ITL|TPOT|tok\/s/);
    expect(lat.querySelectorAll('.sweep-knee').length).toBe(1);
    expect(screen.getByText('E2E latency vs request throughput')).toBeTruthy();
    const input = screen.getByTestId('sweep-chart-input');
    expect(input.textContent).toContain('input tok/s');
    expect(input.textContent).toContain('offered load (req/s)');
    expect(screen.getByTestId('sweep-latency-hint').textContent).toMatch(/Answered whole/);
  });

  it('names an overlaid sweep of the other kind as not drawn on the latency chart', () => {
    render(<SweepCharts sources={[emb, tok]} width={900} />);
    expect(screen.getByTestId('sweep-latency-hint').textContent).toContain(
      'Not drawn here: chat server (a token stream: another x axis).',
    );
  });

  it('a token sweep keeps its charts and switch', () => {
    render(<SweepCharts sources={[tok]} width={900} />);
    expect(screen.getByTestId('sweep-metric-ttft')).toBeTruthy();
    expect(screen.getByTestId('sweep-chart-per-user')).toBeTruthy();
    expect(screen.queryByTestId('sweep-chart-input')).toBeNull();
  });
});

describe('the Sweep view and form for such a target', () => {
  it('the steps table has req/s, inputs/s, input tok/s and E2E; one knee line, against req/s', () => {
    useSweepStore.setState({ live: null, opened: [{ id: 'e', label: 'embeddings', file: emb.file }] });
    render(<SweepView />);
    const table = screen.getByTestId('sweep-table').textContent!;
    expect(table).toMatch(/req\/s\s+inputs\/s\s+in tok\/s\s+goodput\s+E2E p50\/p90\/p99/);
    expect(table).not.toMatch(/TTFT|ITL|out tok\/s|tok\/s\/user/);
    const foot = screen.getByTestId('sweep-footer').textContent!;
    expect(foot).toMatch(/^Knee \(p99 E2E vs req\/s\): step 4/);
    expect(foot).not.toMatch(/TTFT/);
    useSweepStore.setState({ opened: [] });
  });

  it('an SLO search for an embeddings target offers E2E and error-rate terms only', async () => {
    const EMB: TargetView = {
      id: 'emb',
      name: 'Embeddings',
      baseUrl: 'http://127.0.0.1:8000',
      dialect: 'openai-embeddings',
      hasApiKey: false,
      builtin: false,
    };
    setTransport(
      new FakeTransport({
        listModels: () => ({ ok: true, value: { models: ['tokenscope-sim'], source: '/v1/models' } }),
        listSweeps: () => ({ ok: true, value: { sweeps: [] } }),
      }),
    );
    useAppStore.setState({ targets: [EMB], targetsLoaded: true, selectedTargetId: 'emb' });
    useRunsStore.setState({ draft: defaultDraft(), view: { kind: 'new' }, targetId: null });
    useSweepStore.setState({ mode: 'sweep', plan: { ...DEFAULT_PLAN, kind: 'auto' }, issues: [] });
    render(<RunsTabSidebar />);
    await act(async () => {});
    fireEvent.change(screen.getByTestId('sweep-kind'), { target: { value: 'slo' } });
    const input = screen.getByTestId('sweep-slo') as HTMLInputElement;
    expect(input.placeholder).toBe('p99_e2el_ms<=200,error_rate<=0.01');
    const hint = input.closest('.field')!.querySelector('.field-hint')!.textContent!;
    expect(hint).toMatch(/^\{mean,p50,p90,p99\}_e2el_ms, error_rate/);
    expect(hint).not.toMatch(/ttft|tpot/);
  });
});
