/**
 * Sweeps against the simulator over real HTTP: the SLO search lands on a capacity derived from the
 * simulator's model, and an over-saturated step is stopped, confirmed by a re-run, and ends the climb.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSweepFile } from '../../../shared/runs/sweep/file.ts';
import { parseSlo } from '../../../shared/runs/sweep/slo.ts';
import { stepRow } from '../../../shared/runs/sweep/text.ts';
import { startSimThread, type SimThreadServer } from '../../sim/thread.ts';
import { tmpDir, workload } from '../../testing/runs.ts';
import { metricValue } from '../../testing/sim.ts';
import { loadPrompts } from '../prompts/prompts.ts';
import { readRunFile } from '../files/run-file.ts';
import { defaultMinMs } from './step-run.ts';
import { runSweep, stepFileOf, type SweepOptions } from './sweep.ts';

// The simulator's model (sim/scheduler.ts): S slots; every step takes D ms (no per-sequence or
// prefill cost here); a request holds its slot for L steps (its first token comes from the step
// that admits it). So it serves at most λ* = S / (L·D) requests per second: 50 at D = 10 ms.
const S = 4;
const D = 10;
const L = 8;
// In its own thread, as in the app: the simulator's step clock must not wait on the runner's work.
let sim: SimThreadServer;
const dir = tmpDir('tokenscope-sweep-');

beforeAll(async () => {
  sim = await startSimThread({
    port: 0,
    maxNumSeqs: S,
    decodeStepMs: D,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
  });
});
afterAll(async () => {
  await sim.close();
});

async function options(
  input: Parameters<typeof workload>[0],
  over: Partial<SweepOptions>,
): Promise<SweepOptions> {
  const w = workload(input);
  return {
    workload: w,
    target: { url: sim.url, dialect: 'openai-chat', model: 'tokenscope-sim' },
    prompts: await loadPrompts(w.prompts, w.seed, process.cwd()),
    plan: { kind: 'rate', loads: [1] },
    outFile: path.join(dir, 'x.json'),
    stopOverSaturated: true,
    ...over,
  };
}

describe('runSweep on the simulator', () => {
  it('SLO search: lands within 5 % of the rate where p99 TTFT crosses the limit, in ≤ 8 steps', async () => {
    const N = 80;
    const H = 60; // p99 TTFT limit, ms
    const terms = parseSlo(`p99_ttft_ms<=${H}`);
    if (!terms.ok) throw new Error(terms.error);
    const out = path.join(dir, 'slo.json');
    const r = await runSweep(
      await options(
        {
          requests: N,
          arrival: 'constant',
          rate: 1,
          prompts: { type: 'synthetic', inputLen: 8, outputLen: L },
        },
        {
          outFile: out,
          plan: {
            kind: 'slo-search',
            terms: terms.value,
            termsText: `p99_ttft_ms<=${H}`,
            search: 'rate',
            maxSteps: 8,
            precision: 0.05,
            maxRuns: 2,
          },
          serverMetrics: null,
        },
      ),
    );
    // The step time the simulator actually ran at (its own ITL histogram: every token gap is one
    // step; on a loaded machine its timers run a little late), in the model's capacity.
    const metrics = await (await fetch(`${sim.url}/metrics`)).text();
    const dEff =
      (metricValue(metrics, 'vllm:inter_token_latency_seconds_sum') /
        metricValue(metrics, 'vllm:inter_token_latency_seconds_count')) *
      1000;
    expect(dEff).toBeGreaterThanOrEqual(D * 0.99);
    const capacity = S / ((L * dEff) / 1000);
    // Constant arrivals at λ > λ*: request i waits ≈ i·(1/λ* − 1/λ) for a slot, plus ~1.5 steps
    // (the next step boundary, then the step that makes its first token). numpy's p99 over N is
    // request 0.99·(N − 1), so p99 TTFT = H at λc = 1 / (1/λ* − (H − 1.5·D) / (0.99·(N − 1)) / 1000).
    const lambdaC = 1 / (1 / capacity - (H - 1.5 * dEff) / (0.99 * (N - 1)) / 1000);
    const slo = r.file.slo!;
    expect(r.file.steps.length).toBeLessThanOrEqual(8);
    expect(r.file.steps[0]!.role).toBe('ceiling');
    // The ceiling step measures the capacity.
    expect(Math.abs(r.file.steps[0]!.numbers.requestsPerS - capacity) / capacity).toBeLessThan(0.1);
    expect(
      slo.passing,
      JSON.stringify(r.file.steps.map((s) => [s.load.value, s.slo?.verdict])),
    ).not.toBeNull();
    expect(Math.abs(slo.passing!.load - lambdaC) / lambdaC).toBeLessThanOrEqual(0.05);
    expect(slo.failing).not.toBeNull();
    expect(Math.abs(slo.failing!.load - lambdaC) / lambdaC).toBeLessThanOrEqual(0.05);
    expect(slo.failing!.load).toBeGreaterThan(slo.passing!.load);
    // The file on disk is the same sweep, valid, and every step's run file is a run file.
    const parsed = parseSweepFile(JSON.parse(await readFile(out, 'utf8')));
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.value.slo).toEqual(slo);
    for (const s of parsed.value.steps) {
      const run = await readRunFile(path.join(dir, s.runFile!));
      expect(run.ok).toBe(true);
      if (s.role === 'search') expect(s.slo!.checks[0]!.ci).not.toBeNull();
    }
    expect(parsed.value.steps[1]!.runFile).toBe(path.basename(stepFileOf(out, 2)));
  }, 90_000);

  it('over-saturation stops the step early and the sweep goes no higher', async () => {
    const out = path.join(dir, 'sat.json');
    const r = await runSweep(
      await options(
        { durationS: 1.6, rate: 1, prompts: { type: 'synthetic', inputLen: 8, outputLen: L } },
        {
          outFile: out,
          plan: { kind: 'rate', loads: [200, 20, 150] },
          saturation: { minMs: 800 },
          serverMetrics: null,
        },
      ),
    );
    // The over-saturated step is run again to confirm before the climb stops.
    expect(r.file.steps.map((s) => [s.load.value, s.role])).toEqual([
      [20, 'step'],
      [150, 'step'],
      [150, 'confirm'],
    ]);
    const [calm, over, again] = r.file.steps;
    expect(calm!.stoppedEarly).toBeNull();
    expect(calm!.saturation!.overSaturated).toBe(false);
    expect(over!.stoppedEarly).toBe('over-saturated');
    expect(over!.saturation!.overSaturated).toBe(true);
    expect(over!.saturation!.atMs).toBeLessThan(1600);
    expect(over!.saturation!.ttft!.significant && over!.saturation!.queue!.significant).toBe(true);
    expect(over!.saturation!.queue!.growth).toBeGreaterThan(over!.saturation!.queue!.tolerance);
    // The verdict explains itself where the CLI prints the step.
    expect(stepRow(over!)).toMatch(
      /OVER-SATURATED: stopped early; \d+ arrived, \d+ done in [\d.]+ s: queue \+\d+ \(noise ±[\d.]+\)/,
    );
    expect(again!.stoppedEarly).toBe('over-saturated');
    expect(r.file.stopped).toEqual({ reason: 'over-saturated', atStep: 2 });
  }, 60_000);

  it('a step is judged from 3 s on, or from half its arrivals when they take less', () => {
    const w = (o: Parameters<typeof workload>[0]) =>
      workload({ prompts: { type: 'synthetic' }, rate: 40, ...o });
    expect(defaultMinMs(w({ requests: 100 }), 10)).toBe(3000); // 10 s of arrivals
    expect(defaultMinMs(w({ requests: 100 }), 40)).toBe(1250); // 2.5 s
    expect(defaultMinMs(w({ durationS: 1 }), 40)).toBe(500);
    expect(defaultMinMs(w({ requests: 1000, durationS: 2 }), 40)).toBe(1000);
  });
});
