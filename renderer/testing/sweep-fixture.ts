/**
 * Sweep files for the Sweep mode's tests: a rate sweep of a server that saturates at `cap` req/s
 * (TTFT flat, then climbing 30 ms per extra req/s), its knee from the real Kneedle (kneesOf).
 */
import {
  SWEEP_FILE_FORMAT,
  SWEEP_FILE_VERSION,
  type SweepFile,
  type SweepStep,
} from '../../shared/runs/sweep/file.ts';
import { kneesOf } from '../../shared/runs/sweep/step.ts';

function sweepStep(index: number, rate: number, cap = 40, over = false): SweepStep {
  const rps = Math.min(rate, cap);
  const ttft = rate <= cap ? 20 + rate : 20 + cap + (rate - cap) * 30;
  const p = (x: number) => ({ p50: x / 2, p90: x * 0.9, p99: x });
  return {
    index,
    role: 'step',
    load: { kind: 'rate', value: rate },
    runFile: `s.step0${index + 1}.jsonl`,
    runId: `r${index}`,
    stoppedEarly: over ? 'over-saturated' : null,
    numbers: {
      completed: 100,
      failed: 0,
      durationS: 10,
      requestsPerS: rps,
      outputTokPerS: rps * 100,
      goodputReqPerS: rate <= cap ? rps : rps / 4,
      tokPerSPerUser: 50 - rate / 10,
      maxConcurrent: 10,
      ttft: p(ttft),
      itl: p(10),
      tpot: p(20),
      e2el: p(ttft + 2000),
    },
    saturation: over ? { overSaturated: true, atMs: 4000, ttft: null, outstanding: null } : null,
    slo: null,
  };
}

/**
 * Rates 10…60 by default (the last over-saturated, so out of the knee); `cap` moves the knee (a
 * faster server: a higher cap, and rates that go past it).
 */
export function sweepFixture(
  o: { cap?: number; name?: string; slo?: SweepFile['slo']; rates?: number[] } = {},
): SweepFile {
  const rates = o.rates ?? [10, 20, 30, 40, 50, 60];
  const steps = rates.map((r, i) => sweepStep(i, r, o.cap ?? 40, i === rates.length - 1));
  return {
    format: SWEEP_FILE_FORMAT,
    version: SWEEP_FILE_VERSION,
    sweepId: `id-${o.cap ?? 40}`,
    name: o.name ?? null,
    createdAt: '2026-11-26T00:00:00.000Z',
    target: { url: 'http://127.0.0.1:8000', dialect: 'openai-chat', model: 'm' },
    workload: {},
    plan: { kind: 'rate', loads: rates, stopOverSaturated: true },
    steps,
    stopped: { reason: 'over-saturated', atStep: rates.length - 1 },
    knee: kneesOf(steps),
    slo: o.slo ?? null,
  };
}
