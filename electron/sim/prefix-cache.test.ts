/**
 * The simulator's prefix cache: block keys chained by prefix, the LRU's bound, and over HTTP that a
 * repeated prefix is counted in vllm:prefix_cache_hits and not prefilled again (lower TTFT).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { countChatTokens } from '../../shared/tokenizer.ts';
import { startSim, type SimOptions, type SimServer } from './index.ts';
import { blockKeys, PrefixCache } from './prefix-cache.ts';
import { KV_BLOCK_TOKENS } from './types.ts';
import { chatBody, metricValue, post, scrape, sseJson } from '../testing/sim.ts';
import { Rng } from '../../shared/prng.ts';

type Obj = Record<string, unknown>;

const WORDS = 'the of and to in is you that it he was for on are as with his they at be this'.split(' ');
/** n one-token words, seeded. */
function words(n: number, seed: number): string {
  const rng = new Rng(seed, 'prefix-test');
  return Array.from({ length: n }, () => WORDS[rng.int(WORDS.length)]!).join(' ');
}

describe('blockKeys', () => {
  it('cuts full 16-token blocks, chained: a shared prefix shares keys, the first difference breaks the chain', () => {
    const a = blockKeys({ text: words(100, 1) });
    expect(a).toHaveLength(Math.floor((100 + 1) / KV_BLOCK_TOKENS)); // BOS + 100 one-token words
    const longer = blockKeys({ text: words(100, 1) + ' ' + words(60, 2) });
    expect(longer.slice(0, a.length)).toEqual(a);
    const other = blockKeys({ text: 'different ' + words(99, 1) });
    expect(other[0]).not.toEqual(a[0]);
    expect(other.some((k) => a.includes(k))).toBe(false); // chained: no later block matches either
  });

  it('templates chat messages: turn 2 of a conversation starts with turn 1 whole', () => {
    const u1 = { role: 'user', content: words(200, 3) };
    const turn1 = blockKeys({ messages: [u1] });
    const turn2 = blockKeys({
      messages: [u1, { role: 'assistant', content: words(50, 4) }, { role: 'user', content: words(40, 5) }],
    });
    // Turn 1's generation prompt is turn 2's assistant header: every full block of turn 1 matches.
    expect(turn2.slice(0, turn1.length)).toEqual(turn1);
    expect(turn1.length).toBe(Math.floor(countChatTokens([u1]) / KV_BLOCK_TOKENS));
  });
});

describe('PrefixCache', () => {
  it('finds the leading cached blocks, never the whole prompt (the last token is computed)', () => {
    const c = new PrefixCache(1000);
    const keys = blockKeys({ text: words(159, 7) }); // 160 tokens = 10 blocks
    expect(c.admit(keys, 160)).toBe(0);
    expect(c.admit(keys, 160)).toBe(159);
    const more = blockKeys({ text: words(159, 7) + ' ' + words(80, 8) });
    expect(c.admit(more, 240)).toBe(160);
  });

  it('stays within its capacity, evicting the least recently used blocks', () => {
    const c = new PrefixCache(20);
    const a = blockKeys({ text: words(159, 9) }); // 10 blocks
    const b = blockKeys({ text: words(159, 10) });
    const d = blockKeys({ text: words(159, 11) });
    c.admit(a, 160);
    c.admit(b, 160);
    c.admit(a, 160); // a is now the most recent
    c.admit(d, 160); // evicts b
    expect(c.size).toBe(20);
    expect(c.admit(a, 160)).toBe(159);
    expect(c.admit(b, 160)).toBe(0);
  });
});

