/**
 * A sweep of an embeddings target against the simulator over real HTTP: with no first token, the
 * step's over-saturation is watched on E2E (before: nothing was watched, so no step of such a
 * target was ever over-saturated and rate auto took every rate for a good one).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimThread, type SimThreadServer } from '../../sim/thread.ts';
import { tmpDir, workload } from '../../testing/runs.ts';
import { loadPrompts } from '../prompts/prompts.ts';
import { withPoolingInputs } from '../prompts/pooling.ts';
import { runSweep } from './sweep.ts';

// The simulator's pooling model (sim/pooling.ts): a pass lasts 20 ms + 1 ms per token and takes
// what waits. A request of 17 tokens (BOS + 16) costs 17 ms of passes: under 59 req/s, however
// large the batch.
let sim: SimThreadServer;
const dir = tmpDir('tokenscope-sweep-pool-');
beforeAll(async () => {
  sim = await startSimThread({
    port: 0,
    maxNumSeqs: 4,
    decodeStepMs: 20,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 1,
  });
});
afterAll(async () => {
  await sim.close();
});

describe('runSweep of an embeddings target', () => {
  it('a rate 2× past capacity is over-saturated (and re-run to confirm); a rate well under it is judged good', async () => {
    const w = workload({ durationS: 4, rate: 1, prompts: { type: 'synthetic', inputLen: 16, outputLen: 1 } });
    const prompts = withPoolingInputs(
      await loadPrompts(w.prompts, w.seed, process.cwd()),
      'openai-embeddings',
      w.pooling,
      w.seed,
    );
    const r = await runSweep({
      workload: w,
      target: { url: sim.url, dialect: 'openai-embeddings', model: 'tokenscope-sim' },
      prompts,
      plan: { kind: 'rate', loads: [5, 120] },
      outFile: path.join(dir, 'p.json'),
      stopOverSaturated: true,
      saturation: { minMs: 1000 },
      serverMetrics: null,
    });
    const [low, high, again] = r.file.steps;
    expect(r.file.steps.map((s) => [s.load.value, s.role])).toEqual([
      [5, 'step'],
      [120, 'step'],
      [120, 'confirm'],
    ]);
    // Under capacity: judged, not over-saturated (a good rate for rate auto).
    expect(low!.saturation).toMatchObject({ judged: true, overSaturated: false });
    // The latency fit is E2E's (there is no TTFT): fitted over the step's windows.
    expect(low!.saturation!.ttft).not.toBeNull();
    expect(high!.stoppedEarly).toBe('over-saturated');
    // Requests were seen to complete (before, none were counted: never over-saturated). The re-run
    // (`again`) starts behind the stopped step's leftover queue, so its own verdict is not asserted.
    expect(high!.saturation!.queue).toMatchObject({ significant: true });
    expect(high!.saturation!.queue!.completed).toBeGreaterThan(0);
    expect(again!.role).toBe('confirm');
    expect(r.file.knee.ttft).toBeNull();
  }, 60_000);
});
