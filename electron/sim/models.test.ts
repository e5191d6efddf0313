/**
 * The simulator serving several model names (a model mix's target): /v1/models lists them, each
 * answers under its own name, an unknown name gets vLLM's 404 body
 * (vllm/entrypoints/openai/serving_engine.py `_check_model`: "The model `X` does not exist.",
 * NotFoundError, 404), and `--extra-model` specs are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';
import { parseExtraModel, resolveExtraModels } from './models.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({
    port: 0,
    model: 'base',
    extraModels: [
      { name: 'lora-a', speedup: 2 },
      { name: 'org/lora:b', speedup: 0.5 },
    ],
    decodeStepMs: 2,
  });
});
afterAll(async () => {
  await sim.close();
});

async function chat(model: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${sim.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
  });
  return { status: res.status, text: await res.text() };
}

describe('a simulator serving several models', () => {
  it('lists every name in /v1/models, the extra ones with the first as parent', async () => {
    const body = (await (await fetch(`${sim.url}/v1/models`)).json()) as {
      data: { id: string; root: string; parent: string | null }[];
    };
    expect(body.data.map((m) => [m.id, m.root, m.parent])).toEqual([
      ['base', 'base', null],
      ['lora-a', 'base', 'base'],
      ['org/lora:b', 'base', 'base'],
    ]);
  });

  it('answers each name under its own name', async () => {
    for (const m of ['base', 'lora-a', 'org/lora:b']) {
      const r = await chat(m);
      expect(r.status).toBe(200);
      expect(r.text).toContain(`"model":${JSON.stringify(m)}`);
    }
  });

  it("rejects a name it does not serve with vLLM's 404 NotFoundError body", async () => {
    const r = await chat('lora-c');
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text)).toEqual({
      error: { message: 'The model `lora-c` does not exist.', type: 'NotFoundError', param: null, code: 404 },
    });
  });

  it('empties every engine’s prefix cache on /reset_prefix_cache', async () => {
    const res = await fetch(`${sim.url}/reset_prefix_cache`, { method: 'POST' });
    expect(res.status).toBe(200);
  });
});

describe('--extra-model specs', () => {
  it('reads name=speedup, splitting at the last =', () => {
    expect(parseExtraModel('lora-a=2.5')).toEqual({ ok: true, value: { name: 'lora-a', speedup: 2.5 } });
    expect(parseExtraModel('org/m:7b')).toEqual({ ok: true, value: { name: 'org/m:7b', speedup: 1 } });
    expect(parseExtraModel('a=b=0.5')).toEqual({ ok: true, value: { name: 'a=b', speedup: 0.5 } });
  });

  it('refuses no name, or a speedup that is no number in range', () => {
    for (const bad of ['=2', 'a=', 'a=fast', 'a=0', 'a=1000']) expect(parseExtraModel(bad).ok).toBe(false);
  });

  it('drops the first model’s name and duplicates, and clamps speedups', () => {
    expect(
      resolveExtraModels('base', [
        { name: 'base', speedup: 2 },
        { name: 'x', speedup: 1e9 },
        { name: 'x', speedup: 1 },
      ]),
    ).toEqual([{ name: 'x', speedup: 100 }]);
  });
});