describe('over HTTP', () => {
  const sims: SimServer[] = [];
  afterEach(async () => {
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });
  async function sim(o: SimOptions): Promise<SimServer> {
    const s = await startSim({ decodeStepMs: 2, decodeStepPerSeqMs: 0, prefillMsPerToken: 0.25, ...o });
    sims.push(s);
    return s;
  }
  async function ttft(s: SimServer, messages: { role: string; content: string }[]): Promise<number> {
    const t0 = performance.now();
    const r = await fetch(s.url + '/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatBody({ messages, max_tokens: 2, ignore_eos: true })),
    });
    const reader = r.body!.getReader();
    await reader.read(); // the first chunk (role + first token)
    const t = performance.now() - t0;
    while (!(await reader.read()).done);
    return t;
  }

  it('counts hits in tokens on /metrics and prefills only the uncached tokens', async () => {
    const s = await sim({});
    const msgs = [{ role: 'user', content: words(800, 12) }];
    const prompt = countChatTokens(msgs); // 810
    const cold = await ttft(s, msgs);
    const warm = await ttft(s, msgs);
    const m = await scrape(s);
    expect(metricValue(m, 'vllm:prefix_cache_queries_total')).toBe(2 * prompt);
    // Full blocks only, as vLLM: 810 tokens hold 50 blocks = 800 cached tokens.
    const cached = Math.floor(prompt / KV_BLOCK_TOKENS) * KV_BLOCK_TOKENS;
    expect(metricValue(m, 'vllm:prefix_cache_hits_total')).toBe(cached);
    expect(s.state().prefixCacheHits).toBe(cached);
    // Cold: 2 ms + 810 × 0.25 ms ≈ 204 ms of prefill step; warm: 2 ms + 10 tokens. Margin: half of it.
    expect(cold - warm).toBeGreaterThan(0.5 * prompt * 0.25);
    const body = await post(s, '/v1/chat/completions', chatBody({ messages: msgs, max_tokens: 2 }));
    expect(sseJson(body.text).length).toBeGreaterThan(0);
  });

  it('--no-prefix-caching: hits stay 0 and a repeat costs the whole prefill again', async () => {
    const s = await sim({ prefixCaching: false });
    const msgs = [{ role: 'user', content: words(800, 13) }];
    await ttft(s, msgs);
    const again = await ttft(s, msgs);
    const m = await scrape(s);
    expect(metricValue(m, 'vllm:prefix_cache_hits_total')).toBe(0);
    expect(metricValue(m, 'vllm:prefix_cache_queries_total')).toBe(2 * countChatTokens(msgs));
    expect(again).toBeGreaterThan(0.8 * countChatTokens(msgs) * 0.25);
    expect(m).toContain('enable_prefix_caching="False"');
  });

  /** The final usage of a streamed chat request with include_usage. */
  async function usageOf(s: SimServer, messages: { role: string; content: string }[]): Promise<Obj> {
    const body = chatBody({ messages, max_tokens: 2, stream_options: { include_usage: true } });
    const r = await post(s, '/v1/chat/completions', body);
    const withUsage = sseJson(r.text).filter((c) => c.usage);
    return withUsage[withUsage.length - 1]!.usage as Obj;
  }

  it("reports the cached part of a prompt in the usage chunk's prompt_tokens_details, unset when none (as vLLM)", async () => {
    const s = await sim({});
    const msgs = [{ role: 'user', content: words(400, 21) }];
    const first = await usageOf(s, msgs);
    expect(first.prompt_tokens_details).toBeUndefined(); // vLLM: `and num_cached_tokens` — 0 leaves it unset
    const second = await usageOf(s, msgs);
    const cached = Math.floor(countChatTokens(msgs) / KV_BLOCK_TOKENS) * KV_BLOCK_TOKENS;
    expect(second.prompt_tokens_details).toEqual({ cached_tokens: cached });
    const off = await sim({ promptTokensDetails: false });
    await usageOf(off, msgs);
    expect((await usageOf(off, msgs)).prompt_tokens_details).toBeUndefined();
  });

  it('POST /reset_prefix_cache (vLLM) and /flush_cache (SGLang) empty the cache; SGLang refuses while busy', async () => {
    const s = await sim({});
    const msgs = [{ role: 'user', content: words(400, 22) }];
    await usageOf(s, msgs);
    const reset = await fetch(s.url + '/reset_prefix_cache', { method: 'POST' });
    expect(reset.status).toBe(200);
    expect(await reset.text()).toBe('');
    expect((await usageOf(s, msgs)).prompt_tokens_details).toBeUndefined(); // cold again
    expect((await usageOf(s, msgs)).prompt_tokens_details).toBeDefined();
    const flush = await fetch(s.url + '/flush_cache', { method: 'GET' });
    expect(flush.status).toBe(200);
    expect(await flush.text()).toMatch(/^Cache flushed\./);
    expect((await usageOf(s, msgs)).prompt_tokens_details).toBeUndefined();
    // A long request running: SGLang's scheduler refuses to flush, with 400 and the same text.
    const long = fetch(s.url + '/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatBody({ messages: msgs, max_tokens: 200, ignore_eos: true })),
    });
    const res = await long;
    const reader = res.body!.getReader();
    await reader.read();
    const busy = await fetch(s.url + '/flush_cache', { method: 'POST' });
    expect(busy.status).toBe(400);
    expect(await busy.text()).toMatch(/not be performed/);
    while (!(await reader.read()).done);
    const off = await sim({ cacheEndpoints: false });
    expect((await fetch(off.url + '/reset_prefix_cache', { method: 'POST' })).status).toBe(404);
  });
});
