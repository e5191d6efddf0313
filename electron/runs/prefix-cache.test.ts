/**
 * Prefix caching end to end against the simulator (whose cache works like vLLM's, in 16-token
 * blocks, and which reports cached_tokens as vLLM does with --enable-prompt-tokens-details):
 * shared prefix groups give the hits the workload expected, a reset before the run empties the cache
 * of an earlier run, a warm start is noticed, cache busting defeats the cache, and a server without a
 * reset endpoint is said to have none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { runAgainst } from '../testing/runs.ts';
import { loadPrompts } from './prompts/prompts.ts';
import { groupOf } from '../../shared/runs/workload/prefix-groups.ts';
import { workload } from '../testing/runs.ts';
import { NO_RESET_ENDPOINT } from './prefix-cache-reset.ts';

let sim: SimServer;
let bare: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 2, decodeStepPerSeqMs: 0, prefillMsPerToken: 0.2 });
  bare = await startSim({ port: 0, decodeStepMs: 2, cacheEndpoints: false });
});
afterAll(async () => {
  await sim.close();
  await bare.close();
});

const groups = (seed: number) => ({
  seed,
  requests: 24,
  maxConcurrency: 1, // one at a time: a group's second request always finds the first one cached
  testRequest: true,
  resetPrefixCache: true,
  prompts: {
    type: 'synthetic' as const,
    inputLen: { type: 'fixed' as const, value: 40 },
    outputLen: { type: 'fixed' as const, value: 4 },
    prefixGroups: { groups: 5, prefixLen: 200 },
  },
});

describe('prefix groups against the simulator', () => {
  it('each request starts with its group prefix; the hits are those expected, hit TTFT below miss TTFT', async () => {
    const w = workload(groups(11));
    const p = await loadPrompts(w.prompts, w.seed, process.cwd());
    const a = p.at(0);
    const sameGroup = Array.from({ length: 40 }, (_, i) => i).find(
      (i) => i > 0 && groupOf(11, 'main', i, 5) === groupOf(11, 'main', 0, 5),
    )!;
    const b = p.at(sameGroup);
    const head = a.prompt!.split('\n')[0]!;
    expect(head.split(' ')).toHaveLength(200);
    expect(b.prompt!.startsWith(head + '\n')).toBe(true);
    expect(a.prompt).not.toEqual(b.prompt); // the suffixes differ

    const r = await runAgainst(sim, groups(11));
    expect(r.header.prefixCacheReset).toEqual({
      ok: true,
      endpoint: '/reset_prefix_cache',
      status: 200,
      message: 'reset',
    });
    const c = r.summary.prefixCache!;
    expect(c.reported).toBe(24);
    // Every group's first request misses, every later one hits its prefix's full blocks.
    const firsts = new Set(Array.from({ length: 24 }, (_, i) => groupOf(11, 'main', i, 5))).size;
    expect(c.expected!.hitRequests).toBe(24 - firsts);
    expect(c.hitRequests).toBe(24 - firsts);
    // Per hit the simulator caches the blocks of template + prefix (a few template tokens ahead of
    // the prefix shift the boundary by at most one block).
    expect(Math.abs(c.cachedTokens - c.expected!.cachedTokens)).toBeLessThanOrEqual(16 * c.hitRequests);
    expect(c.ttftHit!.median).toBeLessThan(c.ttftMiss!.median);
    // The per-request numbers are the lines' own usage.
    const perLine = r.lines.filter((l) => !l.warmup).map((l) => l.usage?.cachedTokens ?? 0);
    expect(perLine.reduce((x, y) => x + y, 0)).toBe(c.cachedTokens);
  });

  it("the server's own counters over the run, beside the requests' cached tokens", async () => {
    const r = await runAgainst(
      sim,
      { ...groups(13), testRequest: false },
      {
        serverMetrics: { url: sim.url, intervalMs: 250 },
      },
    );
    const c = r.summary.prefixCache!;
    const pc = r.summary.server!.prefixCache!;
    // The simulator counts what it took from its cache in prompt tokens (vllm:prefix_cache_hits):
    // over the run, exactly what the requests reported.
    expect(pc.source).toBe('counters');
    expect(pc.hitTokens).toBe(c.cachedTokens);
    expect(pc.queryTokens).toBe(c.promptTokens);
    expect(pc.hitRate).toBeCloseTo(c.ratio, 12);
  });

  it('a rerun without a reset starts warm and says so; with a reset it starts cold again', async () => {
    const seed = 12;
    await runAgainst(sim, { ...groups(seed), resetPrefixCache: true });
    const warm = await runAgainst(sim, { ...groups(seed), resetPrefixCache: false });
    expect(warm.header.warmCacheTokens).toBeGreaterThan(0);
    expect(warm.header.prefixCacheReset).toBeUndefined();
    expect(warm.summary.prefixCache!.hitRequests).toBe(24); // every group was cached by the first run
    const cold = await runAgainst(sim, { ...groups(seed), resetPrefixCache: true });
    expect(cold.header.warmCacheTokens).toBeUndefined();
    expect(cold.summary.prefixCache!.hitRequests).toBe(cold.summary.prefixCache!.expected!.hitRequests);
  });

  it('cache busting: the same seed twice, not one block shared', async () => {
    const bust = {
      requests: 10,
      maxConcurrency: 1,
      testRequest: false,
      prompts: {
        type: 'synthetic' as const,
        inputLen: { type: 'fixed' as const, value: 120 },
        cacheBust: true,
      },
    };
    await runAgainst(sim, bust);
    const again = await runAgainst(sim, bust);
    expect(again.lines.every((l) => (l.usage?.cachedTokens ?? 0) === 0)).toBe(true);
    expect(again.summary.prefixCache).toBeUndefined(); // nothing cached, nothing reported (vLLM's omission)
  });

  it('a server without a reset endpoint: the run goes on and the header says why', async () => {
    const r = await runAgainst(bare, { ...groups(13), requests: 3 });
    expect(r.header.prefixCacheReset).toEqual({
      ok: false,
      endpoint: null,
      status: null,
      message: NO_RESET_ENDPOINT,
    });
    expect(r.summary.vllm.completed).toBe(3);
  });

  it('refuses cacheBust with prefixGroups, naming the field', () => {
    expect(() =>
      workload({
        prompts: { type: 'synthetic', cacheBust: true, prefixGroups: { groups: 2, prefixLen: 32 } },
      }),
    ).toThrow(/cacheBust/);
  });
});
