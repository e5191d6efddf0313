/**
 * The request debugger's embeddings and rerank requests, over loopback against the simulator, the
 * way the composer sends them (RequestService.fire with a FireInput): the batch, query, documents
 * and top_n reach the server; the record keeps a readable digest of the answer — each vector's
 * dimension, norm and first values exactly as the server sent them, the ranked documents with
 * their scores and texts — the request body's size, and the server's usage; a 4xx body is
 * classified as for every dialect; load runs' records (no raw data) carry no digest. Copy as curl
 * writes the same body, the key never.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FireInput, RequestSnapshot } from '../../shared/api.ts';
import type { PooledAnswer } from '../../shared/pooled-answer.ts';
import { fireRequest } from '../engine/client.ts';
import { buildRequestBody } from '../engine/body.ts';
import { getDialect } from '../engine/dialects/index.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { curlCommand } from './curl.ts';
import { RequestService, specFromInput } from './requests-service.ts';
import type { ResolvedTarget } from './targets-service.ts';

let sim: SimServer;
let service: RequestService;
const finished: RequestSnapshot[] = [];

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 2, prefillMsPerToken: 0.01, embeddingDim: 1024 });
  service = new RequestService((name, payload) => {
    if (name === 'onRequestFinished') finished.push(payload as RequestSnapshot);
  });
});
afterAll(async () => {
  service.dispose();
  await sim.close();
});

const target = (dialect: ResolvedTarget['dialect']): ResolvedTarget => ({
  id: 't',
  name: 'sim',
  baseUrl: sim.url,
  dialect,
  headers: {},
  apiKey: 'sk-secret-1234',
  insecureTls: false,
});

async function fire(input: FireInput): Promise<RequestSnapshot> {
  const id = service.fire(input, target(input.dialect ?? 'openai-embeddings'));
  const end = performance.now() + 10_000;
  for (;;) {
    const s = finished.find((f) => f.summary.id === id);
    if (s) return s;
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The simulator's own answer to the same body, read directly. */
async function direct(path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await r.json()) as Record<string, unknown>;
}

const DOCS = [
  'Paris is the capital of France.',
  'Bananas are yellow.',
  'The Louvre is in Paris.',
  'Ice melts.',
];

describe("the debugger's embeddings requests", () => {
  it('sends the batch and keeps each vector readable: dimension, unit norm, the first values as sent', async () => {
    const inputs = ['first input', 'a second, longer input about clocks', 'third'];
    const snap = await fire({ targetId: 't', dialect: 'openai-embeddings', model: 'tokenscope-sim', inputs });
    const rec = snap.record;
    expect(rec.error).toBeNull();
    expect(rec.batch).toEqual({ inputs: 3, results: 3, dimension: 1024 });
    const a = rec.answer as Extract<PooledAnswer, { kind: 'embeddings' }>;
    expect(a.kind).toBe('embeddings');
    expect(a.omitted).toBe(0);
    const ref = await direct('/v1/embeddings', { model: 'tokenscope-sim', input: inputs });
    const data = ref.data as { index: number; embedding: number[] }[];
    expect(a.items.map((e) => e.index)).toEqual([0, 1, 2]);
    for (const e of a.items) {
      const v = data[e.index]!.embedding;
      expect(e.dimension).toBe(1024);
      expect(e.head).toEqual(v.slice(0, 8));
      // The simulator's vectors are unit length, rounded to 6 digits per value.
      expect(Math.abs(e.norm! - 1)).toBeLessThan(1e-4);
      expect(e.norm).toBeCloseTo(Math.hypot(...v), 12);
    }
    expect(rec.usage?.promptTokens).toBe((ref.usage as { prompt_tokens: number }).prompt_tokens);
    // The body's start is kept for the raw view, not the whole 3 × 1024 floats.
    expect(rec.bytes).toBeGreaterThan(16 * 1024);
    expect(a.body.length).toBe(16 * 1024);
    expect(a.bodyCut).toBe(true);
    expect(a.bodyBytes).toBe(rec.bytes);
    const spec = specFromInput(snap.input, target('openai-embeddings'));
    const sent = JSON.stringify(buildRequestBody(getDialect('openai-embeddings'), spec));
    expect(rec.requestBytes).toBe(Buffer.byteLength(sent));
    expect(JSON.parse(sent)).toMatchObject({ input: inputs, encoding_format: 'float' });
    expect(snap.summary.promptPreview).toBe('first input');
  });

  it('decodes base64 vectors (extra body encoding_format) to the same values, marked base64', async () => {
    const inputs = ['first input', 'third'];
    const snap = await fire({
      targetId: 't',
      dialect: 'openai-embeddings',
      model: 'tokenscope-sim',
      inputs,
      extraBody: { encoding_format: 'base64' },
    });
    expect(snap.record.error).toBeNull();
    expect(snap.record.batch?.dimension).toBeNull();
    const a = snap.record.answer as Extract<PooledAnswer, { kind: 'embeddings' }>;
    const ref = await direct('/v1/embeddings', { model: 'tokenscope-sim', input: inputs });
    const data = ref.data as { embedding: number[] }[];
    for (const e of a.items) {
      expect(e).toMatchObject({ base64: true, dimension: 1024 });
      // float32 of the same values: equal to 6 decimals.
      e.head.forEach((v, i) => expect(v).toBeCloseTo(data[e.index]!.embedding[i]!, 6));
      expect(Math.abs(e.norm! - 1)).toBeLessThan(1e-4);
    }
  });

  it("classifies the server's 400 with its body, keeping no digest of an answer that never came", async () => {
    const long = 'word '.repeat(9000);
    const snap = await fire({
      targetId: 't',
      dialect: 'openai-embeddings',
      model: 'tokenscope-sim',
      inputs: [long],
    });
    expect(snap.record.error).toMatchObject({ kind: 'http', status: 400 });
    expect(snap.record.error?.body).toMatch(/maximum context length is 8192 tokens/);
    expect(snap.record.answer).toBeUndefined();
    expect(snap.summary.state).toBe('error');
  });

  it("compares the batch's vectors pairwise: the same text twice is similarity 1, others far from it", async () => {
    const inputs = ['the same text', 'something else entirely', 'the same text'];
    const snap = await fire({ targetId: 't', dialect: 'openai-embeddings', model: 'tokenscope-sim', inputs });
    const a = snap.record.answer as Extract<PooledAnswer, { kind: 'embeddings' }>;
    const m = a.similarity!;
    expect(m.length).toBe(3);
    for (let i = 0; i < 3; i++) expect(m[i]![i]).toBeCloseTo(1, 9);
    expect(m[0]![2]).toBeCloseTo(1, 9);
    // Seeded random 1024-value unit vectors: nearly orthogonal.
    expect(Math.abs(m[0]![1]!)).toBeLessThan(0.2);
    expect(m[1]![0]).toBe(m[0]![1]);
  });

  it('keeps no digest or body size for load runs (records without raw data)', async () => {
    const spec = specFromInput(
      { targetId: 't', dialect: 'openai-embeddings', model: 'tokenscope-sim', inputs: ['x', 'y'] },
      target('openai-embeddings'),
    );
    const rec = await fireRequest(spec, { keepRaw: false });
    expect(rec.error).toBeNull();
    expect(rec.batch?.results).toBe(2);
    expect(rec.answer).toBeUndefined();
    expect(rec.requestBytes).toBeUndefined();
  });
});

