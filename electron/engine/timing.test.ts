import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireRequest } from './client.ts';
import { startSimThread, type SimThreadServer } from '../sim/thread.ts';
import { EV_COALESCED } from '../../shared/request.ts';
import { summarize } from '../../shared/stats/summary.ts';

// Accuracy of the per-event timestamps against the simulator's ground truth: the sim records
// performance.now() at the moment it issues each chunk's write; we compare consecutive gaps.
// The simulator runs in its own thread (as in the app), the client stamps on its I/O thread.
let sim: SimThreadServer;
beforeAll(async () => {
  sim = await startSimThread({
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

/**
 * The baseline: a bare node:http client on this thread that only stamps each read, streaming the
 * same kind of request at the same time. Whatever the machine's load does to wake-ups, it does to
 * both; the engine must not be worse than this by more than a millisecond.
 */
function baselineStream(url: string): Promise<{ id: string; reads: number[] }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      model: 'tokenscope-sim',
      messages: [{ role: 'user', content: 'baseline' }],
      stream: true,
      max_tokens: 70,
      ignore_eos: true,
      stream_options: { include_usage: true, continuous_usage_stats: true },
    });
    const req = http.request(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      agent: false,
    });
    req.on('response', (res) => {
      const reads: number[] = [];
      res.on('data', () => reads.push(performance.now()));
      res.on('end', () => resolve({ id: String(res.headers['x-request-id']), reads }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** |measured gap − true gap| for every pair of consecutive reads/events (skipping the first). */
function gapErrors(measured: number[], truth: number[]): number[] {
  const out: number[] = [];
  for (let i = 2; i < Math.min(measured.length, truth.length); i++)
    out.push(Math.abs(measured[i]! - measured[i - 1]! - (truth[i]! - truth[i - 1]!)));
  return out;
}

describe('timing accuracy at low load', () => {
  it('measured gaps match the true send gaps event by event', async () => {
    const [rec, base] = await Promise.all([
      fireRequest({
        url: sim.url,
        dialect: 'openai-chat',
        model: 'tokenscope-sim',
        prompt: 'timing',
        params: { maxTokens: 70, ignoreEos: true },
        continuousUsage: true,
      }),
      baselineStream(sim.url),
    ]);
    expect(rec.error).toBeNull();
    const all = await sim.fetchGroundTruth();
    const truth = all.filter((g) => g.requestId === rec.serverRequestId);
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
    // (p90/p99 rather than max: this machine is shared.)
    const baseTruth = all.filter((g) => g.requestId === base.id).map((g) => g.tMs);
    expect(base.reads.length).toBe(baseTruth.length); // one read per write: comparable
    const baseErr = summarize(gapErrors(base.reads, baseTruth))!;
    expect(err.p90).toBeLessThan(Math.max(gap.std / 4, baseErr.p90 + 1));
    expect(err.p99).toBeLessThan(Math.max(gap.std, baseErr.p99 + 1));
    expect(err.mean * 5).toBeLessThan(wrong.mean);
    // And in absolute terms on loopback: sub-millisecond typical error.
    expect(err.median).toBeLessThan(1);
  });
});
