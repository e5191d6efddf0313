/**
 * Peak output throughput (peaks.ts) and the one clock origin per request (outcome.ts
 * requestOriginMs). The audit's case: a server that sends several tokens per chunk with no
 * per-event counts (vLLM `--stream-interval 4` without continuous_usage_stats) had its peak counted
 * at one token per chunk — 106 tok/s beside an average of 349.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EV_CHOICES, EV_CONTENT, EV_TERMINAL, EV_TOKENS_EXACT, EV_USAGE, type Usage } from '../../request.ts';
import { recordOf, type Row } from '../../testing/records.ts';
import { outcomeUnder, type DefinitionsId } from '../summary/definitions.ts';
import { finishedMs, outcomeOfLine, requestOriginMs } from '../summary/outcome.ts';
import { recordToLineWithStats } from '../file/record-line.ts';
import type { RunRequestLine } from '../file/line-schema.ts';
import { computeRunSummary } from '../summary/summary.ts';
import { summaryJson } from '../summary/json.ts';
import { summaryText } from '../summary/text.ts';
import { toVllmResult } from '../import/vllm-format.ts';

const CONFIG = { maxConcurrency: null, requestRate: 'inf' as const, burstiness: 1, numPrompts: null };

const usage = (n: number): Usage => ({
  promptTokens: 10,
  completionTokens: n,
  totalTokens: 10 + n,
  cachedTokens: null,
});

function lineOf(rows: Row[], o: { startedMs: number; sentMs?: number; usage?: Usage | null; seq?: number }) {
  const { line } = recordToLineWithStats(recordOf(rows, { usage: o.usage ?? null }), {
    seq: o.seq ?? 0,
    warmup: false,
    scheduledMs: o.startedMs,
    arrivedMs: o.startedMs,
    startedMs: o.startedMs,
    inputTokensEstimate: 10,
    expectedOutputTokens: null,
    saveText: false,
  });
  if (o.sentMs !== undefined) line.sentMs = o.sentMs;
  return line;
}

/** The run's summary the way the runner makes it: duration from the first dispatch (0) to the last end. */
function summarize(lines: RunRequestLine[], d: DefinitionsId = 'tokenscope') {
  let end = 0;
  for (const l of lines) end = Math.max(end, finishedMs(l));
  return computeRunSummary({
    outcomes: lines.map((l) => (d === 'tokenscope' ? outcomeOfLine(l) : outcomeUnder(l, d, 'openai-chat'))),
    durationS: end / 1000,
    config: CONFIG,
    definitions: d,
  });
}

/** Content chunks every `gapMs` from `firstMs`, `k` events; no per-event counts (the decoder's 1 each). */
function interval4(firstMs: number, gapMs: number, k: number): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < k; i++) rows.push([firstMs + i * gapMs, 1, EV_CONTENT | EV_CHOICES, i]);
  const last = firstMs + (k - 1) * gapMs;
  rows.push([last + 1, 0, EV_USAGE, k], [last + 2, 0, EV_TERMINAL, k]);
  return rows;
}

describe('peak output throughput in tokens', () => {
  // Eight requests, one started every 250 ms; each 1 + 4·40 = 161 tokens in 41 chunks 25 ms apart
  // (stream interval 4), usage total only.
  const lines = Array.from({ length: 8 }, (_, i) =>
    lineOf(interval4(20, 25, 41), { startedMs: i * 250, usage: usage(161), seq: i }),
  );

  it('spreads the usage total over the events: the peak is not below the mean, and says it is estimated', () => {
    const s = summarize(lines);
    expect(s.vllm.total_output_tokens).toBe(8 * 161);
    // Before: one token per chunk in the peak, the mean from the usage totals — peak ≈ mean / 4.
    expect(s.vllm.max_output_tokens_per_s!).toBeGreaterThanOrEqual(s.vllm.output_throughput);
    expect(s.tokens.peakEstimated).toBe(true);
    expect(summaryText(s)).toMatch(
      /Peak output token throughput \(tok\/s\):\s+[\d.]+ \(estimated counts: the server sent no per-event token counts\)/,
    );
    expect(summaryJson(s).max_output_tokens_per_s_estimated).toBe(true);
  });

  it('exact per-event counts: no estimate said; usage beyond the events lands on the last event', () => {
    const exact = (i: number) =>
      lineOf(
        [
          [20, 1, EV_CONTENT | EV_TOKENS_EXACT | EV_CHOICES, 0],
          [45, 4, EV_CONTENT | EV_TOKENS_EXACT | EV_CHOICES, 1],
          [70, 4, EV_CONTENT | EV_TOKENS_EXACT | EV_CHOICES, 2],
          [71, 0, EV_USAGE, 3],
        ],
        { startedMs: i * 300, usage: usage(12), seq: i },
      );
    const s = summarize([exact(0), exact(1), exact(2), exact(3)]);
    expect(s.tokens.peakEstimated).toBeUndefined();
    expect(summaryText(s)).not.toMatch(/estimated counts/);
    const o = outcomeOfLine(exact(0));
    expect(o.contentEvents).toEqual({ t: [20, 45, 70], tok: [1, 4, 7], exact: true });
  });

  it('a partial last second counts at its own length (joined to the one before under half a second)', () => {
    // 10 tokens in [0, 1 s), 10 in [1 s, 1.6 s): the last piece runs at 10 / 0.6 tok/s.
    const a = lineOf(
      [
        [100, 10, EV_CONTENT | EV_TOKENS_EXACT, 0],
        [1500, 10, EV_CONTENT | EV_TOKENS_EXACT, 1],
        [1600, 0, EV_TERMINAL, 2],
      ],
      { startedMs: 0 },
    );
    expect(summarize([a]).vllm.max_output_tokens_per_s).toBeCloseTo(10 / 0.6, 9);
    // Ending at 1.2 s: the 0.2-s piece joins the first second, 20 tokens over 1.2 s.
    const b = lineOf(
      [
        [100, 10, EV_CONTENT | EV_TOKENS_EXACT, 0],
        [1150, 10, EV_CONTENT | EV_TOKENS_EXACT, 1],
        [1200, 0, EV_TERMINAL, 2],
      ],
      { startedMs: 0 },
    );
    expect(summarize([b]).vllm.max_output_tokens_per_s).toBeCloseTo(20 / 1.2, 9);
  });

  it('vLLM’s preset still counts chunks in whole 1-s buckets (its definition, not a rate)', () => {
    const s = summarize(lines, 'vllm');
    expect(s.tokens.peakEstimated).toBeUndefined();
    // Chunks of all eight requests within whole seconds, as vLLM's calculate_metrics counts them.
    expect(Number.isInteger(s.vllm.max_output_tokens_per_s)).toBe(true);
  });
});

