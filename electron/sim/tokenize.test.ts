/**
 * The simulator's POST /tokenize (tokenize.ts) in vLLM's and llama.cpp's request shapes, and its
 * count of a streamed text: exactly the tokens the stream carried (usage.completion_tokens).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';
import { chatBody, post, sseJson } from '../testing/sim.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});
afterAll(() => sim.close());

describe('POST /tokenize', () => {
  it('answers vLLM’s {prompt} and llama.cpp’s {content} alike: tokens and count', async () => {
    const v = JSON.parse(
      (await post(sim, '/tokenize', { model: 'tokenscope-sim', prompt: 'The cache, grows.' })).text,
    );
    expect(v).toMatchObject({ count: 5 });
    expect(v.tokens).toHaveLength(5); // "The" " cache" "," " grows" "."
    const l = JSON.parse(
      (await post(sim, '/tokenize', { content: 'The cache, grows.', add_special: false })).text,
    );
    expect(l.tokens).toEqual(v.tokens);
    expect((await post(sim, '/tokenize', { text: 'x' })).status).toBe(400);
    expect((await post(sim, '/tokenize', '{nope')).status).toBe(400);
  });

  it('counts a generated text as the tokens its stream carried', async () => {
    const body = chatBody({ max_tokens: 37, stream_options: { include_usage: true } });
    const chunks = sseJson((await post(sim, '/v1/chat/completions', body)).text);
    let text = '';
    let usage = 0;
    for (const c of chunks) {
      const choices = c.choices as { delta?: { content?: string } }[] | undefined;
      text += choices?.[0]?.delta?.content ?? '';
      const u = c.usage as { completion_tokens?: number } | null | undefined;
      if (u?.completion_tokens) usage = u.completion_tokens;
    }
    const n = JSON.parse((await post(sim, '/tokenize', { prompt: text })).text).count as number;
    // EOS (if sampled) is a token of the usage with no text.
    expect(usage - n).toBeGreaterThanOrEqual(0);
    expect(usage - n).toBeLessThanOrEqual(1);
    expect(n).toBeGreaterThan(0);
  });
});
