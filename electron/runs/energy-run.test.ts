/**
 * Joules per output token end to end: a bounded run against the simulator with two synthetic
 * GPUs (/gpu-metrics, dcgm-exporter format) gets the energy the simulator integrated over the run,
 * divided by the tokens it generated — from the energy counter, and from integrated power when
 * the GPUs publish none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim } from '../sim/index.ts';
import type { SimHttpServer } from '../sim/server.ts';
import { runAgainst } from '../testing/runs.ts';

const WORKLOAD = {
  requests: 12,
  maxConcurrency: 6,
  // No request before the clock: the simulator's joules before and after are the run's alone.
  testRequest: false,
  prompts: { type: 'synthetic' as const, inputLen: 16, outputLen: 40 },
};

let sim: SimHttpServer | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function measured(gpuEnergyCounter: boolean, intervalMs: number) {
  sim = (await startSim({ decodeStepMs: 10, maxNumSeqs: 4, gpus: 2, gpuEnergyCounter })) as SimHttpServer;
  const before = sim.state().gpuEnergyJ!;
  const r = await runAgainst(sim, WORKLOAD, {
    serverMetrics: { url: sim.url, intervalMs },
    telemetryUrls: [`${sim.url}/gpu-metrics`],
  });
  const truth = sim.state().gpuEnergyJ! - before;
  return { r, truth, e: r.summary.server!.energy! };
}

describe('energy per output token over a run', () => {
  it("from the GPUs' energy counters: the simulator's joules over the run / its tokens", async () => {
    const { r, truth, e } = await measured(true, 1000);
    const tokens = r.summary.vllm.total_output_tokens;
    expect(tokens).toBe(12 * 40);
    expect(e.method).toBe('counter');
    expect(e.gpus).toBe(2);
    expect(e.outputTokens).toBe(tokens);
    // The truth is read just before and after the run, the window between scrapes inside that:
    // the difference is idle power for a few ms (2 GPUs x 72 W), well under 2 %.
    expect(e.joules).toBeLessThanOrEqual(truth + 1e-6);
    expect(e.joules).toBeGreaterThan(truth * 0.98);
    expect(e.joulesPerToken).toBeCloseTo(e.joules / tokens, 9);
    expect(e.joulesPerToken!).toBeGreaterThan(0);
    expect(e.windowMs.fromMs).toBeLessThanOrEqual(0);
    expect(e.peakUtilPct).toBeGreaterThan(0);
    expect(r.summary.server!.telemetry).toEqual([{ url: `${sim!.url}/gpu-metrics`, error: null }]);
  }, 30_000);

  it('without a counter: power integrated over the scrapes, and the summary says so', async () => {
    const { truth, e } = await measured(false, 100);
    expect(e.method).toBe('integrated-power');
    expect(e.gpus).toBe(2);
    // Trapezoids over 100 ms scrapes of a load that steps between batches: within 15 %.
    expect(Math.abs(e.joules - truth) / truth).toBeLessThan(0.15);
  }, 30_000);
});
