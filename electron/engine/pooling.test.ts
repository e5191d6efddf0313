/**
 * The non-streaming dialects (openai-embeddings, rerank) end to end over loopback: against the
 * simulator (batches, usage, latency from its prefill cost, batching, its vLLM-shaped errors), and
 * against a server that answers badly (not JSON, wrong counts, an error object with 200, a body
 * past the engine's cap): each classified, what it did say kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fireRequest } from './client.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import type { RequestSpec } from '../../shared/request.ts';
import { countPromptTokens, countTextTokens } from '../../shared/tokenizer.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';

const STEP_MS = 40;
const PREFILL_MS = 0.5;
let sim: SimServer;

beforeAll(async () => {
  sim = await startSim({
    port: 0,
    decodeStepMs: STEP_MS,
    prefillMsPerToken: PREFILL_MS,
    seed: 3,
    embeddingDim: 16,
  });
});
afterAll(async () => {
  await sim.close();
});

const INPUTS = ['the first input to embed', 'a second one', 'and a third, somewhat longer input text here'];

function spec(over: Partial<RequestSpec>): RequestSpec {
  return { url: sim.url, dialect: 'openai-embeddings', model: 'tokenscope-sim', ...over };
}

describe('openai-embeddings against the simulator', () => {
  it('a batch of three: one answer, no events, usage and batch read, latency at least the pass it took', async () => {
    const rec = await fireRequest(spec({ inputs: INPUTS }));
    expect(rec.error).toBeNull();
    expect(rec.status).toBe(200);
    expect(rec.events.n).toBe(0);
    expect(rec.terminated).toBe(true);
    const tokens = INPUTS.reduce((a, t) => a + countPromptTokens(t), 0);
    expect(rec.usage?.promptTokens).toBe(tokens);
    expect(rec.batch).toEqual({ inputs: 3, results: 3, dimension: 16 });
    expect(rec.responseModel).toBe('tokenscope-sim');
    // The simulator's pass lasts decodeStepMs + prefillMsPerToken × tokens: a lower bound by its timer.
    expect(rec.phases.endMs!).toBeGreaterThanOrEqual(STEP_MS + PREFILL_MS * tokens - 1);
    const s = computeRequestStats(rec);
    expect(s.ttftMs).toBeNull();
    expect(s.itlChunkMs).toHaveLength(0);
    expect(s.e2eMs).toBe(rec.phases.endMs);
    expect(s.outputTokens).toBe(0);
  });

  it('a prompt alone is a batch of one (sent as a string)', async () => {
    const rec = await fireRequest(spec({ prompt: 'just one' }));
    expect(rec.error).toBeNull();
    expect(rec.batch).toEqual({ inputs: 1, results: 1, dimension: 16 });
  });

  it('the same input gives the same vector (deterministic), base64 has no dimension to read', async () => {
    const body = { model: 'm', input: ['same', 'same'] };
    const r = await fetch(`${sim.url}/v1/embeddings`, { method: 'POST', body: JSON.stringify(body) });
    const j = (await r.json()) as { data: { embedding: number[] }[] };
    expect(j.data[0]!.embedding).toEqual(j.data[1]!.embedding);
    expect(Math.hypot(...j.data[0]!.embedding)).toBeCloseTo(1, 4);
    const rec = await fireRequest(spec({ inputs: ['x'], extraBody: { encoding_format: 'base64' } }));
    expect(rec.error).toBeNull();
    expect(rec.batch).toEqual({ inputs: 1, results: 1, dimension: null });
  });

  it('requests sent together share forward passes (batching)', async () => {
    const before = sim.state().pooling;
    const recs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => fireRequest(spec({ prompt: `n ${i}` }))),
    );
    for (const r of recs) expect(r.error).toBeNull();
    const after = sim.state().pooling;
    expect(after.served - before.served).toBe(6);
    expect(after.passes - before.passes).toBeLessThan(6);
  });

  it('an input past the model length is refused as vLLM does (400, its error object)', async () => {
    const long = Array.from({ length: 9000 }, () => 'word').join(' ');
    const rec = await fireRequest(spec({ inputs: ['ok', long] }));
    expect(rec.error?.kind).toBe('http');
    expect(rec.status).toBe(400);
    expect(rec.error?.message).toContain("This model's maximum context length is 8192 tokens");
    const bad = await fetch(`${sim.url}/v1/embeddings`, { method: 'POST', body: '{"input": 5}' });
    expect(bad.status).toBe(400);
    const j = (await bad.json()) as { error: { type: string; code: number } };
    expect(j.error).toMatchObject({ type: 'BadRequestError', code: 400 });
  });
});

describe('rerank against the simulator', () => {
  const docs = [
    'Paris is in France.',
    'Beijing is the capital of China.',
    'Cows eat grass.',
    'Rome.',
    'Oslo.',
  ];
  const query = 'What is the capital of China?';

  it('scores every document, best first, top_n of them; prompt tokens per pair', async () => {
    for (const path of ['/v1/rerank', '/rerank', '/v2/rerank']) {
      const r = await fetch(sim.url + path, {
        method: 'POST',
        body: JSON.stringify({ query, documents: docs }),
      });
      const j = (await r.json()) as { results: { index: number; relevance_score: number }[] };
      expect(j.results.map((x) => x.index).sort()).toEqual([0, 1, 2, 3, 4]);
      for (let i = 1; i < j.results.length; i++)
        expect(j.results[i - 1]!.relevance_score).toBeGreaterThanOrEqual(j.results[i]!.relevance_score);
    }
    const rec = await fireRequest(spec({ dialect: 'rerank', prompt: query, inputs: docs, topN: 2 }));
    expect(rec.error).toBeNull();
    expect(rec.batch).toEqual({ inputs: 5, results: 2 });
    const q = countPromptTokens(query);
    expect(rec.usage?.promptTokens).toBe(docs.reduce((a, d) => a + q + 1 + countTextTokens(d), 0));
  });

  it('no documents: 400 in vLLM’s shape', async () => {
    const rec = await fireRequest(spec({ dialect: 'rerank', prompt: query, inputs: [] }));
    expect(rec.error?.kind).toBe('http');
    expect(rec.error?.message).toContain('documents');
  });
});

describe('answers that are not what the dialect promises', () => {
  let server: http.Server;
  let url = '';
  const BIG = 'x'.repeat(9 * 1024 * 1024);
  const BODIES: Record<string, string> = {
    '/notjson/v1/embeddings': '{"data": [',
    '/count/v1/embeddings': JSON.stringify({
      data: [{ index: 0, embedding: [0.1, 0.2] }],
      usage: { prompt_tokens: 7, total_tokens: 7 },
    }),
    '/dims/v1/embeddings': JSON.stringify({
      data: [
        { index: 0, embedding: [0.1, 0.2] },
        { index: 1, embedding: [0.1] },
      ],
    }),
    '/error/v1/embeddings': JSON.stringify({ error: { message: 'model is asleep', type: 'x', code: 500 } }),
    '/big/v1/embeddings': `{"data": ["${BIG}"]}`,
    '/index/v1/rerank': JSON.stringify({
      results: [{ index: 9, relevance_score: 0.5 }],
      usage: { total_tokens: 11 },
    }),
  };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(BODIES[req.url ?? ''] ?? '{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const fire = (path: string, over: Partial<RequestSpec> = {}) =>
    fireRequest({
      url: `${url}${path}`,
      dialect: 'openai-embeddings',
      model: 'm',
      inputs: ['a', 'b'],
      ...over,
    });

  it('not JSON: protocol/bad-json, the body kept in the error', async () => {
    const rec = await fire('/notjson/v1/embeddings');
    expect(rec.error).toMatchObject({ kind: 'protocol', code: 'bad-json' });
    expect(rec.error?.body).toBe('{"data": [');
  });

  it('fewer embeddings than inputs: protocol/bad-response, its usage kept', async () => {
    const rec = await fire('/count/v1/embeddings');
    expect(rec.error).toMatchObject({ kind: 'protocol', code: 'bad-response' });
    expect(rec.error?.message).toContain('1 embeddings for 2 inputs');
    expect(rec.usage?.promptTokens).toBe(7);
    expect(rec.batch).toEqual({ inputs: 2, results: 1, dimension: 2 });
  });

  it('vectors of different lengths, and a rerank index out of range: bad-response', async () => {
    expect((await fire('/dims/v1/embeddings')).error?.message).toContain('has 1 values, the first had 2');
    const rr = await fire('/index/v1/rerank', { dialect: 'rerank', prompt: 'q' });
    expect(rr.error?.code).toBe('bad-response');
    expect(rr.usage?.promptTokens).toBe(11); // older vLLM: total_tokens only, all input
  });

  it('an error object with 200: server/error-event with the server’s message', async () => {
    const rec = await fire('/error/v1/embeddings');
    expect(rec.error).toMatchObject({ kind: 'server', code: 'error-event' });
    expect(rec.error?.message).toContain('model is asleep');
  });

  it('a body past the 8 MiB kept for one answer: classified, not read, every byte counted', async () => {
    const rec = await fire('/big/v1/embeddings');
    expect(rec.error).toMatchObject({ kind: 'protocol', code: 'bad-json' });
    expect(rec.error?.message).toMatch(/past the \d+-byte limit/);
    expect(rec.bytes).toBeGreaterThan(BIG.length);
  });
});