describe("the debugger's rerank requests", () => {
  it('sends query, documents and top_n; keeps the ranked documents with scores and texts, best first', async () => {
    const query = 'Where is the Louvre?';
    const snap = await fire({
      targetId: 't',
      dialect: 'rerank',
      model: 'tokenscope-sim',
      prompt: query,
      inputs: DOCS,
      topN: 3,
    });
    const rec = snap.record;
    expect(rec.error).toBeNull();
    expect(rec.batch).toEqual({ inputs: 4, results: 3 });
    const a = rec.answer as Extract<PooledAnswer, { kind: 'rerank' }>;
    expect(a.kind).toBe('rerank');
    const ref = await direct('/v1/rerank', { model: 'tokenscope-sim', query, documents: DOCS, top_n: 3 });
    const results = ref.results as { index: number; relevance_score: number }[];
    expect(a.results.map((r) => [r.index, r.score])).toEqual(
      results.map((r) => [r.index, r.relevance_score]),
    );
    for (const r of a.results) expect(r.text).toBe(DOCS[r.index]);
    const scores = a.results.map((r) => r.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    expect(rec.usage?.promptTokens).toBeGreaterThan(0);
    expect(a.bodyCut).toBe(false);
    expect(JSON.parse(a.body)).toMatchObject({ results: expect.any(Array) });
  });

  it('Copy as curl: the rerank body, without -N, and the key only as a variable', () => {
    const c = curlCommand(
      { targetId: 't', dialect: 'rerank', model: 'm', prompt: 'q', inputs: ['a', 'b'], topN: 1 },
      target('rerank'),
    );
    expect(c.split(' ')[0]).toBe('curl');
    expect(c).not.toContain(' -N');
    expect(c).toContain(`${sim.url}/v1/rerank`);
    const body = JSON.parse(c.slice(c.indexOf("-d '") + 4, c.lastIndexOf("'"))) as unknown;
    expect(body).toEqual({ model: 'm', query: 'q', documents: ['a', 'b'], top_n: 1 });
    expect(c).not.toContain('sk-secret-1234');
    expect(c).toContain('-H "Authorization: Bearer $TOKENSCOPE_API_KEY"');
    const e = curlCommand(
      { targetId: 't', dialect: 'openai-embeddings', model: 'm', inputs: ['x'] },
      target('rerank'),
    );
    expect(e).toContain(`${sim.url}/v1/embeddings`);
    expect(e).toContain(`"input":["x"]`);
  });
});
