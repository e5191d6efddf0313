/**
 * Joules per output token end to end: a bounded run against the simulator with two synthetic
 * GPUs (/gpu-metrics, dcgm-exporter format) gets the energy the simulator integrated over the run,
 * divided by the tokens it generated — from the energy counter, and from integrated power when
 * the GPUs publish none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim } from '../sim/index.ts';
import type { SimHttpServer } from '../sim/server.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareRows } from '../../shared/runs/compare/compare.ts';
import { summaryText } from '../../shared/runs/summary/text.ts';
import { runAgainst } from '../testing/runs.ts';
import { readRunFile } from './files/run-file.ts';

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

async function measured(gpuEnergyCounter: boolean, intervalMs: number, outFile?: string) {
  sim = (await startSim({ decodeStepMs: 10, maxNumSeqs: 4, gpus: 2, gpuEnergyCounter })) as SimHttpServer;
  const before = sim.state().gpuEnergyJ!;
  const startMs = performance.now();
  const r = await runAgainst(sim, WORKLOAD, {
    serverMetrics: { url: sim.url, intervalMs },
    telemetryUrls: [`${sim.url}/gpu-metrics`],
    ...(outFile ? { outFile } : {}),
  });
  const elapsedS = (performance.now() - startMs) / 1000;
  const truth = sim.state().gpuEnergyJ! - before;
  const e = r.summary.server!.energy!;
  // Outside the window (setting up the run, after its last scrape) the GPUs idle: the simulator's
  // joules over the window alone are its total less idle power for that time.
  const idleW = sim.gpus!.powerW(0, 0) + sim.gpus!.powerW(1, 0);
  const inWindow = truth - idleW * (elapsedS - (e.windowMs.toMs - e.windowMs.fromMs) / 1000);
  return { r, truth, inWindow, e };
}

describe('energy per output token over a run', () => {
  it("from the GPUs' energy counters: the simulator's joules over the run / its tokens", async () => {
    const { r, truth, inWindow, e } = await measured(true, 1000);
    const tokens = r.summary.vllm.total_output_tokens;
    expect(tokens).toBe(12 * 40);
    expect(e.method).toBe('counter');
    expect(e.gpus).toBe(2);
    expect(e.outputTokens).toBe(tokens);
    // Read from the counters over the window, equal to what the simulator integrated over it.
    expect(e.joules).toBeLessThanOrEqual(truth + 1e-6);
    expect(Math.abs(e.joules - inWindow) / inWindow).toBeLessThan(0.001);
    expect(e.joulesPerToken).toBeCloseTo(e.joules / tokens, 9);
    expect(e.joulesPerToken!).toBeGreaterThan(0);
    expect(e.windowMs.fromMs).toBeLessThanOrEqual(0);
    expect(e.peakUtilPct).toBeGreaterThan(0);
    expect(r.summary.server!.telemetry).toEqual([{ url: `${sim!.url}/gpu-metrics`, error: null }]);
  }, 30_000);

  it('kept in the run file, said in the summary text, compared across runs', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ts-energy-'));
    try {
      const file = path.join(dir, 'run.jsonl');
      const { e } = await measured(true, 1000, file);
      const back = await readRunFile(file);
      expect(back.ok).toBe(true);
      const summary = back.ok ? back.value.summary : null;
      expect(back.ok && back.value.damage).toBeNull();
      expect(summary!.server!.energy).toEqual(e);
      const text = summaryText(summary!);
      expect(text).toMatch(/GPU energy \(J, 2 GPUs\):\s+[\d.]+ \(energy counter\)/);
      expect(text).toContain(`Energy per output token (J):`);
      expect(text).toContain(e.joulesPerToken!.toFixed(4));
      const halved = structuredClone(summary!);
      halved.server!.energy!.joulesPerToken = e.joulesPerToken! / 2;
      const row = compareRows([summary!, halved]).find((r) => r.def.id === 'gpu-j-per-token')!;
      expect(row.values).toEqual([e.joulesPerToken, e.joulesPerToken! / 2]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('without a counter: power integrated over the scrapes, and the summary says so', async () => {
    const { inWindow, e } = await measured(false, 100);
    expect(e.method).toBe('integrated-power');
    expect(e.gpus).toBe(2);
    // Trapezoids over 100 ms scrapes of a load that steps between batches: within 15 %.
    expect(Math.abs(e.joules - inWindow) / inWindow).toBeLessThan(0.15);
  }, 30_000);
});
