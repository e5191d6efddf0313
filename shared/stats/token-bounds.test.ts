// Counts that cannot be true are not taken as exact (issue 24 points 3 and 4): a usage of 1e15
// output tokens for max_tokens 128 falls back to the events with the reason kept (and the summary
// counts such requests); an honest usage stays exact; per-event counts up to 2^63 never make the
// per-token lists allocate by the count.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { C, recordOf, type Row } from '../testing/records.ts';
import { EV_CONTENT } from '../request.ts';
import { computeRequestStats, MAX_PER_TOKEN_VALUES } from './request-stats.ts';
import { overMaxTokensLimit, usageTokensDoubt } from './token-bounds.ts';
import { summarize } from './summary.ts';
import { outcomeOfLine } from '../runs/summary/outcome.ts';
import { computeRunSummary } from '../runs/summary/summary.ts';
import { summaryText } from '../runs/summary/text.ts';
import type { RunSummary } from '../runs/summary/schema.ts';

/** Ten content events without per-event counts, 20 ms apart. */
const PLAIN: Row[] = Array.from({ length: 10 }, (_, i) => [50 + 20 * i, 1, EV_CONTENT, i + 1] as Row);
const usage = (completionTokens: number) => ({ promptTokens: 5, completionTokens, totalTokens: null });

