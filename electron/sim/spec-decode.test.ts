/**
 * The simulator's speculative mode over HTTP: chunks carry 1 + the accepted run, its /metrics
 * carry vLLM's spec_decode families, and both agree exactly with what it drew and sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim, type SimOptions, type SimServer } from './index.ts';
import { chatBody, metricValue, post, scrape, sseJson } from '../testing/sim.ts';
import { expectedSpec, parseSpecAccept, resolveSpec } from './spec-decode.ts';
import { parsePrometheus } from '../../shared/metrics/prom-parse.ts';
import { readSpecDecode } from '../../shared/metrics/spec-decode.ts';

const sims: SimServer[] = [];
async function sim(opts: SimOptions = {}): Promise<SimServer> {
  const s = await startSim({
    decodeStepMs: 1,
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

/** Tokens per token-carrying write of each request, in order, from the simulator's ground truth. */
function chunkPatterns(s: SimServer): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of s.groundTruth()) {
    if (r.kind !== 'chunk' || r.tokens === 0) continue;
    let list = out.get(r.requestId);
    if (!list) out.set(r.requestId, (list = []));
    list.push(r.tokens);
  }
  return out;
}

describe('speculative mode', () => {
  it('streams 1 + the accepted run per step; /metrics, its counters and the chunks agree exactly', async () => {
    const s = await sim({ specK: 3, specAccept: [0.8, 0.6, 0.5], seed: 7 });
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(
          s,
          '/v1/chat/completions',
          chatBody({ max_tokens: 40 + i, messages: [{ role: 'user', content: `q${i}` }] }),
        ),
      ),
    );
    for (const r of replies) expect(r.status).toBe(200);
    const truth = s.state().specDecode!;
    const text = await scrape(s);
    const L = { model_name: 'tokenscope-sim', engine: '0' };
    expect(metricValue(text, 'vllm:spec_decode_num_drafts_total', L)).toBe(truth.drafts);
    expect(metricValue(text, 'vllm:spec_decode_num_draft_tokens_total', L)).toBe(truth.draftTokens);
    expect(metricValue(text, 'vllm:spec_decode_num_accepted_tokens_total', L)).toBe(truth.accepted);
    for (let i = 0; i < 3; i++)
      expect(
        metricValue(text, 'vllm:spec_decode_num_accepted_tokens_per_pos_total', {
          ...L,
          position: String(i),
        }),
      ).toBe(truth.perPosition[i]);
    expect(truth.draftTokens).toBe(3 * truth.drafts);
    // Per position: draft i + 1 is only accepted after draft i (the verifier stops at a rejection).
    expect(truth.perPosition[0]).toBeGreaterThanOrEqual(truth.perPosition[1]!);
    expect(truth.perPosition[1]).toBeGreaterThanOrEqual(truth.perPosition[2]!);
    expect(truth.perPosition.reduce((a, b) => a + b, 0)).toBe(truth.accepted);

    const patterns = chunkPatterns(s);
    expect(patterns.size).toBe(12);
    let drafted = 0;
    let acceptedSent = 0;
    let tokens = 0;
    for (const p of patterns.values()) {
      expect(p[0]).toBe(1); // the prefill step: no draft
      for (const n of p.slice(1)) {
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(4);
        drafted++;
        acceptedSent += n - 1;
      }
      tokens += p.reduce((a, b) => a + b, 0);
    }
    // One verification step per chunk after the first; what was accepted and not sent was past the end.
    expect(drafted).toBe(truth.drafts);
    expect(acceptedSent + truth.discarded).toBe(truth.accepted);
    expect(tokens).toBe(metricValue(text, 'vllm:generation_tokens_total', L));
    // Several tokens in one chunk: the stream shows the accepted runs.
    expect([...patterns.values()].some((p) => p.some((n) => n > 1))).toBe(true);
    // The SSE itself: a chunk's delta holds that step's tokens together.
    const chunks = sseJson(replies[0]!.text).filter((c) => (c.choices as unknown[]).length > 0);
    expect(chunks.length).toBeLessThan(40);
  });

  it("reads back through Tokenscope's own /metrics reader", async () => {
    const s = await sim({ specK: 2, specAccept: [1, 0] });
    await post(s, '/v1/chat/completions', chatBody({ max_tokens: 31 }));
    const r = readSpecDecode(parsePrometheus(await scrape(s)));
    // p = (1, 0): every step accepts exactly one draft: 2 tokens a chunk after the first.
    expect(r?.counters).toEqual({ drafts: 15, draftTokens: 30, accepted: 15, perPosition: [15, 0] });
    expect(s.state().specDecode?.discarded).toBe(0);
  });

  it('is off by default: no spec_decode families, one token a chunk', async () => {
    const s = await sim();
    await post(s, '/v1/chat/completions', chatBody({ max_tokens: 10 }));
    const text = await scrape(s);
    expect(text).not.toContain('spec_decode');
    expect(s.state().specDecode).toBeNull();
    expect([...chunkPatterns(s).values()][0]).toEqual(new Array(10).fill(1));
  });

  it('a metrics restart zeroes the counters, as a server restart', async () => {
    const s = await sim({ specK: 2, specAccept: [0.5] });
    await post(s, '/v1/chat/completions', chatBody({ max_tokens: 20 }));
    expect(s.state().specDecode!.drafts).toBeGreaterThan(0);
    await fetch(s.url + '/sim/restart-metrics', { method: 'POST' });
    expect(metricValue(await scrape(s), 'vllm:spec_decode_num_drafts_total')).toBe(0);
  });
});

describe('configuration', () => {
  it('repeats the last probability, clamps, and K 0 is off', () => {
    expect(resolveSpec(4, [0.9, 0.5])).toEqual({ k: 4, accept: [0.9, 0.5, 0.5, 0.5] });
    expect(resolveSpec(2, [1.5, -1])).toEqual({ k: 2, accept: [1, 0] });
    expect(resolveSpec(0, [0.5])).toBeNull();
    expect(resolveSpec(undefined, undefined)).toBeNull();
  });

  it('expected window values: per position the product, length 1 + their sum, rate their mean', () => {
    const e = expectedSpec({ k: 3, accept: [0.8, 0.5, 0.5] });
    expect(e.perPosition.map((x) => +x.toFixed(12))).toEqual([0.8, 0.4, 0.2]);
    expect(e.meanLength).toBeCloseTo(2.4, 12);
    expect(e.rate).toBeCloseTo(1.4 / 3, 12);
  });

  it('the CLI refuses a probability out of 0..1 or an empty item', () => {
    expect(parseSpecAccept('0.8, 0.6')).toEqual([0.8, 0.6]);
    expect(typeof parseSpecAccept('0.8,1.2')).toBe('string');
    expect(typeof parseSpecAccept('0.8,,0.5')).toBe('string');
    expect(parseSpecAccept(undefined)).toEqual([]);
  });
});
