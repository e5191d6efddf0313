/**
 * `rate auto` against the simulator, whose capacity is known from its configuration: the sweep must
 * climb to within 10 % of it in every seed (no early stop on a small rise, the refinement between
 * the last good and the first over-saturated rate) without calling an over-saturated rate good,
 * and the knee must not be the rate-inf ceiling.
 *
 * An acceptance test, run on demand (TOKENSCOPE_SWEEP_ACCEPTANCE=1; about a minute): it needs a
 * machine that can keep 50 req/s and a simulator's 10-ms steps on time. On a heavily shared one
 * (load 15 on 2 cores) the measuring thread, which runs at nice 10, samples too seldom and the
 * simulator's steps run up to 2× late, and the sweep measures that machine, not the model. The
 * rules it exercises are tested deterministically in shared/runs/sweep/auto.test.ts (the plan),
 * shared/runs/sweep/saturation.test.ts (the verdict) and shared/runs/sweep/curves.test.ts (the knee).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateVerdicts } from '../../../shared/runs/sweep/auto.ts';
import type { SweepFile } from '../../../shared/runs/sweep/file.ts';
import { startSimThread, type SimThreadServer } from '../../sim/thread.ts';
import { tmpDir, workload } from '../../testing/runs.ts';
import { metricValue } from '../../testing/sim.ts';
import { loadPrompts } from '../prompts/prompts.ts';
import { runSweep } from './sweep.ts';

// The simulator's model (sim/scheduler.ts): S slots; every step takes D ms (no per-sequence or
// prefill cost here); a request holds its slot for L steps (its first token comes from the step
// that admits it, the next L − 1 from the steps after). So it serves at most S / (L·D) requests
// per second: 4 / (8 × 10 ms) = 50 req/s — few enough that a busy client still offers them.
// Steps of 1 s: a sweep takes ~15 s, two at a time.
const S = 4;
const D = 10;
const L = 8;
const SEEDS = 10;
// Two sweeps at a time, each against its own simulator thread: half the wall time.
const LANES = 2;
let sims: SimThreadServer[] = [];
const dir = tmpDir('tokenscope-sweep-auto-');

type Gaps = { sum: number; count: number };

/** A simulator's token gaps so far: their sum (s) and count (every gap is one of its steps). */
async function gaps(sim: SimThreadServer): Promise<Gaps> {
  const m = await (await fetch(`${sim.url}/metrics`)).text();
  return {
    sum: metricValue(m, 'vllm:inter_token_latency_seconds_sum'),
    count: metricValue(m, 'vllm:inter_token_latency_seconds_count'),
  };
}

/**
 * The capacity at the step time the simulator actually ran during one sweep (on a busy machine its
 * timers run late, and a late step is not caught up: the capacity is what it really was).
 */
function capacityOf(before: Gaps, after: Gaps): number {
  const dEff = ((after.sum - before.sum) / (after.count - before.count)) * 1000;
  expect(dEff).toBeGreaterThanOrEqual(D * 0.99);
  return S / ((L * dEff) / 1000);
}

async function sweepOnce(sim: SimThreadServer, seed: number): Promise<{ file: SweepFile; capacity: number }> {
  // Every step lasts its duration: the baseline and the ceiling are closed loops (1 and 32
  // concurrent: the ceiling keeps the 4 slots full), the rates open loops whose queue builds in
  // the simulator (the cap is above what a step can queue), where TTFT sees it.
  const w = workload({
    durationS: 1,
    maxConcurrency: 32,
    seed,
    testRequest: false,
    prompts: { type: 'synthetic', inputLen: 8, outputLen: L },
  });
  const before = await gaps(sim);
  const r = await runSweep({
    workload: w,
    target: { url: sim.url, dialect: 'openai-chat', model: 'tokenscope-sim' },
    prompts: await loadPrompts(w.prompts, w.seed, process.cwd()),
    plan: { kind: 'rate-auto', steps: 3, refine: 3 },
    outFile: path.join(dir, `auto-${seed}.json`),
    stopOverSaturated: true,
    // Steps of under a second: judged from 0.4 s on, as the default 3 s is to a step of several.
    saturation: { minMs: 400 },
    serverMetrics: null,
  });
  return { file: r.file, capacity: capacityOf(before, await gaps(sim)) };
}

describe.runIf(process.env.TOKENSCOPE_SWEEP_ACCEPTANCE === '1')('rate auto on the simulator', () => {
  beforeAll(async () => {
    sims = await Promise.all(
      Array.from({ length: LANES }, () =>
        startSimThread({
          port: 0,
          maxNumSeqs: S,
          decodeStepMs: D,
          decodeStepPerSeqMs: 0,
          prefillMsPerToken: 0,
        }),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.close()));
  });

  it(`reaches ≥ 90 % of the simulator's capacity in ${SEEDS} of ${SEEDS} seeds; the knee is a finite rate`, async () => {
    const reached: string[] = [];
    let all = true;
    const lane = async (l: number): Promise<void> => {
      for (let seed = l + 1; seed <= SEEDS; seed += LANES) {
        const { file: f, capacity: c } = await sweepOnce(sims[l]!, seed);
        // The highest rate the sweep found good: judged, and not over-saturated.
        const top = Math.max(0, ...rateVerdicts(f.steps).good);
        const trail = f.steps
          .map(
            (s) =>
              `${s.role[0]}${s.load.value === 'inf' ? 'inf' : Math.round(Number(s.load.value))}${s.stoppedEarly ? '!' : ''}`,
          )
          .join(' ');
        reached.push(`seed ${seed}: ${((top / c) * 100).toFixed(1)} % of ${c.toFixed(1)} req/s [${trail}]`);
        // Within 10 % of capacity, and not blind to over-saturation either.
        if (top < 0.9 * c || top > 1.3 * c) all = false;
        // The knee is on the finite steps, never the throughput step.
        for (const k of [f.knee.ttft, f.knee.e2el]) {
          if (!k) continue;
          const s = f.steps.find((x) => x.index === k.stepIndex)!;
          expect(s.role).not.toBe('ceiling');
          expect(s.load.value).not.toBe('inf');
        }
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, l) => lane(l)));
    expect(all, reached.join('\n')).toBe(true);
  }, 300_000);
});