describe('usage totals that cannot be true (point 4)', () => {
  it('1e15 completion tokens with max_tokens 128: refused, counted from the events, the reason kept', () => {
    const rec = { ...recordOf(PLAIN, { usage: usage(1e15), endMs: 250 }), maxTokens: 128, bytes: 2000 };
    const s = computeRequestStats(rec);
    expect(s.tokenDoubt).toMatch(/1000000000000000 output tokens, more than max_tokens=128/);
    expect(s.tokenSource).toBe('estimated');
    expect(s.outputTokens).toBe(10);
    expect(s.tokensPerSecond).toBeCloseTo(10 / 0.25, 6); // not 4e18 tok/s
  });

  it('without max_tokens: more tokens than the bytes that arrived could carry is refused too', () => {
    const rec = { ...recordOf(PLAIN, { usage: usage(5_000_000), endMs: 250 }), bytes: 2000 };
    expect(computeRequestStats(rec).tokenDoubt).toMatch(/2000 bytes that arrived/);
    // …but reasoning the server says it kept hidden is not held against the bytes.
    const hidden = { ...rec, usage: { ...usage(40_000), reasoningTokens: 39_000 } };
    expect(computeRequestStats(hidden).tokenDoubt).toBeNull();
  });

  it('an honest usage stays exact (within the over-max margin, bytes unknown or enough)', () => {
    for (const [u, max, bytes] of [
      [11, 128, 2000],
      [overMaxTokensLimit(128), 128, 0],
      [128, null, 0],
    ] as const) {
      const rec = { ...recordOf(PLAIN, { usage: usage(u), endMs: 250 }), maxTokens: max, bytes };
      const s = computeRequestStats(rec);
      expect(s.tokenDoubt).toBeNull();
      expect(s.tokenSource).toBe('usage-total');
      expect(s.outputTokens).toBe(u);
    }
  });

  it('per-event counts stay per-event when the usage beside them cannot be true', () => {
    const rows: Row[] = [
      [50, 1, C, 1],
      [70, 2, C, 2],
    ];
    const rec = { ...recordOf(rows, { usage: usage(2 ** 62) }), maxTokens: 16, bytes: 500 };
    const s = computeRequestStats(rec);
    expect(s.tokenSource).toBe('per-event');
    expect(s.outputTokens).toBe(3);
    expect(s.tokenDoubt).not.toBeNull();
  });

  it('the summary counts the refused requests and its text says so', () => {
    const rec = { ...recordOf(PLAIN, { usage: usage(1e15), endMs: 250 }), maxTokens: 128, bytes: 2000 };
    const s = computeRequestStats(rec);
    const outcome = outcomeOfLine(
      {
        type: 'request',
        seq: 0,
        id: 'a',
        scheduledMs: 0,
        arrivedMs: 0,
        startedMs: 0,
        queueMs: 0,
        inputTokens: 5,
        inputTokensSource: 'usage',
        expectedOutputTokens: 128,
        status: 'ok',
        httpStatus: 200,
        phases: rec.phases,
        events: { t: PLAIN.map((r) => r[0]), tok: PLAIN.map((r) => r[1]), f: PLAIN.map((r) => r[2]) },
        finishReason: 'length',
        usage: rec.usage,
        tokenSource: 'usage-total',
        error: null,
        textLength: 10,
        reasoningLength: 0,
        bytes: 2000,
        terminated: true,
        serverRequestId: null,
        ttftMs: null,
        tpotMs: null,
        e2eMs: null,
        outputTokens: 0,
      },
      s,
    );
    expect(outcome.tokenDoubt).toBe(s.tokenDoubt);
    const summary: RunSummary = computeRunSummary({
      outcomes: [outcome],
      durationS: 1,
      config: { maxConcurrency: 1, requestRate: null, burstiness: null, numPrompts: 1 },
    } as Parameters<typeof computeRunSummary>[0]);
    expect(summary.tokens.usageRefused).toBe(1);
    expect(summary.vllm.total_output_tokens).toBe(10);
    expect(summaryText(summary)).toMatch(/1 request' usage could not be true/);
  });

  it('usageTokensDoubt: counts past 2^53 or negative are not counts', () => {
    expect(usageTokensDoubt(2 ** 63, { maxTokens: null, bytes: 0 })).toMatch(/not a count/);
    expect(usageTokensDoubt(-1, { maxTokens: null, bytes: 0 })).toMatch(/not a count/);
    expect(usageTokensDoubt(5, { maxTokens: null, bytes: 0 })).toBeNull();
  });
});

describe('per-token ITL never allocates by a count (point 3)', () => {
  it('an event of 300,000,000 tokens: the per-token lists stay bounded, the per-token values exact', () => {
    const rows: Row[] = [
      [50, 1, C, 1],
      [70, 1, C, 2],
      [100, 300_000_000, C, 3],
      [130, 1, C, 4],
    ];
    const s = computeRequestStats(recordOf(rows));
    expect(s.itlTokenMs.length).toBeLessThanOrEqual(MAX_PER_TOKEN_VALUES + 3);
    expect(s.itlTokenMs).toContain(20);
    expect(s.itlTokenMs).toContain(30 / 300_000_000);
    expect(s.itlTokenMeasuredMs.length).toBe(s.itlTokenMs.length);
  });

  it('below the budget the lists are exactly one value per token (unchanged definition)', () => {
    const rows: Row[] = [
      [50, 1, C, 1],
      [70, 4, C, 2],
      [100, 2, C, 3],
    ];
    const s = computeRequestStats(recordOf(rows));
    expect(s.itlTokenMs).toEqual([5, 5, 5, 5, 15, 15]);
  });

  it('fuzz: per-event counts and usage up to 2^63 — nothing throws, lists bounded, numbers finite', () => {
    const big = fc.bigInt({ min: 0n, max: 2n ** 63n }).map((b) => Number(b));
    const count = fc.oneof(big, fc.integer({ min: 0, max: 50 }), fc.constant(0xffff_ffff));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1e6 }), count, fc.boolean()), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.option(big, { nil: null }),
        fc.option(fc.integer({ min: 1, max: 1e6 }), { nil: null }),
        (evs, u, maxTokens) => {
          let t = 0;
          const rows: Row[] = evs.map(([dt, k, exact], i) => {
            t += dt;
            return [t, Math.min(k, 0xffff_ffff), exact ? C : EV_CONTENT, i];
          });
          const rec = {
            ...recordOf(rows, { usage: u === null ? null : usage(u) }),
            maxTokens,
            bytes: 10_000,
          };
          const s = computeRequestStats(rec);
          expect(s.itlTokenMs.length).toBeLessThanOrEqual(MAX_PER_TOKEN_VALUES + rows.length);
          expect(s.itlTokenMeasuredMs.length).toBeLessThanOrEqual(MAX_PER_TOKEN_VALUES + rows.length);
          expect(Number.isFinite(s.outputTokens)).toBe(true);
          if (s.tokenSource === 'usage-total') expect(s.outputTokens).toBeLessThanOrEqual(8 * 10_000 + 1024);
          summarize(s.itlTokenMs);
        },
      ),
      { numRuns: 100, seed: 24 },
    );
  });
});
