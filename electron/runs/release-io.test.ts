/**
 * RunOptions.releaseIo (the CLI's last run): once the last request has ended and the I/O threads'
 * loop figures are read, the threads end before the summary is built, so a run's end (the
 * summary's pools and lists) does not add to their memory (BENCHMARKS.md: 1 M-chunk peak). The
 * next use of the engine starts a new one; a run without it keeps the process's engine and its
 * threads (the app's case: they are warm for the next stream).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from '../engine/io/io-engine.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { runAgainst } from '../testing/runs.ts';
import { LineSink } from './line-sink.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});
afterAll(() => sim.close());

const input = {
  requests: 12,
  maxConcurrency: 4,
  testRequest: false,
  prompts: { type: 'synthetic' as const, inputLen: 8, outputLen: 16 },
};

describe('the I/O threads at the end of a run', () => {
  it('end before the summary when the process sends nothing more, after their figures are read', async () => {
    const engine = io();
    await engine.ready();
    expect(engine.mode.threads).toBeGreaterThan(0);
    const seen: number[] = [];
    const original = LineSink.prototype.summary;
    LineSink.prototype.summary = function (this: LineSink, ...args: Parameters<LineSink['summary']>) {
      seen.push(engine.mode.threads);
      return original.apply(this, args);
    };
    try {
      const r = await runAgainst(sim, input, { releaseIo: true });
      expect(seen).toEqual([0]);
      expect(r.summary.vllm.completed).toBe(12);
      // The loop figures were read from the threads before they ended: at least a read a request
      // (a read can hold several chunks, so not one per token).
      expect(r.summary.selfCheck?.io?.reads).toBeGreaterThanOrEqual(12);
    } finally {
      LineSink.prototype.summary = original;
    }
    // The next use starts a new engine with the same configuration; requests run on its threads.
    const next = io();
    expect(next).not.toBe(engine);
    const again = await runAgainst(sim, input);
    expect(again.summary.vllm.completed).toBe(12);
    expect(next.mode.threads).toBe(engine.threadCount);
  }, 60_000);

  it('stay for the next run otherwise', async () => {
    const engine = io();
    await runAgainst(sim, input);
    expect(io()).toBe(engine);
    expect(engine.mode.threads).toBe(engine.threadCount);
  }, 60_000);
});
