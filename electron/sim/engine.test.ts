/**
 * The serving model, observed from outside over HTTP: determinism, continuous batching with a
 * waiting queue, step time growing with the batch, stream interval, EOS / min_tokens /
 * ignore_eos, client aborts, and /metrics counters matching what was served.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim, type SimOptions, type SimServer } from './index.ts';
import { until } from '../testing/until.ts';
import { chatBody, choice0, median, metricValue, post, scrape, sseJson } from '../testing/sim.ts';

type Obj = Record<string, unknown>;

const sims: SimServer[] = [];
async function sim(opts: SimOptions = {}): Promise<SimServer> {
  const s = await startSim({
    decodeStepMs: 2,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
    groundTruth: true,
    ...opts,
  });
  sims.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const contentOf = (text: string): string =>
  sseJson(text)
    .map((c) => ((c.choices as Obj[])[0]?.delta as Obj | undefined)?.content ?? '')
    .join('');

/** Gaps between consecutive token-carrying writes of one request, from the ground truth. */
function tokenGaps(s: SimServer, requestId: string): number[] {
  const t = s
    .groundTruth()
    .filter((r) => r.requestId === requestId && r.tokens > 0)
    .map((r) => r.tMs);
  return t.slice(1).map((x, i) => x - (t[i] as number));
}

describe('determinism', () => {
  it('same seed and same requests give the same text and token counts; another seed does not', async () => {
    const run = async (seed: number) => {
      const s = await sim({ seed });
      const out: string[] = [];
      for (const p of ['Why is the sky blue?', 'Tell me a story.']) {
        const r = await post(
          s,
          '/v1/chat/completions',
          chatBody({ messages: [{ role: 'user', content: p }], max_tokens: 40, ignore_eos: false }),
        );
        // An id is 8 hex digits of this simulator instance, then 24 seeded: only the latter repeat.
        const id = r.headers.get('x-request-id') ?? '';
        expect(id).toMatch(/^[0-9a-f]{32}$/);
        out.push(contentOf(r.text), String(sseJson(r.text).length), id.slice(8));
        instances.add(id.slice(0, 8));
      }
      return out;
    };
    const instances = new Set<string>();
    const a = await run(7);
    expect(await run(7)).toEqual(a);
    expect(await run(8)).not.toEqual(a);
    // Three simulators, three instance prefixes: two never answer with the same id.
    expect(instances.size).toBe(3);
  });

  it('a request seed makes the text independent of arrival order', async () => {
    const s = await sim();
    const body = chatBody({ seed: 42, max_tokens: 12 });
    const first = contentOf((await post(s, '/v1/chat/completions', body)).text);
    await post(s, '/v1/chat/completions', chatBody({ max_tokens: 3 }));
    expect(contentOf((await post(s, '/v1/chat/completions', body)).text)).toBe(first);
  });
});