describe('property: a peak in tokens is never below the mean output throughput', () => {
  const request = fc.record({
    startMs: fc.integer({ min: 0, max: 5000 }),
    lagMs: fc.double({ min: 0, max: 6, noNaN: true }),
    firstMs: fc.integer({ min: 1, max: 800 }),
    gaps: fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 0, maxLength: 30 }),
    perChunk: fc.integer({ min: 1, max: 6 }),
    exact: fc.boolean(),
    withUsage: fc.boolean(),
    extraUsage: fc.integer({ min: 0, max: 5 }),
    tailMs: fc.integer({ min: 0, max: 300 }),
  });

  it('holds for Tokenscope’s and AIPerf’s presets over generated runs', () => {
    fc.assert(
      fc.property(
        fc.array(request, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('tokenscope', 'aiperf'),
        (reqs, d) => {
          const lines = reqs.map((r, seq) => {
            const rows: Row[] = [];
            let t = r.firstMs;
            const f = EV_CONTENT | EV_CHOICES | (r.exact ? EV_TOKENS_EXACT : 0);
            rows.push([t, r.exact ? 1 : 1, f, 0]);
            r.gaps.forEach((g, i) => {
              t += g;
              rows.push([t, r.exact ? r.perChunk : 1, f, i + 1]);
            });
            const n = 1 + r.gaps.length * r.perChunk + (r.exact ? r.extraUsage : 0);
            rows.push([t + r.tailMs, 0, EV_TERMINAL, r.gaps.length + 1]);
            return lineOf(rows, {
              startedMs: r.startMs,
              sentMs: r.startMs + r.lagMs,
              usage: r.withUsage || r.exact ? usage(n) : null,
              seq,
            });
          });
          const s = summarize(lines, d);
          expect(s.vllm.max_output_tokens_per_s!).toBeGreaterThanOrEqual(
            s.vllm.output_throughput * (1 - 1e-12),
          );
        },
      ),
      { numRuns: 300, seed: 22 },
    );
  });
});

describe('one clock origin per request: the send (sentMs) its events are timed from', () => {
  const rows: Row[] = [
    [996, 10, EV_CONTENT | EV_TOKENS_EXACT | EV_CHOICES, 0],
    [997, 0, EV_TERMINAL, 0],
  ];
  // Got its slot at 0, sent 5 ms later: its only token arrived at 1001 ms on the run clock.
  const l = lineOf(rows, { startedMs: 0, sentMs: 5 });

  it('outcomes, peaks and the vLLM export’s start_times start at sentMs', () => {
    expect(requestOriginMs(l)).toBe(5);
    expect(outcomeOfLine(l).startMs).toBe(5);
    for (const d of ['vllm', 'sglang', 'aiperf'] as const)
      expect(outcomeUnder(l, d, 'openai-chat').startMs).toBe(5);
    expect(finishedMs(l)).toBe(5 + 997);
    const header = {
      type: 'header' as const,
      format: 'tokenscope-run' as const,
      version: 1,
      runId: 'r',
      name: null,
      workload: {
        requests: 1,
        rate: 'inf',
        burstiness: 1,
        maxConcurrency: null,
        slo: null,
        prompts: { type: 'synthetic' },
      } as never,
      target: {
        url: 'http://x',
        dialect: 'openai-chat' as const,
        model: 'm',
        headerNames: [],
        authenticated: false,
      },
      tokenscopeVersion: '0',
      nodeVersion: '0',
      platform: 'linux',
      startedAtWall: 0,
      startedAt: '',
    };
    const res = toVllmResult(header, [l], summarize([l]), { detailed: true });
    expect(res.start_times).toEqual([0.005]);
  });

  it('older files without sentMs keep startedMs', () => {
    const old = lineOf(rows, { startedMs: 3 });
    expect(requestOriginMs(old)).toBe(3);
  });
});
