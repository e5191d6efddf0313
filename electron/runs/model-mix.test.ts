/**
 * A model mix against the simulator serving two names at different speeds (sim --extra-model):
 * every line names the model it went to, the same seed sends the same model to the same request,
 * the summary's by-model rows hold each model's own numbers (the fast one's ITL lower), they add
 * up to the run's, and a reopened run file gives the same rows.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { npPercentile, runAgainst, tmpDir } from '../testing/runs.ts';
import { readRunFile } from './files/run-file.ts';
import { summarizeRunLines } from '../../shared/runs/summary/summarize-run.ts';
import type { WorkloadInput } from '../../shared/runs/workload/workload.ts';

const SLOW_STEP_MS = 40;
const SPEEDUP = 5; // the adapter's steps: 8 ms
let sim: SimServer;

beforeAll(async () => {
  sim = await startSim({
    port: 0,
    model: 'base',
    extraModels: [{ name: 'lora-fast', speedup: SPEEDUP }],
    decodeStepMs: SLOW_STEP_MS,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
  });
});
afterAll(async () => {
  await sim.close();
});

const MIX: WorkloadInput = {
  requests: 24,
  maxConcurrency: 6,
  seed: 11,
  testRequest: true,
  prompts: { type: 'synthetic', inputLen: 32, outputLen: 10 },
  models: [
    { name: 'base', weight: 1 },
    { name: 'lora-fast', weight: 1 },
  ],
};

describe('a model mix against the simulator', () => {
  let r: Awaited<ReturnType<typeof runAgainst>>;
  let file: string;
  beforeAll(async () => {
    file = path.join(tmpDir(), 'mix.jsonl');
    r = await runAgainst(sim, MIX, { outFile: file });
  }, 60_000);

  it('names each request’s model on its line, both models used, every request answered', () => {
    expect(r.lines).toHaveLength(24);
    expect(r.lines.every((l) => l.status === 'ok')).toBe(true);
    const names = new Set(r.lines.map((l) => l.model));
    expect([...names].sort()).toEqual(['base', 'lora-fast']);
  });

  it('the same seed sends the same model to the same request', async () => {
    const again = await runAgainst(sim, { ...MIX, maxConcurrency: 3 });
    const bySeq = (ls: typeof r.lines) =>
      ls.map((l) => [l.seq, l.model] as const).sort((a, b) => a[0] - b[0]);
    expect(bySeq(again.lines)).toEqual(bySeq(r.lines));
    const other = await runAgainst(sim, { ...MIX, seed: 12 });
    expect(bySeq(other.lines)).not.toEqual(bySeq(r.lines));
  }, 60_000);

  it('breaks the numbers down by model, in the mix order, from each model’s own lines', () => {
    const rows = r.summary.byModel!;
    expect(rows.map((x) => x.model)).toEqual(['base', 'lora-fast']);
    for (const row of rows) {
      const mine = r.lines.filter((l) => l.model === row.model);
      expect(row.requests).toBe(mine.length);
      expect(row.failed).toBe(0);
      expect(row.share).toBeCloseTo(mine.length / 24, 9);
      expect(row.ttft!.median).toBeCloseTo(
        npPercentile(
          mine.map((l) => l.ttftMs!),
          50,
        ),
        6,
      );
      expect(row.e2el!.p99).toBeCloseTo(
        npPercentile(
          mine.map((l) => l.e2eMs!),
          99,
        ),
        6,
      );
      expect(row.totalOutputTokens).toBe(mine.reduce((a, l) => a + l.outputTokens, 0));
    }
    const sum = (k: 'requestThroughput' | 'outputThroughput') => rows.reduce((a, x) => a + x[k], 0);
    expect(sum('requestThroughput')).toBeCloseTo(r.summary.vllm.request_throughput, 9);
    expect(sum('outputThroughput')).toBeCloseTo(r.summary.vllm.output_throughput, 9);
  });

  it('the fast model’s ITL is the lower by far (steps 5× shorter: under half)', () => {
    const [base, fast] = r.summary.byModel!;
    expect(fast!.itl!.median).toBeLessThan(base!.itl!.median / 2);
    expect(fast!.e2el!.median).toBeLessThan(base!.e2el!.median / 2);
  });

  it('a reopened run file gives the same rows, and so does recomputing them from its lines', async () => {
    const f = await readRunFile(file);
    expect(f.ok).toBe(true);
    if (!f.ok) return;
    expect(f.value.damage).toBeNull();
    expect(f.value.summary.byModel).toEqual(r.summary.byModel);
    const again = summarizeRunLines(f.value.header, f.value.requests, {
      durationS: f.value.summary.vllm.duration,
    });
    expect(again.byModel).toEqual(r.summary.byModel);
  });

  it('a run without a mix has no by-model rows and no model on its lines', async () => {
    const target = { url: sim.url, dialect: 'openai-chat' as const, model: 'base' };
    const plain = await runAgainst(sim, { ...MIX, models: undefined, requests: 3 }, { target });
    expect(plain.summary.byModel).toBeUndefined();
    expect(plain.lines.every((l) => l.model === undefined)).toBe(true);
  }, 60_000);

  it('a name the server does not serve fails its own requests (vLLM’s 404), counted on its row', async () => {
    const bad = await runAgainst(sim, { ...MIX, models: ['base', 'nope'] });
    const rows = bad.summary.byModel!;
    const nope = rows.find((x) => x.model === 'nope')!;
    expect(nope.requests).toBeGreaterThan(0);
    expect(nope.failed).toBe(nope.requests);
    expect(Object.values(nope.errors).reduce((a, b) => a + b, 0)).toBe(nope.requests);
    const line = bad.lines.find((l) => l.model === 'nope')!;
    expect(line.error).toMatchObject({ status: 404 });
    expect(line.error!.message).toContain('The model `nope` does not exist.');
    expect(rows.find((x) => x.model === 'base')!.failed).toBe(0);
  }, 60_000);
});
