/**
 * The simulator in its own thread (thread.ts + sim-worker.ts): it streams, serves /metrics,
 * publishes its state, forwards its log, exits when closed, and a failed start says why.
 */
import { createServer, type Server } from 'node:net';
import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { until } from '../testing/until.ts';
import { chatBody, metricValue, post, scrape, sseJson } from '../testing/sim.ts';
import { startSimThread, type SimThreadServer } from './thread.ts';

describe('startSimThread', () => {
  it('streams from another thread, serves /metrics, and the thread exits on close', async () => {
    const lines: string[] = [];
    const sim: SimThreadServer = await startSimThread({
      port: 0,
      decodeStepMs: 1,
      decodeStepPerSeqMs: 0,
      groundTruth: true,
      log: (l) => lines.push(l),
    });
    let closed = false;
    try {
      expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sim.port).toBeGreaterThan(0);
      expect(sim.threadId).not.toBe(threadId);
      expect(sim.options.decodeStepMs).toBe(1);
      expect(sim.options.model).toBe('tokenscope-sim');
      expect(lines.some((l) => l.includes(`listening on ${sim.url}`))).toBe(true);

      const r = await post(sim, '/v1/chat/completions', chatBody({ max_tokens: 6 }));
      expect(r.status).toBe(200);
      const chunks = sseJson(r.text);
      expect(chunks.length).toBeGreaterThan(1);
      expect(r.text.trimEnd().endsWith('data: [DONE]')).toBe(true);

      const metrics = await scrape(sim);
      expect(metricValue(metrics, 'vllm:request_success_total', { finished_reason: 'length' })).toBe(1);
      expect(metricValue(metrics, 'vllm:generation_tokens_total')).toBe(6);

      const exact = await sim.fetchState();
      expect(exact.requests).toBe(1);
      expect(exact.finished.length).toBe(1);
      expect(exact.generationTokens).toBe(6);
      // Published to shared memory with the answer. The GPU energy counter runs with the clock (idle
      // power too), so the two snapshots, taken at different instants, agree on it only closely.
      const published = sim.state();
      expect({ ...published, gpuEnergyJ: 0 }).toEqual({ ...exact, gpuEnergyJ: 0 });
      expect(published.gpuEnergyJ).toBeGreaterThan(0);
      expect(Math.abs(published.gpuEnergyJ! - exact.gpuEnergyJ!)).toBeLessThan(0.05 * exact.gpuEnergyJ!);
      const gt = await sim.fetchGroundTruth();
      expect(gt.filter((g) => g.requestId === r.headers.get('x-request-id')).length).toBeGreaterThan(1);
      expect(sim.groundTruth()).toEqual(gt);

      await sim.close();
      closed = true;
      expect(await sim.exited).toBe(0);
      expect(lines.at(-1)).toBe('sim: closed');
      await expect(fetch(sim.url + '/metrics')).rejects.toThrow();
      await expect(sim.fetchState()).rejects.toThrow(/exited/);
      await sim.close(); // idempotent
    } finally {
      if (!closed) await sim.close();
    }
  });

  it('publishes its state without being asked', async () => {
    const sim = await startSimThread({ decodeStepMs: 1, decodeStepPerSeqMs: 0 });
    try {
      expect(sim.state().requests).toBe(0);
      await post(sim, '/v1/chat/completions', chatBody({ max_tokens: 3 }));
      await until(() => sim.state().requests === 1 && sim.state().activeStreams === 0, 3000, 10);
      expect(sim.state().generationTokens).toBe(3);
    } finally {
      await sim.close();
    }
  });

  it("publishes the speculative counters and the disaggregated mode's truth, as an in-process one has them", async () => {
    const sim = await startSimThread({
      port: 0,
      decodeStepMs: 1,
      decodeStepPerSeqMs: 0,
      specK: 3,
      specAccept: [0.8, 0.6, 0.5],
      kvTransferMs: 4,
      seed: 5,
    });
    try {
      const replies = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          post(
            sim,
            '/v1/chat/completions',
            chatBody({ max_tokens: 20, messages: [{ role: 'user', content: `q${i}` }] }),
          ),
        ),
      );
      for (const r of replies) expect(r.status).toBe(200);
      const exact = await sim.fetchState();
      const sd = exact.specDecode!;
      expect(sd.perPosition.length).toBe(3);
      expect(sd.drafts).toBeGreaterThan(0);
      const dg = exact.disagg!;
      expect(dg.transfers).toBe(4);
      expect(dg.minMs).toBeGreaterThanOrEqual(3.5);
      // Published to shared memory with the answer: state() reads the same truth, no message.
      expect(sim.state().specDecode).toEqual(sd);
      expect(sim.state().disagg).toEqual(dg);
      // And it is what the thread's /metrics say.
      const text = await scrape(sim);
      const L = { model_name: 'tokenscope-sim', engine: '0' };
      expect(metricValue(text, 'vllm:spec_decode_num_drafts_total', L)).toBe(sd.drafts);
      expect(metricValue(text, 'vllm:spec_decode_num_accepted_tokens_total', L)).toBe(sd.accepted);
    } finally {
      await sim.close();
    }
    const off = await startSimThread({ port: 0 });
    try {
      expect(off.state().specDecode).toBe(null);
      expect(off.state().disagg).toBe(null);
    } finally {
      await off.close();
    }
  });

  it('a port already in use rejects the start with the reason, at once', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const addr = blocker.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    try {
      const t0 = performance.now();
      await expect(startSimThread({ port, host: '127.0.0.1' })).rejects.toMatchObject({
        message: expect.stringMatching(new RegExp(`EADDRINUSE.*127\\.0\\.0\\.1:${port}`)) as unknown,
        code: 'EADDRINUSE',
      });
      expect(performance.now() - t0).toBeLessThan(15_000);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('a replay file that does not exist rejects the start', async () => {
    await expect(startSimThread({ replay: { file: '/nonexistent/tokenscope-replay.sse' } })).rejects.toThrow(
      /ENOENT/,
    );
  });
});