describe('continuous batching', () => {
  it('with maxNumSeqs=2 and 4 concurrent requests, two wait, and queue time is measured', async () => {
    const s = await sim({ maxNumSeqs: 2, decodeStepMs: 3 });
    const before = await scrape(s);
    const done = Promise.all(
      [0, 1, 2, 3].map(() => post(s, '/v1/chat/completions', chatBody({ max_tokens: 20 }))),
    );
    let sawWaiting = false;
    let sawRunning = false;
    let finished = false;
    void done.then(() => (finished = true));
    await until(async () => {
      const m = await scrape(s);
      sawWaiting ||= metricValue(m, 'vllm:num_requests_waiting') === 2;
      sawRunning ||= metricValue(m, 'vllm:num_requests_running') === 2;
      return (sawWaiting && sawRunning) || finished;
    });
    expect(sawWaiting).toBe(true);
    expect(sawRunning).toBe(true);
    await done;
    const after = await scrape(s);
    expect(metricValue(after, 'vllm:request_queue_time_seconds_count')).toBe(4);
    const queueSum =
      metricValue(after, 'vllm:request_queue_time_seconds_sum') -
      (metricValue(before, 'vllm:request_queue_time_seconds_sum') || 0);
    expect(queueSum).toBeGreaterThan(2 * 0.04); // two requests waited ~20 steps of 3 ms
    expect(metricValue(after, 'vllm:num_requests_waiting')).toBe(0);
  });

  it('admission is also limited by KV capacity (prompt + max tokens reserved)', async () => {
    const s = await sim({ kvCacheTokens: 100 });
    const reqs = [0, 1].map(() => post(s, '/v1/chat/completions', chatBody({ max_tokens: 60 })));
    await until(() => s.state().running === 1 && s.state().waiting === 1);
    const kv = metricValue(await scrape(s), 'vllm:kv_cache_usage_perc');
    expect(kv).toBeGreaterThan(0); // prompt + generated tokens of the running request, in 16-token blocks
    expect(kv).toBeLessThanOrEqual(1);
    await Promise.all(reqs);
    expect(s.state().finished.length).toBe(2);
  });

  it('step time grows with the batch size (from ground truth)', async () => {
    const s = await sim({ decodeStepMs: 3, decodeStepPerSeqMs: 1 });
    const one = await post(s, '/v1/chat/completions', chatBody({ max_tokens: 25 }));
    const single = median(tokenGaps(s, one.headers.get('x-request-id') ?? ''));
    const batch = await Promise.all(
      [...Array(8).keys()].map(() => post(s, '/v1/chat/completions', chatBody({ max_tokens: 25 }))),
    );
    const batched = median(tokenGaps(s, batch[0]?.headers.get('x-request-id') ?? ''));
    expect(single).toBeGreaterThan(3.5);
    expect(single).toBeLessThan(10);
    expect(batched).toBeGreaterThan(single + 5); // 3 + 8x1 = 11 ms vs 4 ms
  });
});

describe('stream interval and lengths', () => {
  it('streamInterval=3: first token alone, then 3 tokens per chunk, remainder at the end', async () => {
    const s = await sim({ streamInterval: 3 });
    const r = await post(
      s,
      '/v1/chat/completions',
      chatBody({ max_tokens: 11, stream_options: { include_usage: true, continuous_usage_stats: true } }),
    );
    const counts = sseJson(r.text).map((c) => (c.usage as Obj).completion_tokens as number);
    const deltas = counts.slice(1, -1).map((c, i) => c - (counts[i] as number));
    expect(deltas).toEqual([1, 3, 3, 3, 1]);
    const gt = s.groundTruth().filter((g) => g.requestId === r.headers.get('x-request-id') && g.tokens > 0);
    expect(gt.map((g) => g.tokens)).toEqual([1, 3, 3, 3, 1]);
    // The first write says when its request had been read whole (the server-side time to it).
    const all = s.groundTruth().filter((g) => g.requestId === r.headers.get('x-request-id'));
    expect(all[0]!.index).toBe(0);
    expect(all[0]!.arrivalMs).toBeGreaterThan(0);
    expect(all[0]!.arrivalMs!).toBeLessThanOrEqual(all[0]!.tMs);
    expect(all.slice(1).every((g) => g.arrivalMs === undefined)).toBe(true);
  });

  it('stop at EOS, min_tokens postpones it, ignore_eos runs to max_tokens', async () => {
    const s = await sim();
    const usageOf = async (extra: Obj) => {
      const r = await post(
        s,
        '/v1/chat/completions',
        chatBody({ max_tokens: 80, ignore_eos: false, stream_options: { include_usage: true }, ...extra }),
      );
      const chunks = sseJson(r.text);
      return {
        n: (chunks.at(-1)?.usage as Obj).completion_tokens as number,
        finish: choice0(chunks.at(-2) as Obj).finish_reason,
      };
    };
    let seed = 0;
    let natural = await usageOf({ seed });
    while (natural.finish !== 'stop' && seed < 50) natural = await usageOf({ seed: ++seed });
    expect(natural.finish).toBe('stop');
    expect(await usageOf({ seed, min_tokens: natural.n + 4 })).toEqual({ n: natural.n + 5, finish: 'stop' });
    expect(await usageOf({ seed, ignore_eos: true })).toEqual({ n: 80, finish: 'length' });
  });
});

