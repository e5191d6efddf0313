// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSideSummary } from '../../../shared/runs/summary/server-side-schema.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { energyOf, serverSide, serverWithEnergy } from '../../testing/server-fixture.ts';
import { fmtJoules } from './EnergyNumbers.tsx';
import { clientTokens, fmtServerQuantile, mergeSteps, ServerSideCard } from './ServerSideCard.tsx';

afterEach(cleanup);

const server: ServerSideSummary = serverSide;

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

  it("GPU energy under the server's numbers: per output token, in all, mean power, GPUs, method", () => {
    const d = runDetail(5);
    const sv = serverWithEnergy(energyOf(130, 400, 'mixed'));
    render(<ServerSideCard s={{ ...d.summary, server: sv }} clientInFlight={[]} xMax={1} width={600} />);
    expect(screen.getByTestId('sum-energy-per-token').textContent).toBe('0.325 J over 400 tokens');
    expect(screen.getByTestId('sum-energy-total').textContent).toBe('130 J · 2 GPUs');
    expect(screen.getByTestId('sum-energy-power').textContent).toBe('260 W all GPUs together');
    expect(screen.getByTestId('sum-energy-method').textContent).toBe(
      'energy counters, power integrated where a GPU had none',
    );
    expect(screen.getByTestId('sum-energy').getAttribute('title')).toMatch(
      /from -0\.0 s to 0\.5 s of the run/,
    );
    // Beside the server's own numbers, in the same card.
    expect(screen.getByTestId('sum-server').contains(screen.getByTestId('sum-energy'))).toBe(true);
    expect(screen.getByTestId('sum-server').textContent).not.toMatch(/NaN|undefined|Infinity/);
  });

  it('one GPU with only power: said so; no tokens: no per-token figure', () => {
    const d = runDetail(5);
    const e = { ...energyOf(50, 100, 'integrated-power'), gpus: 1, outputTokens: null, joulesPerToken: null };
    render(
      <ServerSideCard
        s={{ ...d.summary, server: serverWithEnergy(e) }}
        clientInFlight={[]}
        xMax={1}
        width={600}
      />,
    );
    expect(screen.getByTestId('sum-energy-per-token').textContent).toBe('—');
    expect(screen.getByTestId('sum-energy-total').textContent).toBe('50 J · 1 GPU');
    expect(screen.getByTestId('sum-energy-method').textContent).toBe(
      'power integrated over scrapes, no energy counter',
    );
  });

  it('telemetry that failed says why; a target without telemetry shows no energy at all', () => {
    const d = runDetail(5);
    const failed = serverWithEnergy(null, 'HTTP 404 Not Found');
    const { unmount } = render(
      <ServerSideCard s={{ ...d.summary, server: failed }} clientInFlight={[]} xMax={1} width={600} />,
    );
    expect(screen.getByTestId('sum-energy-none').textContent).toBe(
      'No GPU energy for this run: http://127.0.0.1:9400/metrics: HTTP 404 Not Found.',
    );
    expect(screen.queryByTestId('sum-energy')).toBeNull();
    unmount();
    render(<ServerSideCard s={{ ...d.summary, server }} clientInFlight={[]} xMax={1} width={600} />);
    expect(screen.queryByTestId('sum-energy')).toBeNull();
    expect(screen.queryByTestId('sum-energy-none')).toBeNull();
  });

  it("a server without metrics still shows its GPUs' energy (telemetry is read apart)", () => {
    const d = runDetail(5);
    const none = { ...serverWithEnergy(energyOf(10, 20)), scrapes: 0, failures: 3, window: null, series: [] };
    render(<ServerSideCard s={{ ...d.summary, server: none }} clientInFlight={[]} xMax={1} width={600} />);
    expect(screen.getByTestId('sum-server-none')).toBeTruthy();
    expect(screen.getByTestId('sum-energy-per-token').textContent).toBe('0.5 J over 20 tokens');
  });

  it('runs without server data (imports, older files) show no card', () => {
    const d = runDetail(5);
    const { container } = render(<ServerSideCard s={d.summary} clientInFlight={[]} xMax={1} width={600} />);
    expect(container.textContent).toBe('');
  });
});

describe('fmtJoules', () => {
  it('three figures, kJ and MJ past ten thousand joules', () => {
    expect(fmtJoules(0.35214)).toBe('0.352 J');
    expect(fmtJoules(0.0042)).toBe('0.0042 J');
    expect(fmtJoules(41.66)).toBe('41.7 J');
    expect(fmtJoules(1234.5)).toBe('1,235 J');
    expect(fmtJoules(12_345)).toBe('12.3 kJ');
    expect(fmtJoules(4_560_000)).toBe('4.56 MJ');
    expect(fmtJoules(0)).toBe('0 J');
    expect(fmtJoules(null)).toBe('—');
    expect(fmtJoules(Number.NaN)).toBe('—');
  });
});

describe('per role (a disaggregated deployment)', () => {
  const role = (
    r: 'server' | 'decode',
    exposed: boolean,
  ): NonNullable<ServerSideSummary['roles']>[number] => ({
    role: r,
    url: `http://127.0.0.1/${r}`,
    profile: exposed ? 'sglang-pd' : 'vllm-v1',
    profileName: exposed ? 'SGLang (prefill/decode disaggregated)' : 'vLLM (V1 engine)',
    scrapes: 4,
    failures: 0,
    lastError: null,
    window: { fromMs: -5, toMs: 1000 },
    queues: {
      waiting: { mean: 0.5, max: 2, samples: 3 },
      prefillPrealloc: null,
      prefillInflight: null,
      decodePrealloc: exposed ? { mean: 0, max: 0, samples: 3 } : null,
      decodeTransfer: exposed ? { mean: 1.25, max: 3, samples: 3 } : null,
    },
    kvTransfer: exposed
      ? {
          source: 'histogram',
          count: 24,
          mean: 151.2,
          p50: 150.1,
          p90: 160.3,
          p99: 170.2,
          p50Bucket: null,
          p99Bucket: null,
        }
      : null,
  });

  it("shows each role's queues and KV-transfer time, and 'not exposed' where a server has none", () => {
    const d = runDetail(5);
    const sv = { ...server, roles: [role('server', false), role('decode', true)] };
    render(<ServerSideCard s={{ ...d.summary, server: sv }} clientInFlight={[]} xMax={1} width={600} />);
    const cells = (id: string) =>
      Array.from(screen.getByTestId(id).querySelectorAll('td')).map((c) => c.textContent);
    expect(cells('sum-role-queue-decodeTransfer')).toEqual(['not exposed', '1.25 / 3']);
    expect(cells('sum-role-queue-decodePrealloc')).toEqual(['not exposed', '0.00 / 0']);
    expect(cells('sum-role-kv-transfer')).toEqual([
      'not exposed',
      '150.10 / 160.30 / 170.20  (mean 151.20, 24 transfers)',
    ]);
  });

  it('nothing per role when the run had none', () => {
    const d = runDetail(5);
    render(<ServerSideCard s={{ ...d.summary, server }} clientInFlight={[]} xMax={1} width={600} />);
    expect(screen.queryByTestId('sum-roles')).toBeNull();
  });
});
