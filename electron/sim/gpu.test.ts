import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheus } from '../../shared/metrics/prom-parse.ts';
import { readTelemetry } from '../../shared/metrics/telemetry.ts';
import { SimGpus } from './gpu.ts';
import { startSim } from './index.ts';
import type { SimHttpServer } from './server.ts';

describe('SimGpus', () => {
  it('integrates power exactly between load changes; the counter is mJ', () => {
    const g = new SimGpus({ gpus: 2, energyCounter: true }, 0);
    g.load(0.5, 0.2, 1000); // 1 s idle
    g.load(1, 0.4, 3000); // 2 s at half occupancy
    const e = g.energyJ(4000); // 1 s full
    const p = (i: number, occ: number) => g.powerW(i, occ);
    const want = [0, 1].reduce((a, i) => a + p(i, 0) * 1 + p(i, 0.5) * 2 + p(i, 1) * 1, 0);
    expect(e).toBeCloseTo(want, 9);
    const t = readTelemetry(parsePrometheus(g.render(4000)));
    expect(t.exporter).toBe('dcgm');
    expect(t.gpus).toHaveLength(2);
    const fromCounter = t.gpus.reduce((a, x) => a + (x.energyJ ?? 0), 0);
    expect(Math.abs(fromCounter - want)).toBeLessThan(0.002); // floored to whole mJ per GPU
    expect(t.gpus[0]!.powerW).toBeCloseTo(p(0, 1), 6);
    expect(t.gpus[0]!.utilPct).toBe(100);
    expect(t.gpus[1]!.powerW).toBeLessThan(t.gpus[0]!.powerW!);
  });

  it('idle GPUs: no utilization, idle power; no counter when asked', () => {
    const g = new SimGpus({ gpus: 1, energyCounter: false }, 0);
    const t = readTelemetry(parsePrometheus(g.render(10)));
    expect(t.gpus[0]).toMatchObject({ utilPct: 0, energyJ: null });
    expect(t.gpus[0]!.powerW).toBeGreaterThan(0);
  });
});

describe('GET /gpu-metrics', () => {
  let sim: SimHttpServer;
  beforeAll(async () => {
    sim = (await startSim({ gpus: 2, decodeStepMs: 5 })) as SimHttpServer;
  });
  afterAll(() => sim.close());

  it('serves DCGM-format metrics whose utilization follows the batch', async () => {
    const idle = readTelemetry(parsePrometheus(await (await fetch(`${sim.url}/gpu-metrics`)).text()));
    expect(idle.gpus.map((g) => g.utilPct)).toEqual([0, 0]);
    const body = { model: 'tokenscope-sim', prompt: 'x', max_tokens: 200, stream: true };
    const streams = Array.from({ length: 8 }, () =>
      fetch(`${sim.url}/v1/completions`, { method: 'POST', body: JSON.stringify(body) }),
    );
    const res = await Promise.all(streams);
    const busy = readTelemetry(parsePrometheus(await (await fetch(`${sim.url}/gpu-metrics`)).text()));
    await Promise.all(res.map((r) => r.text()));
    expect(busy.gpus[0]!.utilPct).toBeGreaterThan(0);
    expect(busy.gpus[0]!.powerW).toBeGreaterThan(idle.gpus[0]!.powerW!);
    expect(sim.state().gpuEnergyJ).toBeGreaterThan(0);
  });
});
