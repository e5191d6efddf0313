/**
 * The non-streaming surface: GET endpoints clients probe, and the validation errors a real
 * server would give (unknown model, context too long).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';
import { chatBody, corpus, get, post } from '../testing/sim.ts';

type Obj = Record<string, unknown>;

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ decodeStepMs: 2 });
});
afterAll(() => sim.close());

describe('GET endpoints', () => {
  it('serves /v1/models, /api/tags, /health, /version and 404s the rest', async () => {
    const models = JSON.parse((await get(sim, '/v1/models')).text) as Obj;
    expect(models).toMatchObject({
      object: 'list',
      data: [{ id: 'tokenscope-sim', object: 'model', owned_by: 'vllm' }],
    });
    const tags = JSON.parse((await get(sim, '/api/tags')).text) as { models: Obj[] };
    expect(tags.models[0]?.name).toBe('tokenscope-sim:latest');
    expect((await get(sim, '/health')).status).toBe(200);
    expect(JSON.parse((await get(sim, '/version')).text)).toHaveProperty('version');
    const nf = await get(sim, '/nope');
    expect(nf.status).toBe(404);
    expect(nf.headers.get('x-request-id')).toBeTruthy();
  });

  it('rejects an unknown model like vLLM (404 NotFoundError) and Ollama (404 {"error"})', async () => {
    const v = await post(sim, '/v1/chat/completions', chatBody({ model: 'gpt-4o' }));
    expect(v.status).toBe(404);
    expect(JSON.parse(v.text)).toEqual(JSON.parse(corpus('vllm-http-404-model-not-found.json')));
    const o = await post(sim, '/api/generate', { model: 'llama3.3', prompt: 'x' });
    expect(o.status).toBe(404);
    expect(JSON.parse(o.text)).toEqual(JSON.parse(corpus('ollama-http-404-model-not-found.json')));
  });

  it('rejects prompt + max_tokens over the KV capacity with 400', async () => {
    const r = await post(sim, '/v1/chat/completions', chatBody({ max_tokens: 10_000_000 }));
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({
      error: { type: 'BadRequestError', code: 400, param: 'max_tokens' },
    });
  });
});
