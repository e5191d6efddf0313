/**
 * Issue 28's done criterion for speculative decoding: a load run against the simulator in
 * speculative mode gets, from the server's /metrics (summary.server.specDecode) and from the
 * client's chunk pattern (shared/stats/chunk-pattern.ts), the acceptance the simulator was
 * configured with, within sampling error, across seeds.
 *
 * The bound: a step's accepted run a has P(a > i) = r_i = p_1·…·p_(i+1), so E[a] = Σ r_i and
 * E[a²] = Σ (2i + 1)·r_i. Over N independent steps the mean acceptance length 1 + ā has standard
 * error sd(a)/√N, the acceptance rate (Σa / (K·N)) sd(a)/(K√N), and the per-position rate i is a
 * binomial share with √(r_i(1 − r_i)/N). Each is asserted within 4 of those (a false alarm about
 * once in 16,000 per number). The chunk-based numbers leave each request's first and last chunk out
 * (prefill; cut by max_tokens), which shortens the count a little but biases nothing measurable
 * here (with ~70 steps a request, the stopping rule's effect is below 0.01 of a token).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim } from '../sim/index.ts';
import type { SimServer } from '../sim/types.ts';
import { expectedSpec, type SpecConfig } from '../sim/spec-decode.ts';
import { runAgainst } from '../testing/runs.ts';
import { acceptanceFromChunks, tokensPerChunk } from '../../shared/stats/chunk-pattern.ts';
import { EV_CONTENT, EV_TOKENS_EXACT } from '../../shared/request.ts';

let sim: SimServer | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

const CONFIG: SpecConfig = { k: 3, accept: [0.8, 0.6, 0.5] };

function spread(c: SpecConfig) {
  const e = expectedSpec(c);
  const ea = e.perPosition.reduce((a, b) => a + b, 0);
  const ea2 = e.perPosition.reduce((s, r, i) => s + (2 * i + 1) * r, 0);
  return { ...e, sdA: Math.sqrt(ea2 - ea * ea) };
}

async function specRun(seed: number) {
  sim = await startSim({
    seed,
    decodeStepMs: 2,
    decodeStepPerSeqMs: 0,
    specK: CONFIG.k,
    specAccept: CONFIG.accept,
  });
  return runAgainst(
    sim,
    {
      requests: 24,
      maxConcurrency: 8,
      seed,
      testRequest: false,
      // Exact tokens per chunk (vLLM's stream_options.continuous_usage_stats): without them a
      // client counts one token a chunk and sees no accepted runs.
      continuousUsage: true,
      prompts: { type: 'synthetic', inputLen: 16, outputLen: 160 },
    },
    { serverMetrics: { url: sim.url, intervalMs: 200 } },
  );
}

describe('speculative decoding: configured acceptance, from /metrics and from the chunks', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}`, async () => {
      const r = await specRun(seed);
      expect(r.summary.vllm.completed).toBe(24);
      const x = spread(CONFIG);
      const sd = r.summary.server!.specDecode!;
      expect(sd.source).toBe('counters');
      const N = sd.drafts!;
      expect(N).toBeGreaterThan(1000);
      // What the run's window saw is what the simulator drew (nothing before or after the run).
      expect(sd.drafts).toBe(sim!.state().specDecode!.drafts);
      expect(sd.draftTokens).toBe(3 * N);
      const seLen = x.sdA / Math.sqrt(N);
      expect(Math.abs(sd.meanAcceptanceLength! - x.meanLength)).toBeLessThan(4 * seLen);
      expect(Math.abs(sd.acceptanceRate! - x.rate)).toBeLessThan((4 * seLen) / 3);
      sd.perPosition!.forEach((v, i) => {
        const p = x.perPosition[i]!;
        expect(Math.abs(v - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / N));
      });

      // The client's view: tokens per chunk of every request's stream.
      const patterns = r.lines.filter((l) => l.status === 'ok').map((l) => tokensPerChunk(l.events).n);
      for (const p of patterns) expect(p[0]).toBe(1);
      const exact = r.lines.every((l) =>
        l.events.f.every((f) => (f & EV_CONTENT) === 0 || (f & EV_TOKENS_EXACT) !== 0),
      );
      expect(exact).toBe(true);
      const c = acceptanceFromChunks(patterns);
      expect(c.steps).toBeGreaterThan(0.9 * N);
      const seC = x.sdA / Math.sqrt(c.steps);
      expect(Math.abs(c.meanLength! - x.meanLength)).toBeLessThan(4 * seC);
      x.perPosition.forEach((p, i) => {
        expect(Math.abs(c.perPosition[i]! - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / c.steps));
      });
    }, 60_000);
  }
});
