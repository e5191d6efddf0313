/**
 * Every fault kind produces its effect, in each dialect's own shape where shapes differ.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseFault, parseFault, FaultParseError } from './faults.ts';
import { startSim, type SimServer } from './index.ts';
import { Rng } from '../../shared/prng.ts';
import {
  chatBody,
  choice0,
  corpus,
  metricValue,
  ndjson,
  post,
  scrape,
  sseData,
  sseJson,
} from '../testing/sim.ts';

type Obj = Record<string, unknown>;

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ decodeStepMs: 2, decodeStepPerSeqMs: 0, groundTruth: true });
});
afterAll(() => sim.close());

const fault = (f: string) => ({ 'x-sim-fault': f });
const contentTokens = (text: string) =>
  sseJson(text).filter(
    (c) => Array.isArray(c.choices) && ((choice0(c).delta as Obj | undefined)?.content ?? '') !== '',
  ).length;

describe('parseFault', () => {
  it('parses kind[:param] and rejects unknown kinds and bad params', () => {
    expect(parseFault('stall:300')).toEqual({ kind: 'stall', param: 300 });
    expect(parseFault('no-done')).toEqual({ kind: 'no-done' });
    expect(() => parseFault('explode')).toThrow(FaultParseError);
    expect(() => parseFault('http-500:3')).toThrow(FaultParseError);
    expect(() => parseFault('reset:x')).toThrow(FaultParseError);
  });

  it('parses @rate, the fraction of requests a fault applies to, and refuses rates outside 0–1', () => {
    expect(parseFault('reset:20@0.1')).toEqual({ kind: 'reset', param: 20, rate: 0.1 });
    expect(parseFault('http-503@0.25')).toEqual({ kind: 'http-503', rate: 0.25 });
    expect(parseFault('no-done@1')).toEqual({ kind: 'no-done', rate: 1 });
    for (const bad of ['reset@', 'reset@1.5', 'reset@-0.1', 'reset@x', 'reset@0.1@0.2', 'http-503:2@0.5'])
      expect(() => parseFault(bad), bad).toThrow(FaultParseError);
    expect(() => parseFault('reset@2')).toThrow(/fraction from 0 to 1/);
  });

  it('a per-request fault with @rate applies to that seeded fraction of the requests carrying it', () => {
    const rng = new Rng(7);
    const applied = [...Array(400).keys()].map(
      () => chooseFault({ kind: 'reset', param: 3, rate: 0.1 }, null, 1, rng) !== null,
    );
    const share = applied.filter(Boolean).length / applied.length;
    expect(share).toBeGreaterThan(0.06);
    expect(share).toBeLessThan(0.14);
    // Not applied means no fault at all, not the global one in its place.
    const never = { kind: 'stall', rate: 0 } as const;
    expect(chooseFault(never, { kind: 'no-done' }, 1, new Rng(1))).toBeNull();
    // The global fault's own @rate wins over the rate given apart.
    const g = new Rng(3);
    const globalShare =
      [...Array(400).keys()].filter(() => chooseFault(null, { kind: 'no-done', rate: 0.5 }, 0, g) !== null)
        .length / 400;
    expect(globalShare).toBeGreaterThan(0.4);
    expect(globalShare).toBeLessThan(0.6);
  });

  it('applies a global fault to a seeded fraction of requests', () => {
    const run = (seed: number) => {
      const rng = new Rng(seed);
      return [...Array(4000).keys()].map(() => chooseFault(null, { kind: 'no-done' }, 0.25, rng) !== null);
    };
    const a = run(1);
    expect(run(1)).toEqual(a);
    expect(run(2)).not.toEqual(a);
    const share = a.filter(Boolean).length / a.length;
    // 4000 draws: σ ≈ 0.007, so these bounds sit ~4σ from 0.25 for any seed
    expect(share).toBeGreaterThan(0.22);
    expect(share).toBeLessThan(0.28);
    // a per-request fault always wins
    expect(chooseFault({ kind: 'stall' }, { kind: 'no-done' }, 1, new Rng(1))).toEqual({ kind: 'stall' });
  });

  it('the server applies options.fault to the same seeded subset of requests every run', async () => {
    const pattern = async () => {
      const s = await startSim({ decodeStepMs: 1, fault: 'no-done', faultRate: 0.5, seed: 3 });
      const out: boolean[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await post(s, '/v1/chat/completions', chatBody({ max_tokens: 1 }));
        out.push(!r.text.includes('[DONE]'));
        expect(r.headers.get('x-sim-fault') === 'no-done').toBe(out[i]);
      }
      await s.close();
      return out;
    };
    const a = await pattern();
    expect(await pattern()).toEqual(a);
    expect(a.some(Boolean) && !a.every(Boolean)).toBe(true);
  });

  it('a body sim_fault with @rate hits a seeded subset; the header says which requests got it', async () => {
    const s = await startSim({ decodeStepMs: 1, seed: 3 });
    try {
      const hit: boolean[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await post(
          s,
          '/v1/chat/completions',
          chatBody({ max_tokens: 1, sim_fault: 'no-done@0.5' }),
        );
        const faulted = !r.text.includes('[DONE]');
        hit.push(faulted);
        expect(r.headers.get('x-sim-fault')).toBe(faulted ? 'no-done@0.5' : null);
      }
      expect(hit.some(Boolean) && !hit.every(Boolean)).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe('http-NNN', () => {
  it('answers with the status and the dialect error body before any stream', async () => {
    for (const status of [400, 404, 429, 500, 503]) {
      const r = await post(sim, '/v1/chat/completions', chatBody(), fault(`http-${status}`));
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toBe('application/json');
      expect(keys(JSON.parse(r.text).error)).toEqual(['message', 'type', 'param', 'code']);
      expect(JSON.parse(r.text).error.code).toBe(status);
    }
    const o = await post(sim, '/api/chat', { model: 'tokenscope-sim', messages: [] }, fault('http-503'));
    expect(JSON.parse(o.text)).toEqual(JSON.parse(corpus('ollama-http-503-busy.json')));
    const t = await post(sim, '/generate_stream', { inputs: 'x' }, fault('http-429'));
    expect([t.status, JSON.parse(t.text)]).toEqual([429, JSON.parse(corpus('tgi-http-429-overloaded.json'))]);
    const l = await post(sim, '/completion', { prompt: 'x' }, fault('http-503'));
    expect(JSON.parse(l.text)).toEqual(JSON.parse(corpus('llamacpp-http-503-loading.json')));
    expect(l.headers.get('x-request-id')).toBeTruthy();
  });

  it('Anthropic: {"type":"error","error":{type,message},"request_id"}, as the corpus bodies', async () => {
    const body = { model: 'tokenscope-sim', messages: [], max_tokens: 4, stream: true };
    const a = await post(sim, '/v1/messages', body, fault('http-503'));
    const ref = JSON.parse(corpus('anthropic-http-529-overloaded.json')) as Obj;
    expect(a.status).toBe(503);
    expect(JSON.parse(a.text)).toEqual({ ...ref, request_id: `req_${a.headers.get('x-request-id')}` });
    const m = await post(sim, '/v1/messages', { ...body, model: 'claude-3-opus-99999999' });
    expect(m.status).toBe(404);
    const refNotFound = JSON.parse(corpus('anthropic-http-404-model.json')) as Obj;
    expect(JSON.parse(m.text)).toEqual({
      ...refNotFound,
      request_id: `req_${m.headers.get('x-request-id')}`,
    });
  });
});

function keys(v: unknown): string[] {
  return Object.keys(v as Obj);
}

describe('error-midstream', () => {
  it('vLLM: tokens, then a spaced-JSON error event, then [DONE]; counted as error', async () => {
    const before = metricValue(await scrape(sim), 'vllm:request_success_total', { finished_reason: 'error' });
    const r = await post(
      sim,
      '/v1/chat/completions',
      chatBody({ max_tokens: 20 }),
      fault('error-midstream:3'),
    );
    expect(r.status).toBe(200);
    const data = sseData(r.text);
    expect(data.at(-1)).toBe('[DONE]');
    expect(data.at(-2)).toMatch(
      /^\{"error": \{"message": ".+", "type": "InternalServerError", "param": null, "code": 500\}\}$/,
    );
    expect(contentTokens(r.text)).toBe(3);
    const after = metricValue(await scrape(sim), 'vllm:request_success_total', { finished_reason: 'error' });
    expect(after - before).toBe(1);
  });

  it('TGI, llama.cpp, Ollama and Responses use their own in-band shapes', async () => {
    const t = await post(
      sim,
      '/generate_stream',
      { inputs: 'x', parameters: { max_new_tokens: 9 } },
      fault('error-midstream:2'),
    );
    const te = sseJson(t.text, 'data:');
    expect(te.map((e) => Object.keys(e)[0])).toEqual(['index', 'index', 'error']);
    expect(te.at(-1)?.error_type).toBe('generation');
    const l = await post(
      sim,
      '/completion',
      { prompt: 'x', stream: true, n_predict: 9 },
      fault('error-midstream:2'),
    );
    expect(sseJson(l.text).at(-1)).toEqual({
      error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' },
    });
    expect(l.text).not.toContain('[DONE]');
    const o = await post(
      sim,
      '/api/generate',
      { model: 'tokenscope-sim', prompt: 'x', options: { num_predict: 9 } },
      fault('error-midstream:2'),
    );
    expect(ndjson(o.text).at(-1)).toEqual({ error: 'an error was encountered while running the model' });
    const rs = await post(
      sim,
      '/v1/responses',
      { input: 'x', stream: true, max_output_tokens: 9 },
      fault('error-midstream:2'),
    );
    expect(rs.text).toMatch(/event: error\n[^\n]+\n\nevent: response\.failed\n[^\n]+\n\n$/);
  });

  it('Anthropic: the error event of the corpus, byte for byte, and nothing after it', async () => {
    const ref = corpus('anthropic-error-midstream.sse');
    const errorEvent = ref.slice(ref.lastIndexOf('event: error'));
    const a = await post(
      sim,
      '/v1/messages',
      { model: 'tokenscope-sim', messages: [{ role: 'user', content: 'x' }], max_tokens: 9, stream: true },
      fault('error-midstream:2'),
    );
    expect(a.text.endsWith(errorEvent)).toBe(true);
    expect(a.text).not.toContain('message_stop');
    expect(a.text.match(/event: content_block_delta\n/g)).toHaveLength(2);
  });
});

describe('reset', () => {
  it('cuts the connection with a TCP reset after afterTokens tokens; counted as abort', async () => {
    const before = metricValue(await scrape(sim), 'vllm:request_success_total', { finished_reason: 'abort' });
    const res = await fetch(sim.url + '/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify(chatBody({ max_tokens: 50 })),
      headers: fault('reset:4'),
    });
    let text = '';
    const err = await (async () => {
      const dec = new TextDecoder();
      try {
        for await (const chunk of res.body as ReadableStream<Uint8Array>)
          text += dec.decode(chunk, { stream: true });
        return null;
      } catch (e) {
        return e as Error & { cause?: { code?: string } };
      }
    })();
    expect(err?.cause?.code).toBe('ECONNRESET');
    expect(text).not.toContain('[DONE]');
    expect(contentTokens(text.slice(0, text.lastIndexOf('\n\n') + 2))).toBeLessThanOrEqual(4);
    const after = metricValue(await scrape(sim), 'vllm:request_success_total', { finished_reason: 'abort' });
    expect(after - before).toBe(1);
  });
});

describe('stall', () => {
  it('pauses the stream once after 5 tokens for the given time', async () => {
    const r = await post(sim, '/v1/chat/completions', chatBody({ max_tokens: 10 }), fault('stall:150'));
    const id = r.headers.get('x-request-id');
    const t = sim
      .groundTruth()
      .filter((g) => g.requestId === id && g.tokens > 0)
      .map((g) => g.tMs);
    const gaps = t.slice(1).map((x, i) => x - (t[i] as number));
    expect(gaps).toHaveLength(9);
    expect(gaps[4]).toBeGreaterThanOrEqual(150);
    expect(Math.max(...gaps.filter((_, i) => i !== 4))).toBeLessThan(100);
    expect(contentTokens(r.text)).toBe(10);
  });
});

describe('malformed-json', () => {
  it('writes one unparseable event, then the stream goes on to [DONE]', async () => {
    const r = await post(sim, '/v1/chat/completions', chatBody({ max_tokens: 6 }), fault('malformed-json:2'));
    const data = sseData(r.text);
    const bad = data.filter((d) => {
      try {
        JSON.parse(d);
        return false;
      } catch {
        return d !== '[DONE]';
      }
    });
    expect(bad).toHaveLength(1);
    expect(data.indexOf(bad[0] as string)).toBe(3); // role, 2 tokens, then the broken one
    expect(data.at(-1)).toBe('[DONE]');
    const good = data.filter((d) => d !== bad[0] && d !== '[DONE]').map((d) => JSON.parse(d) as Obj);
    expect(good.filter((c) => ((choice0(c).delta as Obj).content ?? '') !== '')).toHaveLength(6);
  });
});

describe('no-done', () => {
  it('omits the terminator in each dialect', async () => {
    const c = await post(sim, '/v1/chat/completions', chatBody({ max_tokens: 3 }), fault('no-done'));
    expect(c.text).not.toContain('[DONE]');
    expect(choice0(sseJson(c.text).at(-1) as Obj).finish_reason).toBe('length');
    const o = await post(sim, '/api/chat', {
      model: 'tokenscope-sim',
      messages: [{ role: 'user', content: 'x' }],
      options: { num_predict: 3 },
      sim_fault: 'no-done',
    });
    expect(ndjson(o.text).some((l) => l.done === true)).toBe(false);
    const t = await post(
      sim,
      '/generate_stream',
      { inputs: 'x', parameters: { max_new_tokens: 3 }, ignore_eos: true },
      fault('no-done'),
    );
    expect(sseJson(t.text, 'data:').every((e) => e.generated_text === null)).toBe(true);
  });
});

describe('slow-first-byte', () => {
  it('holds headers and first byte back', async () => {
    const t0 = performance.now();
    const res = await fetch(sim.url + '/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify(chatBody({ max_tokens: 2 })),
      headers: fault('slow-first-byte:200'),
    });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(195);
    expect(await res.text()).toContain('[DONE]');
  });

  it('an invalid fault is a 400 naming the problem', async () => {
    const r = await post(sim, '/v1/chat/completions', chatBody(), fault('meltdown'));
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).error.message).toContain('unknown fault');
  });
});
