/**
 * The app's sweep of an embeddings target through the contract, against the built-in simulator:
 * an SLO search on a token metric refused naming the form's field; a concurrency sweep's file with
 * the batch numbers and the E2E knee only.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result, TargetView } from '../../shared/api.ts';
import type { SweepEvent } from '../../shared/sweeps-api.ts';
import { tmpDir } from '../testing/runs.ts';
import { testCore, type RecordedEvent } from '../testing/core.ts';
import { untilValue } from '../testing/until.ts';
import type { Core } from './core.ts';
import { dispatch } from './handlers.ts';

let core: Core;
let events: RecordedEvent[] = [];
let target = '';

function call<T>(method: string, ...args: unknown[]): Promise<Result<T>> {
  return dispatch(core.handlers, method, args) as Promise<Result<T>>;
}

const workload = {
  requests: 12,
  rate: 'inf',
  seed: 5,
  testRequest: false,
  prompts: { type: 'synthetic', inputLen: 16, outputLen: 8 },
  pooling: { batchSize: 3 },
};

beforeAll(async () => {
  ({ core, events } = await testCore({ runsDir: path.join(tmpDir('tokenscope-app-sweeps-pool-'), 'runs') }));
  const targets = await call<TargetView[]>('listTargets');
  if (!targets.ok) throw new Error(targets.error.message);
  const sim = targets.value.find((t) => t.builtin)!;
  const saved = await call<TargetView>('saveTarget', {
    name: 'Embeddings sim',
    baseUrl: sim.baseUrl,
    dialect: 'openai-embeddings',
  });
  if (!saved.ok) throw new Error(saved.error.message);
  target = saved.value.id;
});

afterAll(async () => {
  await core.close();
});

describe('a sweep of an embeddings target through the contract', () => {
  it("refuses an SLO search on TTFT, naming the form's field; E2E terms are taken", async () => {
    const r = await call('startSweep', { targetId: target, workload, plan: { slo: 'p99_ttft_ms<=50' } });
    expect(!r.ok && r.error.message).toMatch(
      /^SLO terms: p99_ttft_ms: an embeddings or rerank target answers whole/,
    );
  });

  it('a concurrency sweep: batch numbers per step, no token numbers, the E2E knee only', async () => {
    const start = await call<{ sweepId: string }>('startSweep', {
      targetId: target,
      workload,
      plan: { concurrency: '1,4' },
    });
    if (!start.ok) throw new Error(start.error.message);
    const end = await untilValue(
      () =>
        events
          .filter((e) => e.event === 'onSweepProgress')
          .map((e) => e.payload as SweepEvent)
          .find(
            (e): e is Extract<SweepEvent, { kind: 'done' }> =>
              e.sweepId === start.value.sweepId && e.kind === 'done',
          ),
      { timeoutMs: 60_000, everyMs: 20, what: 'the sweep to end' },
    );
    expect(end.error).toBeNull();
    const f = end.file!;
    expect(f.target.dialect).toBe('openai-embeddings');
    expect(f.knee.ttft).toBeNull();
    expect(f.steps).toHaveLength(2);
    for (const s of f.steps) {
      expect(s.numbers.completed).toBe(12);
      expect([s.numbers.ttft, s.numbers.itl, s.numbers.tpot, s.numbers.tokPerSPerUser]).toEqual([
        null,
        null,
        null,
        null,
      ]);
      expect(s.numbers.inputsPerS).toBeCloseTo(3 * s.numbers.requestsPerS, 6);
      expect(s.numbers.inputTokPerS).toBeGreaterThan(0);
    }
  });
});
