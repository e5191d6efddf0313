// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSideSummary } from '../../shared/runs/server-side-types.ts';
import { runDetail } from '../testing/run-fixture.ts';
import { clientTokens, fmtServerQuantile, mergeSteps, ServerSideCard } from './ServerSideCard.tsx';

afterEach(cleanup);

const server: ServerSideSummary = {
  source: 'scrape',
  url: 'http://127.0.0.1:8000/metrics',
  selector: null,
  profile: 'vllm-v1',
  profileName: 'vLLM (V1 engine)',
  model: 'tokenscope-sim',
  scrapes: 3,
  failures: 0,
  lastError: null,
  window: { fromMs: -5, toMs: 520 },
  peak: { running: 2, waiting: 1, kvCacheUsage: 0.0123 },
  delta: { generationTokens: 16, promptTokens: 40, preemptions: 0 },
  ttft: { count: 4, mean: 11, p50: 10, p90: 14, p99: 15 },
  queueTime: { count: 4, mean: 1, p50: 0.5, p90: 2, p99: 3 },
  e2e: { count: 4, mean: 60, p50: 55, p90: 70, p99: 75 },
  itl: null,
  series: [
    { t: -5, running: 0, waiting: 0, kvCacheUsage: 0 },
    { t: 250, running: 2, waiting: 1, kvCacheUsage: 0.01 },
    { t: 520, running: 0, waiting: 0, kvCacheUsage: 0 },
  ],
};

describe('mergeSteps', () => {
  it('carries each step function forward to the other’s points, in seconds, inside the run', () => {
    const m = mergeSteps(
      server.series,
      [
        { t: 0, inFlight: 1 },
        { t: 0.25, inFlight: 3 },
        { t: 0.4, inFlight: 0 },
      ],
      0.5,
    );
    expect(m).toEqual([
      { t: 0, running: null, waiting: null, client: 1 },
      { t: 0.25, running: 2, waiting: 1, client: 3 },
      { t: 0.4, running: 2, waiting: 1, client: 0 },
    ]);
  });
});

describe('clientTokens', () => {
  it("counts the failed requests' tokens too, and says how many", () => {
    expect(clientTokens(800, 150, 'received')).toBe('950 received (150 in failed requests)');
    expect(clientTokens(3450, 0, 'sent')).toBe('3,450 sent');
    expect(clientTokens(3450, undefined, 'sent')).toBe('3,450 sent'); // older run files
    // Failed streams rarely carry usage: their prompt tokens are the workload's estimate.
    expect(clientTokens(3450, 1920, 'sent', true)).toBe('~5,370 sent (~1,920 in failed requests, estimated)');
  });
});

describe('fmtServerQuantile', () => {
  it('the value where its bucket is narrow, the bucket where it is wide', () => {
    expect(fmtServerQuantile(90.8, [80, 100])).toBe('90.8 ms');
    // A factor-2 bucket is wide next to any value in it.
    expect(fmtServerQuantile(4583, [2500, 5000])).toBe('2.5–5 s');
    expect(fmtServerQuantile(150, [0, 300])).toBe('0–300 ms');
    expect(fmtServerQuantile(1500, [1000, 2500])).toBe('1–2.5 s');
    expect(fmtServerQuantile(12_000, [10_000, null])).toBe('> 10 s');
    expect(fmtServerQuantile(20, [10, 25])).toBe('10–25 ms');
    expect(fmtServerQuantile(700, [250, 1000])).toBe('0.25–1 s');
    expect(fmtServerQuantile(42, null)).toBe('42.0 ms');
    expect(fmtServerQuantile(null, [0, 1])).toBe('—');
  });
});

describe('ServerSideCard', () => {
  it('server and client side by side, with what only the server knows', () => {
    const d = runDetail(5);
    render(<ServerSideCard s={{ ...d.summary, server }} clientInFlight={[]} xMax={1} width={600} />);
    expect(screen.getByTestId('sum-server-gen').textContent).toMatch(/^16 vs \d+ received$/);
    expect(screen.getByTestId('sum-server-peaks').textContent).toBe('2 / 1');
    const ttft = screen.getByTestId('sum-server-ttft').textContent ?? '';
    expect(ttft).toMatch(/^TTFT410\.0 ms15\.0 ms/);
    expect(screen.getByTestId('sum-server').textContent).toMatch(/1\.2 %/);
    expect(screen.getByTestId('sum-server').textContent).not.toMatch(/NaN|undefined|Infinity/);
  });

  it('a server without metrics: says why, draws nothing', () => {
    const d = runDetail(5);
    const none = {
      ...server,
      scrapes: 0,
      failures: 3,
      window: null,
      lastError: 'HTTP 404 Not Found',
      series: [],
    };
    render(<ServerSideCard s={{ ...d.summary, server: none }} clientInFlight={[]} xMax={1} width={600} />);
    expect(screen.getByTestId('sum-server-none').textContent).toMatch(
      /No server metrics for this run: HTTP 404/,
    );
    expect(screen.queryByTestId('sum-server-chart')).toBeNull();
  });

  it('through a Prometheus slower than the run: says so, rather than a bare "no metrics"', () => {
    const d = runDetail(5);
    const once = { ...server, source: 'prometheus' as const, scrapes: 1, window: null, series: [] };
    render(<ServerSideCard s={{ ...d.summary, server: once }} clientInFlight={[]} xMax={1} width={600} />);
    expect(screen.getByTestId('sum-server-none').textContent).toMatch(
      /scrape interval is longer than the run/,
    );
  });

  it('runs without server data (imports, older files) show no card', () => {
    const d = runDetail(5);
    const { container } = render(<ServerSideCard s={d.summary} clientInFlight={[]} xMax={1} width={600} />);
    expect(container.textContent).toBe('');
  });
});