describe('client abort', () => {
  it('frees the slot at once, counts an abort, and the stream stops', async () => {
    const s = await sim({ decodeStepMs: 5 });
    const ac = new AbortController();
    const res = await fetch(s.url + '/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatBody({ max_tokens: 5000 })),
      signal: ac.signal,
    });
    const id = res.headers.get('x-request-id') ?? '';
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await until(() => s.groundTruth().filter((g) => g.requestId === id).length >= 4);
    expect(metricValue(await scrape(s), 'vllm:num_requests_running')).toBe(1);
    ac.abort();
    await reader.read().catch(() => undefined);
    await until(async () => metricValue(await scrape(s), 'vllm:num_requests_running') === 0);
    const m = await scrape(s);
    expect(metricValue(m, 'vllm:request_success_total', { finished_reason: 'abort' })).toBe(1);
    const written = s.groundTruth().filter((g) => g.requestId === id).length;
    // Let the engine run 10 more steps for another request: the aborted one must get nothing.
    await post(s, '/v1/chat/completions', chatBody({ max_tokens: 10 }));
    expect(s.groundTruth().filter((g) => g.requestId === id).length).toBe(written);
    expect(s.state().activeStreams).toBe(0);
  });
});

describe('/metrics counters', () => {
  it('increase by exactly the tokens served', async () => {
    const s = await sim();
    const before = await scrape(s);
    const replies = await Promise.all(
      [5, 9, 13].map((n) =>
        post(s, '/v1/chat/completions', chatBody({ max_tokens: n, stream_options: { include_usage: true } })),
      ),
    );
    const usages = replies.map((r) => sseJson(r.text).at(-1)?.usage as Obj);
    const sum = (k: string) => usages.reduce((a, u) => a + (u[k] as number), 0);
    const after = await scrape(s);
    const delta = (name: string, labels = {}) =>
      metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(delta('vllm:generation_tokens_total')).toBe(sum('completion_tokens'));
    expect(delta('vllm:prompt_tokens_total')).toBe(sum('prompt_tokens'));
    expect(delta('vllm:request_success_total', { finished_reason: 'length' })).toBe(3);
    expect(metricValue(after, 'vllm:time_to_first_token_seconds_count')).toBe(3);
    expect(metricValue(after, 'vllm:inter_token_latency_seconds_count')).toBe(sum('completion_tokens') - 3);
    expect(metricValue(after, 'vllm:e2e_request_latency_seconds_bucket', { le: '+Inf' })).toBe(3);
    const gtTokens = s.groundTruth().reduce((a, g) => a + g.tokens, 0);
    expect(gtTokens).toBe(sum('completion_tokens'));
  });
});

describe('jitter and shutdown', () => {
  it('jitter varies step times (seeded)', async () => {
    const s = await sim({ decodeStepMs: 8, jitter: 0.9 });
    const r = await post(s, '/v1/chat/completions', chatBody({ max_tokens: 20 }));
    const gaps = tokenGaps(s, r.headers.get('x-request-id') ?? '');
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThan(5);
  });

  it('close() ends open streams, stops the engine and resolves', async () => {
    const s = await startSim({ decodeStepMs: 5 });
    const res = await fetch(s.url + '/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify(chatBody({ max_tokens: 5000 })),
    });
    const body = res.text().catch((e: unknown) => `error: ${String(e)}`);
    await until(() => s.state().running === 1);
    await s.close();
    const text = await body;
    expect(text).not.toContain('[DONE]');
    expect(s.state()).toMatchObject({ running: 0, waiting: 0, activeStreams: 0 });
    await expect(fetch(s.url + '/health')).rejects.toThrow();
  });
});
