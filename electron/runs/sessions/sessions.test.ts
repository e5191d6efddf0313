/**
 * A multi-turn run against the simulator with its prefix cache: later turns resend the
 * conversation, so their TTFT is lower than turn 1's by about the prefill the cache saves; lines
 * carry session and turn; the summary has the by-turn rows; the sim's hit counter agrees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../../sim/index.ts';
import { KV_BLOCK_TOKENS } from '../../sim/types.ts';
import { runAgainst } from '../../testing/runs.ts';
import { npPercentile } from '../../testing/runs.ts';

const PREFILL_MS_PER_TOKEN = 0.25;
const FIRST = 600; // tokens of turn 1's user message
const NEXT = 24; // of each later one
const OUT = 12;
let sim: SimServer;

beforeAll(async () => {
  sim = await startSim({
    port: 0,
    decodeStepMs: 3,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: PREFILL_MS_PER_TOKEN,
  });
});
afterAll(async () => {
  await sim.close();
});

describe('a multi-turn run against the simulator', () => {
  let r: Awaited<ReturnType<typeof runAgainst>>;
  beforeAll(async () => {
    r = await runAgainst(sim, {
      requests: 6,
      maxConcurrency: 2,
      seed: 4,
      testRequest: false,
      prompts: { type: 'synthetic', inputLen: NEXT, outputLen: OUT },
      sessions: { turns: 3, thinkTimeMs: { type: 'uniform', minMs: 5, maxMs: 30 }, firstInputLen: FIRST },
    });
  }, 60_000);

  it('sends every turn of every conversation, each line naming its session and turn', () => {
    const lines = r.lines.filter((l) => !l.warmup);
    expect(lines).toHaveLength(18);
    expect(lines.every((l) => l.status === 'ok')).toBe(true);
    const keys = lines.map((l) => `${l.session}:${l.turn}`).sort();
    expect(keys).toEqual([0, 1, 2, 3, 4, 5].flatMap((s) => [1, 2, 3].map((t) => `${s}:${t}`)).sort());
    // Turn k's prompt holds the earlier turns: it grows by an answer and a message each turn.
    for (const s of [0, 1, 2, 3, 4, 5]) {
      const byTurn = [1, 2, 3].map((t) => lines.find((l) => l.session === s && l.turn === t)!);
      expect(byTurn[1]!.inputTokens!).toBeGreaterThan(byTurn[0]!.inputTokens! + OUT + NEXT);
      expect(byTurn[2]!.inputTokens!).toBeGreaterThan(byTurn[1]!.inputTokens! + OUT + NEXT);
      // A turn starts after the previous answer ended (its think time later).
      expect(byTurn[1]!.startedMs).toBeGreaterThan(byTurn[0]!.startedMs + byTurn[0]!.e2eMs!);
    }
  });

  it("later turns' TTFT is lower than turn 1's by most of the prefill the cache saves", () => {
    const lines = r.lines.filter((l) => !l.warmup);
    const first = lines.filter((l) => l.turn === 1).map((l) => l.ttftMs!);
    const later = lines.filter((l) => l.turn! >= 2).map((l) => l.ttftMs!);
    // Turn 1 prefills ~FIRST tokens (≥ 150 ms); later turns only what is new since the last cached
    // block: the answer, the new message, the template and the partial block (< 100 tokens, < 25 ms).
    // Two conversations may share a step (their prefills add up): medians, and half the saving as margin.
    const saved = (FIRST - 100) * PREFILL_MS_PER_TOKEN;
    expect(npPercentile(first, 50) - npPercentile(later, 50)).toBeGreaterThan(saved / 2);
    const rows = r.summary.byTurn!;
    expect(rows.map((x) => x.turn)).toEqual([1, 2, 3]);
    expect(rows.map((x) => x.requests)).toEqual([6, 6, 6]);
    expect(rows[0]!.ttft!.median).toBeCloseTo(npPercentile(first, 50), 6);
    expect(rows[1]!.ttft!.median).toBeLessThan(rows[0]!.ttft!.median - saved / 2);
  });

  it("the sim's prefix-cache hits cover the earlier turns' full blocks", () => {
    const st = sim.state();
    const lines = r.lines.filter((l) => !l.warmup);
    const prompts = lines.reduce((a, l) => a + l.inputTokens!, 0);
    expect(st.prefixCacheQueries).toBe(prompts);
    // Each later turn finds at least the previous turn's prompt, less its partial last block.
    let least = 0;
    for (const l of lines.filter((x) => x.turn! >= 2)) {
      const prev = lines.find((x) => x.session === l.session && x.turn === l.turn! - 1)!;
      least += Math.floor(prev.inputTokens! / KV_BLOCK_TOKENS) * KV_BLOCK_TOKENS - KV_BLOCK_TOKENS;
    }
    expect(st.prefixCacheHits).toBeGreaterThanOrEqual(least);
    expect(st.prefixCacheHits).toBeLessThan(prompts);
  });
});
