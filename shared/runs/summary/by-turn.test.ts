/**
 * Latency by turn: rows per turn up to the cap (later turns pooled), successful requests only, and
 * the rows in the summary text, the JSON and the summary schema (a reopened file keeps them).
 */
import { describe, expect, it } from 'vitest';
import { BY_TURN_CAP, byTurnOf } from './by-turn.ts';
import type { RequestOutcome } from './outcome.ts';
import type { RunSummary } from './schema.ts';
import { computeRunSummary } from './summary.ts';
import { summaryJson } from './json.ts';
import { summaryText } from './text.ts';
import { RunSummarySchema } from './schema.ts';

const base: RequestOutcome = {
  ok: true,
  startMs: 0,
  queueMs: 0,
  firstEventMs: null,
  ttftMs: 0,
  e2eMs: 0,
  tpotMs: 0,
  itlChunkMs: [],
  itlTokenMs: [],
  outputTokens: 1,
  inputTokens: 0,
  tokenSource: 'usage-total',
  inputTokensSource: 'usage',
  errorKind: null,
  errorCode: null,
};
const o = (x: Partial<RequestOutcome>): RequestOutcome => ({ ...base, ...x });

describe('byTurnOf', () => {
  it('is absent for a run without turns', () => {
    expect(byTurnOf([o({}), o({})], [undefined, undefined])).toBeUndefined();
  });

  it('groups by turn, pools turns past the cap, and leaves failures out of the statistics', () => {
    const outs = [
      o({ ttftMs: 200, e2eMs: 900, inputTokens: 600 }),
      o({ ttftMs: 220, e2eMs: 950, inputTokens: 620 }),
      o({ ttftMs: 40, e2eMs: 700, inputTokens: 700 }),
      o({ ok: false, ttftMs: 5000, e2eMs: 5000, errorKind: 'http', errorCode: 'status' }),
      o({ ttftMs: 30, e2eMs: 600, inputTokens: 900 }),
      o({ ttftMs: 50, e2eMs: 800, inputTokens: 1100 }),
    ];
    const rows = byTurnOf(outs, [1, 1, 2, 2, BY_TURN_CAP, BY_TURN_CAP + 3])!;
    expect(rows.map((r) => [r.turn, r.andLater, r.requests, r.failed])).toEqual([
      [1, false, 2, 0],
      [2, false, 2, 1],
      [BY_TURN_CAP, true, 2, 0],
    ]);
    expect(rows[0]!.ttft!.median).toBe(210);
    expect(rows[0]!.meanInputTokens).toBe(610);
    expect(rows[1]!.ttft!.count).toBe(1); // the failed turn-2 request is not in its TTFT
    expect(rows[1]!.ttft!.max).toBe(40);
    expect(rows[2]!.e2e!.mean).toBe(700);
  });
});

describe('by turn in the summary', () => {
  const outs = [o({ ttftMs: 180, e2eMs: 800 }), o({ ttftMs: 35, e2eMs: 640 })];
  const s: RunSummary = {
    ...computeRunSummary({
      outcomes: outs,
      durationS: 2,
      config: { maxConcurrency: 1, requestRate: 'inf', burstiness: 1, numPrompts: 1 },
    }),
    byTurn: byTurnOf(outs, [1, 2]),
  };

  it('prints a row per turn in the text', () => {
    const t = summaryText(s);
    expect(t).toContain('By Turn (multi-turn sessions)');
    expect(t).toMatch(/^1 +1 +0 +180\.00 +180\.00 +800\.00$/m);
    expect(t).toMatch(/^2 +1 +0 +35\.00 +35\.00 +640\.00$/m);
  });

  it('gives by_turn in the JSON, and the schema keeps it', () => {
    const j = summaryJson(s);
    expect(j.by_turn).toEqual([
      expect.objectContaining({ turn: '1', requests: 1, median_ttft_ms: 180, median_e2el_ms: 800 }),
      expect.objectContaining({ turn: '2', requests: 1, median_ttft_ms: 35, median_e2el_ms: 640 }),
    ]);
    const parsed = RunSummarySchema.parse(JSON.parse(JSON.stringify(s)));
    expect(parsed.byTurn).toEqual(s.byTurn);
    expect('by_turn' in summaryJson({ ...s, byTurn: undefined })).toBe(false);
  });
});
