/**
 * A load run that watches the server's own /metrics (the simulator's, vLLM v1 names) over real
 * HTTP: what the server counted over the measured run equals what the client received, the
 * gauges peak within the run's concurrency, the server histograms hold one observation per
 * request; a warm-up before the clock is not counted; a server without /metrics costs the run
 * nothing and says why.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { ServerWatch } from './server-watch.ts';
import { runAgainst } from '../testing/runs.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 10, maxNumSeqs: 4 });
});
afterAll(async () => {
  await sim.close();
});

const WORKLOAD = {
  requests: 12,
  maxConcurrency: 6,
  warmup: 2,
  prompts: { type: 'synthetic' as const, inputLen: 16, outputLen: 40 },
};

describe('server metrics during a run', () => {
  it('counts what the server did over the measured run, against what the client received', async () => {
    const r = await runAgainst(sim, WORKLOAD, { serverMetrics: { url: sim.url } });
    const s = r.summary.server!;
    expect(s).toMatchObject({ source: 'scrape', profile: 'vllm-v1', model: 'tokenscope-sim', failures: 0 });
    expect(s.url).toBe(`${sim.url}/metrics`);
    expect(s.lastError).toBeNull();
    expect(s.scrapes).toBeGreaterThanOrEqual(2);
    // The window starts at the baseline scrape (after the warm-up) and ends after the last request.
    expect(s.window!.fromMs).toBeLessThanOrEqual(0);
    expect(s.window!.toMs).toBeGreaterThanOrEqual(r.summary.vllm.duration * 1000 - 1);
    // The simulator counts exactly: every generated token, none of the warm-up's.
    expect(r.summary.vllm.total_output_tokens).toBe(12 * 40);
    expect(s.delta.generationTokens).toBe(12 * 40);
    expect(s.delta.promptTokens).toBe(r.summary.vllm.total_input_tokens);
    expect(s.delta.preemptions).toBe(0);
    // Six in flight, four slots on the server: it ran at most 4, never held more than the six.
    expect(s.peak.running).toBeGreaterThanOrEqual(1);
    expect(s.peak.running).toBeLessThanOrEqual(4);
    for (const p of s.series) expect((p.running ?? 0) + (p.waiting ?? 0)).toBeLessThanOrEqual(6);
    expect(s.ttft?.count).toBe(12);
    expect(s.e2e?.count).toBe(12);
    expect(s.queueTime?.count).toBe(12);
    // Server TTFT is inside the client's (the client's also has the network and HTTP around it).
    const clientTtftP99 = r.summary.stats.ttft!.p99!;
    expect(s.ttft!.p50!).toBeGreaterThan(0);
    // …and the bucket it was interpolated in, which holds it.
    const [lo, hi] = s.ttft!.p50Bucket!;
    expect(s.ttft!.p50!).toBeGreaterThanOrEqual(lo);
    expect(s.ttft!.p50!).toBeLessThanOrEqual(hi!);
    expect(s.ttft!.p50!).toBeLessThan(clientTtftP99 * 2);
    expect(s.series.length).toBe(s.scrapes);
    expect(s.series.some((p) => (p.running ?? 0) > 0)).toBe(true);
  }, 30_000);

  it('a server that restarts mid-run: nothing counted before the restart is lost (increase over every scrape)', async () => {
    // A fresh simulator: its histograms hold only this test's requests.
    const fresh = await startSim({ port: 0, decodeStepMs: 1, prefillMsPerToken: 0 });
    try {
      const send = async (n: number): Promise<void> => {
        for (let i = 0; i < n; i++) {
          const r = await fetch(`${fresh.url}/v1/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'tokenscope-sim', prompt: 'hi', max_tokens: 5, stream: true }),
          });
          await r.text();
        }
      };
      const watch = new ServerWatch({ url: fresh.url }, 'tokenscope-sim');
      await watch.scrapeNow(); // the baseline, before the clock starts
      const t0 = performance.now();
      await send(40);
      await watch.scrapeNow(); // saw 40
      // The server restarts (its counters and histograms back to 0), then serves 28 more.
      const restart = await fetch(`${fresh.url}/sim/restart-metrics`, { method: 'POST' });
      expect(restart.status).toBe(204);
      await send(4);
      await watch.scrapeNow(); // saw 4 since the restart
      await send(24);
      const s = await watch.finish(t0); // the last scrape: 28 since the restart
      // Comparing only the first and the last scrape would keep the 28 after the restart.
      expect(s.ttft?.count).toBe(68);
      expect(s.e2e?.count).toBe(68);
      expect(s.delta.generationTokens).toBe(68 * 5);
    } finally {
      await fresh.close();
    }
  });

  it('a server with only a prefix-cache hit-rate gauge (vLLM V0): its last value, said not to be over the run', async () => {
    let n = 0;
    const v0 = http.createServer((_req, res) => {
      n++;
      res.setHeader('content-type', 'text/plain; version=0.0.4');
      res.end(
        '# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name="tokenscope-sim"} 1\n' +
          '# TYPE vllm:num_requests_swapped gauge\nvllm:num_requests_swapped{model_name="tokenscope-sim"} 0\n' +
          '# TYPE vllm:gpu_prefix_cache_hit_rate gauge\n' +
          `vllm:gpu_prefix_cache_hit_rate{model_name="tokenscope-sim"} ${n < 2 ? 0.25 : 0.4}\n`,
      );
    });
    await new Promise<void>((ok) => v0.listen(0, '127.0.0.1', ok));
    try {
      const port = (v0.address() as AddressInfo).port;
      const r = await runAgainst(
        sim,
        { ...WORKLOAD, warmup: 0, requests: 4 },
        { serverMetrics: { url: `http://127.0.0.1:${port}`, intervalMs: 250 } },
      );
      const s = r.summary.server!;
      expect(s.profile).toBe('vllm-v0');
      expect(s.prefixCache).toEqual({ hitTokens: null, queryTokens: null, hitRate: 0.4, source: 'gauge' });
    } finally {
      await new Promise<void>((ok) => v0.close(() => ok()));
    }
  }, 30_000);

  it('a server without /metrics: the run is whole, the summary says why there are no server numbers', async () => {
    const bare = http.createServer((_req, res) => {
      res.statusCode = 404;
      res.end('no metrics here');
    });
    await new Promise<void>((ok) => bare.listen(0, '127.0.0.1', ok));
    try {
      const port = (bare.address() as AddressInfo).port;
      const r = await runAgainst(
        sim,
        { ...WORKLOAD, warmup: 0, requests: 4 },
        {
          serverMetrics: { url: `http://127.0.0.1:${port}` },
        },
      );
      expect(r.summary.vllm.completed).toBe(4);
      const s = r.summary.server!;
      expect(s.scrapes).toBe(0);
      expect(s.failures).toBeGreaterThanOrEqual(2);
      expect(s.lastError).toMatch(/404/);
      expect(s.window).toBeNull();
      expect(s.delta.generationTokens).toBeNull();
      expect(s.ttft).toBeNull();
      expect(s.prefixCache).toBeNull();
    } finally {
      await new Promise<void>((ok) => bare.close(() => ok()));
    }
  }, 30_000);

  it('without serverMetrics the summary has none', async () => {
    const r = await runAgainst(sim, { ...WORKLOAD, warmup: 0, requests: 2 });
    expect(r.summary.server).toBeUndefined();
  }, 30_000);
});
