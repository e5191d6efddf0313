/**
 * Disaggregated serving end to end (issue 28 §4): a bounded run against the simulator in its
 * disaggregated mode, its prefill and decode /metrics listed as role endpoints, gets each role's
 * queues and the KV-transfer time the simulator charged — the count and mean exactly (histogram
 * count and sum), the median within the server's bucket that holds it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim } from '../sim/index.ts';
import type { SimHttpServer } from '../sim/server.ts';
import { summaryText } from '../../shared/runs/summary/text.ts';
import { runAgainst } from '../testing/runs.ts';

const KV_TRANSFER_MS = 150;
const WORKLOAD = {
  requests: 24,
  maxConcurrency: 8,
  testRequest: false,
  prompts: { type: 'synthetic' as const, inputLen: 16, outputLen: 12 },
};

let sim: SimHttpServer | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function disaggRun() {
  sim = (await startSim({
    decodeStepMs: 10,
    maxNumSeqs: 8,
    gpus: 0,
    kvTransferMs: KV_TRANSFER_MS,
  })) as SimHttpServer;
  const r = await runAgainst(sim, WORKLOAD, {
    serverMetrics: { url: sim.url, intervalMs: 100 },
    metricsEndpoints: [
      { role: 'prefill', url: `${sim.url}/metrics/prefill` },
      { role: 'decode', url: `${sim.url}/metrics/decode` },
    ],
  });
  const sorted = [...sim.kvTransfersMs()].sort((a, b) => a - b);
  return { r, truth: sim.state().disagg!, sorted };
}

describe('a run against a disaggregated deployment', () => {
  it('per role: the KV-transfer time and the queues the simulator charged', async () => {
    const { r, truth, sorted } = await disaggRun();
    expect(r.summary.vllm.completed).toBe(24);
    expect(truth.transfers).toBe(24);
    const roles = r.summary.server!.roles!;
    expect(roles.map((x) => [x.role, x.profile])).toEqual([
      ['server', 'vllm-v1'],
      ['prefill', 'sglang-pd'],
      ['decode', 'sglang-pd'],
    ]);
    const [server, prefill, decode] = roles as [(typeof roles)[0], (typeof roles)[0], (typeof roles)[0]];
    const truthMean = truth.transferMsSum / truth.transfers;
    for (const side of [prefill, decode]) {
      const k = side.kvTransfer!;
      expect(k.source).toBe('histogram');
      expect(k.count).toBe(truth.transfers);
      expect(k.mean!).toBeCloseTo(truthMean, 6);
      // Every transfer took at least what was charged (more when a step came late: what it took is
      // what is counted). The median's bucket holds the simulator's median transfer (the rank
      // histogram_quantile reads, 0.5 x count), and the interpolated p50 lies in it.
      expect(truth.minMs!).toBeGreaterThanOrEqual(KV_TRANSFER_MS);
      const [lo, hi] = k.p50Bucket!;
      const median = sorted[Math.ceil(0.5 * sorted.length) - 1]!;
      expect(median).toBeGreaterThan(lo);
      expect(median).toBeLessThanOrEqual(hi!);
      expect(k.p50!).toBeGreaterThan(lo);
      expect(k.p50!).toBeLessThanOrEqual(hi!);
    }
    // The transfer queue: requests were seen in it, never more than the simulator held at once.
    const dq = decode.queues.decodeTransfer!;
    expect(dq.max).toBeGreaterThan(0);
    expect(dq.max).toBeLessThanOrEqual(truth.maxInTransfer);
    expect(dq.mean).toBeGreaterThan(0);
    expect(prefill.queues.prefillInflight!.max).toBeLessThanOrEqual(truth.maxInTransfer);
    // Exposed as zero is a reading; a server without the gauge is "not exposed" (null).
    expect(decode.queues.decodePrealloc).toMatchObject({ mean: 0, max: 0 });
    expect(server.queues.decodeTransfer).toBeNull();
    expect(server.kvTransfer).toBeNull();
    expect(server.queues.waiting).not.toBeNull();
    const text = summaryText(r.summary);
    expect(text).toMatch(/\[decode\] KV transfer p50 \/ p90 \/ p99 \(ms\):\s+\S/);
    expect(text).toMatch(/\[server\] KV transfer p50 \/ p90 \/ p99 \(ms\):\s+not exposed/);
    expect(text).toMatch(/\[decode\] Decode receiving KV mean \/ max:\s+[\d.]+ \/ \d+/);
  }, 30_000);

  it('a role endpoint that fails says so and costs the others nothing', async () => {
    sim = (await startSim({ decodeStepMs: 10, gpus: 0, kvTransferMs: 20 })) as SimHttpServer;
    const r = await runAgainst(
      sim,
      { ...WORKLOAD, requests: 4 },
      {
        serverMetrics: { url: sim.url, intervalMs: 100 },
        metricsEndpoints: [
          { role: 'prefill', url: `${sim.url}/no-such-metrics` },
          { role: 'decode', url: `${sim.url}/metrics/decode` },
        ],
      },
    );
    const [, prefill, decode] = r.summary.server!.roles!;
    expect(prefill!.scrapes).toBe(0);
    expect(prefill!.lastError).toMatch(/404/);
    expect(decode!.kvTransfer!.count).toBe(4);
  }, 30_000);
});
