/**
 * A sweep file of an embeddings target for the Sweep mode's tests: rates 10…60 of a server that
 * saturates at `cap` req/s (E2E flat, then climbing 40 ms per extra req/s), 4 inputs of 64 tokens a
 * request, no token numbers (null, output tok/s 0: as a real pooling run records them), its knee from
 * the real Kneedle (kneesOf, against req/s).
 */
import {
  SWEEP_FILE_FORMAT,
  SWEEP_FILE_VERSION,
  type SweepFile,
  type SweepStep,
} from '../../shared/runs/sweep/file.ts';
import { kneesOf } from '../../shared/runs/sweep/step.ts';

function step(index: number, rate: number, cap: number, over: boolean): SweepStep {
  const rps = Math.min(rate, cap);
  const e2e = rate <= cap ? 30 + rate : 30 + cap + (rate - cap) * 40;
  return {
    index,
    role: 'step',
    load: { kind: 'rate', value: rate },
    runFile: `e.step0${index + 1}.jsonl`,
    runId: `e${index}`,
    stoppedEarly: over ? 'over-saturated' : null,
    numbers: {
      completed: 100,
      failed: 0,
      durationS: 10,
      requestsPerS: rps,
      outputTokPerS: 0,
      goodputReqPerS: null,
      tokPerSPerUser: null,
      maxConcurrent: 10,
      ttft: null,
      itl: null,
      tpot: null,
      e2el: { p50: e2e / 2, p90: e2e * 0.9, p99: e2e },
      inputsPerS: rps * 4,
      inputTokPerS: rps * 4 * 65,
    },
    saturation: over ? { overSaturated: true, atMs: 4000, ttft: null, outstanding: null } : null,
    slo: null,
  };
}

export function poolingSweepFixture(
  o: { cap?: number; dialect?: 'openai-embeddings' | 'rerank'; slo?: SweepFile['slo'] } = {},
): SweepFile {
  const rates = [10, 20, 30, 40, 50, 60];
  const steps = rates.map((r, i) => step(i, r, o.cap ?? 40, i === rates.length - 1));
  return {
    format: SWEEP_FILE_FORMAT,
    version: SWEEP_FILE_VERSION,
    sweepId: `emb-${o.cap ?? 40}`,
    name: null,
    createdAt: '2026-11-28T00:00:00.000Z',
    target: { url: 'http://127.0.0.1:8000', dialect: o.dialect ?? 'openai-embeddings', model: 'm' },
    workload: {},
    plan: { kind: 'rate', loads: rates, stopOverSaturated: true },
    steps,
    stopped: { reason: 'over-saturated', atStep: rates.length - 1 },
    knee: kneesOf(steps, 2, false),
    slo: o.slo ?? null,
  };
}
