/**
 * The simulator's /metrics count embeddings and rerank requests as vLLM V1 counts pooling requests
 * (electron/sim/metrics.ts `pooled`, from vllm/v1/metrics/stats.py and loggers.py): prompt tokens,
 * request success with finished_reason "stop", e2e/queue/prefill/inference times, one TTFT
 * observation per request and no ITL, no generated token; a client gone before its pass ended is
 * an abort. Real HTTP over loopback.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';
import { metricValue, post, scrape } from '../testing/sim.ts';
import { until } from '../testing/until.ts';

const STEP_MS = 30;
let sim: SimServer;

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: STEP_MS, prefillMsPerToken: 0.01, seed: 5, embeddingDim: 8 });
});
afterAll(async () => {
  await sim.close();
});

type Usage = { usage: { prompt_tokens: number } };

describe('pooling requests in /metrics', () => {
  it('count as vLLM counts them: prompt tokens, success "stop", latencies, one TTFT each, no ITL, no tokens out', async () => {
    const before = await scrape(sim);
    const replies = await Promise.all([
      post(sim, '/v1/embeddings', { model: 'tokenscope-sim', input: ['one input', 'and another one'] }),
      post(sim, '/v1/embeddings', { model: 'tokenscope-sim', input: 'a single input' }),
      post(sim, '/v1/rerank', { model: 'tokenscope-sim', query: 'which?', documents: ['a', 'b c', 'd'] }),
      post(sim, '/rerank', { model: 'tokenscope-sim', query: 'q', documents: ['x y z'], top_n: 1 }),
    ]);
    for (const r of replies) expect(r.status).toBe(200);
    const tokens = replies.reduce((a, r) => a + (JSON.parse(r.text) as Usage).usage.prompt_tokens, 0);
    expect(tokens).toBeGreaterThan(0);
    const after = await scrape(sim);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(delta('vllm:prompt_tokens_total')).toBe(tokens);
    expect(delta('vllm:generation_tokens_total')).toBe(0);
    expect(delta('vllm:request_success_total', { finished_reason: 'stop' })).toBe(4);
    expect(delta('vllm:request_success_total', { finished_reason: 'length' })).toBe(0);
    expect(delta('vllm:e2e_request_latency_seconds_count')).toBe(4);
    // Each waited at least one pass (decodeStepMs): the sum is at least 4 of them.
    expect(delta('vllm:e2e_request_latency_seconds_sum')).toBeGreaterThanOrEqual(
      (4 * STEP_MS) / 1000 - 0.004,
    );
    expect(delta('vllm:request_prompt_tokens_count')).toBe(4);
    expect(delta('vllm:request_prompt_tokens_sum')).toBe(tokens);
    expect(delta('vllm:request_generation_tokens_count')).toBe(4);
    expect(delta('vllm:request_generation_tokens_sum')).toBe(0);
    expect(delta('vllm:request_queue_time_seconds_count')).toBe(4);
    expect(delta('vllm:request_prefill_time_seconds_count')).toBe(4);
    expect(delta('vllm:request_decode_time_seconds_sum')).toBe(0);
    // vLLM sees the one output while prefilling: one TTFT observation, never an inter-token latency.
    expect(delta('vllm:time_to_first_token_seconds_count')).toBe(4);
    expect(delta('vllm:inter_token_latency_seconds_count')).toBe(0);
    expect(delta('vllm:iteration_tokens_total_sum')).toBe(tokens);
  });

  it('a refused request (400) counts nothing', async () => {
    const before = await scrape(sim);
    const r = await post(sim, '/v1/embeddings', { model: 'tokenscope-sim', input: 5 });
    expect(r.status).toBe(400);
    const after = await scrape(sim);
    for (const reason of ['stop', 'abort', 'error'])
      expect(metricValue(after, 'vllm:request_success_total', { finished_reason: reason })).toBe(
        metricValue(before, 'vllm:request_success_total', { finished_reason: reason }),
      );
    expect(metricValue(after, 'vllm:e2e_request_latency_seconds_count')).toBe(
      metricValue(before, 'vllm:e2e_request_latency_seconds_count'),
    );
  });

  it('a request in its pass is running; one whose client left is an abort, not a success', async () => {
    const slow = await startSim({ port: 0, decodeStepMs: 400, seed: 1, embeddingDim: 4 });
    try {
      const req = http.request(`${slow.url}/v1/embeddings`, { method: 'POST' });
      req.on('error', () => undefined);
      req.end(JSON.stringify({ model: 'tokenscope-sim', input: 'left early' }));
      await until(async () => metricValue(await scrape(slow), 'vllm:num_requests_running') === 1, 5000, 5);
      req.destroy();
      await until(
        async () =>
          metricValue(await scrape(slow), 'vllm:request_success_total', { finished_reason: 'abort' }) === 1,
        5000,
        10,
      );
      const m = await scrape(slow);
      expect(metricValue(m, 'vllm:request_success_total', { finished_reason: 'stop' })).toBe(0);
      expect(metricValue(m, 'vllm:e2e_request_latency_seconds_count')).toBe(0);
      expect(metricValue(m, 'vllm:num_requests_running')).toBe(0);
    } finally {
      await slow.close();
    }
  });
});
