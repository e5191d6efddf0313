import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireRequest } from './client.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { EV_COALESCED } from '../../shared/request.ts';
import { summarize } from '../../shared/stats/summary.ts';

// Accuracy of the per-event timestamps against the simulator's ground truth: the sim records
// performance.now() at the moment it issues each chunk's write; we compare consecutive gaps.
let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({
    port: 0,
    decodeStepMs: 20,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
    jitter: 0.5,
    seed: 3,
    groundTruth: true,
  });
});
afterAll(async () => {
  await sim.close();
});

describe('timing accuracy at low load', () => {
  it('measured gaps match the true send gaps event by event', async () => {
    const rec = await fireRequest({
      url: sim.url,
      dialect: 'openai-chat',
      model: 'tokenscope-sim',
      prompt: 'timing',
      params: { maxTokens: 70, ignoreEos: true },
      continuousUsage: true,
    });
    expect(rec.error).toBeNull();
    const truth = sim.groundTruth().filter((g) => g.requestId === rec.serverRequestId);
    // one write per event: the same count, in the same order
    expect(truth.length).toBe(rec.events.n);

    const errs: number[] = [];
    const shifted: number[] = [];
    const trueGaps: number[] = [];
    for (let i = 2; i < rec.events.n; i++) {
      if (rec.events.flags[i]! & EV_COALESCED || rec.events.flags[i - 1]! & EV_COALESCED) continue;
      const measured = rec.events.t[i]! - rec.events.t[i - 1]!;
      const actual = truth[i]!.tMs - truth[i - 1]!.tMs;
      const wrong = truth[i - 1]!.tMs - truth[i - 2]!.tMs; // off-by-one pairing
      trueGaps.push(actual);
      errs.push(Math.abs(measured - actual));
      shifted.push(Math.abs(measured - wrong));
    }
    expect(errs.length).toBeGreaterThan(55);
    const gap = summarize(trueGaps)!;
    const err = summarize(errs)!;
    const wrong = summarize(shifted)!;
    // The gaps really vary (jitter), so matching them is not trivially satisfied by a constant.
    expect(gap.std).toBeGreaterThan(3);
    // Tolerance derived from the data, not hard-coded results: the measurement error must be a
    // small fraction of the gaps' own spread, and far below what a misaligned pairing gives.
    // (p90/p99 rather than max: this machine is shared, and the sim shares our event loop.)
    expect(err.p90).toBeLessThan(gap.std / 4);
    expect(err.p99).toBeLessThan(gap.std);
    expect(err.mean * 5).toBeLessThan(wrong.mean);
    // And in absolute terms on loopback: sub-millisecond typical error.
    expect(err.median).toBeLessThan(1);
  });
});
