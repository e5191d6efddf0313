/**
 * A run's live memory does not grow with its finished requests beyond what the exact summary needs:
 * each finished request's line goes to the file and into the summary's accumulator (8 B a gap,
 * run-accumulator.ts), not into a list of lines. Measured in process after a full GC (heap plus
 * typed arrays' backing stores) at 100 and at 400 finished requests of one bounded run of 256-token
 * streams; the growth per finished request is held against a generous bound. Measured: 5.5 KB a
 * request when the runner kept its lines, 2.8 KB since (the content times, the spread of its tokens
 * and the coalesced gaps' positions; the rest follows from them). Not timing-based.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { tmpDir, workload } from '../testing/runs.ts';
import { loadPrompts } from './prompts/prompts.ts';
import { runWorkload } from './runner.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function live(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 0.5, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});
afterAll(() => sim.close());

const TOKENS = 256;

describe('live memory of a run', () => {
  it('grows by less than 4 KB per finished request of 256 tokens (the times it keeps), not by its line', async () => {
    const w = workload({
      requests: 400,
      maxConcurrency: 8,
      testRequest: false,
      prompts: { type: 'synthetic', inputLen: 8, outputLen: TOKENS },
    });
    const at = new Map<number, number>();
    await runWorkload({
      workload: w,
      target: { url: sim.url, dialect: 'openai-chat', model: 'tokenscope-sim' },
      prompts: await loadPrompts(w.prompts, w.seed, process.cwd()),
      outFile: path.join(tmpDir(), 'mem.jsonl'),
      onRequestDone: (line) => {
        const n = line.seq + 1;
        if ((n === 100 || n === 400) && !at.has(n)) at.set(n, live());
      },
    });
    expect(at.size).toBe(2);
    const perRequest = (at.get(400)! - at.get(100)!) / 300;
    // 256 content times in a Float64Array (2 KB) and the outcome's scalars; a kept line was 5.5 KB.
    expect(perRequest, `${Math.round(perRequest)} B per finished request`).toBeLessThan(4000);
  }, 120_000);
});
