/**
 * Reasoning across a run: per-request TTFAT and reasoning/answer split (reasoning-stats.ts), kept
 * through a run file and back, pooled in the summary (TTFAT stats, totals), compared, printed — and
 * runs without reasoning show nothing new.
 */
import { describe, expect, it } from 'vitest';
import { EV_CONTENT, EV_REASONING, EV_TERMINAL, EV_TOKENS_EXACT, EV_USAGE } from '../../request.ts';
import { computeRequestStats } from '../../stats/request-stats.ts';
import { C, EXACT, recordOf, type Row } from '../../testing/records.ts';
import { recordToLine } from '../file/record-line.ts';
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import { parseRunText } from '../run-file/parse.ts';
import { compareRows } from '../compare/compare.ts';
import { summaryJson } from '../summary/json.ts';
import { summaryText } from '../summary/text.ts';
import { parseWorkload } from '../workload/workload.ts';

const R = EV_REASONING;
const E = EV_CONTENT; // estimated: 1 token per event

/** Reasoning for 3 events (30, 40, 50 ms), the answer from 80 ms: exact per-event counts. */
const THINK_EXACT: Row[] = [
  [10, 0, 0, 0],
  [30, 2, C | R, 1],
  [40, 1, C | R, 2],
  [50, 3, C | R, 3],
  [80, 1, C, 4],
  [90, 2, C, 5],
  [95, 0, EV_TERMINAL, 6],
];

/** The same shape with no counts from the server but the final usage total and its reasoning_tokens. */
const THINK_USAGE: Row[] = [
  [5, 1, E | R, 0],
  [25, 1, E | R, 1],
  [60, 1, E, 2],
  [70, 1, E, 3],
  [72, 0, EV_USAGE, 4],
];

describe('per request', () => {
  it('first reasoning token, TTFAT and the split from per-event counts', () => {
    const s = computeRequestStats(recordOf(THINK_EXACT));
    expect(s.ttftMs).toBe(30); // reasoning is generated output: TTFT as vLLM counts it
    expect(s.firstReasoningMs).toBe(30);
    expect(s.firstAnswerMs).toBe(80);
    expect([s.reasoningTokens, s.answerTokens, s.reasoningTokensExact]).toEqual([6, 3, true]);
  });

  it("the server's reasoning_tokens win over event counts; exact with an exact total", () => {
    const usage = { promptTokens: 5, completionTokens: 40, totalTokens: 45, reasoningTokens: 31 };
    const s = computeRequestStats(recordOf(THINK_USAGE, { usage }));
    expect([s.outputTokens, s.reasoningTokens, s.answerTokens, s.reasoningTokensExact]).toEqual([
      40,
      31,
      9,
      true,
    ]);
    expect(s.firstAnswerMs).toBe(60);
  });

  it('estimated: the total split by the tokenizer counts of the two texts', () => {
    const rec = recordOf(THINK_USAGE, { usage: { promptTokens: 5, completionTokens: 40, totalTokens: 45 } });
    rec.reasoning = 'one two three four five six'; // 6 tokens
    rec.text = 'seven eight'; // 2 tokens → 40 · 6/8 = 30
    const s = computeRequestStats(rec);
    expect([s.reasoningTokens, s.answerTokens, s.reasoningTokensExact]).toEqual([30, 10, false]);
    // Without the texts (a run line keeps none): the events' counts, 2 of 4 → half.
    const bare = computeRequestStats(recordOf(THINK_USAGE, { usage: rec.usage }));
    expect([bare.reasoningTokens, bare.answerTokens]).toEqual([20, 20]);
  });

  it('no reasoning: no split, and TTFAT is TTFT', () => {
    const s = computeRequestStats(recordOf(EXACT));
    expect(s.reasoningTokens).toBeNull();
    expect(s.answerTokens).toBeNull();
    expect(s.firstReasoningMs).toBeNull();
    expect(s.firstAnswerMs).toBe(s.ttftMs);
  });

  it('reasoning only (cut off by max_tokens): no TTFAT, every token reasoning', () => {
    const s = computeRequestStats(recordOf(THINK_EXACT.slice(0, 4)));
    expect(s.firstAnswerMs).toBeNull();
    expect([s.reasoningTokens, s.answerTokens]).toEqual([6, 0]);
  });
});

const ctx = (seq: number) => ({
  seq,
  warmup: false,
  scheduledMs: seq * 100,
  arrivedMs: seq * 100,
  startedMs: seq * 100,
  inputTokensEstimate: 10,
  expectedOutputTokens: null,
  saveText: false,
});

function header(): RunHeader {
  const parsed = parseWorkload({ requests: 2 });
  if (!parsed.ok) throw new Error('workload');
  return {
    type: 'header',
    format: 'tokenscope-run',
    version: 1,
    runId: 'r1',
    name: null,
    workload: parsed.value,
    target: { url: 'http://x', dialect: 'openai-chat', model: 'm', headerNames: [], authenticated: false },
    tokenscopeVersion: '0',
    nodeVersion: 'v20',
    platform: 'linux',
    startedAtWall: 0,
    startedAt: '1970-01-01T00:00:00.000Z',
  };
}

/** A partial run file (no summary line): the reader recomputes the summary from the lines. */
function reopen(lines: RunRequestLine[]) {
  const text =
    [header(), ...lines.map((l, i) => ({ ...l, id: `req-${i}`, seq: i }))]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n';
  const r = parseRunText(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe('run files, summaries and comparisons', () => {
  // The estimated request's split comes from its texts, which the line does not keep.
  const estimated = recordOf(THINK_USAGE, {
    usage: { promptTokens: 5, completionTokens: 40, totalTokens: 45 },
  });
  estimated.reasoning = 'one two three four five six';
  estimated.text = 'seven eight';
  const thinking = [recordToLine(recordOf(THINK_EXACT), ctx(0)), recordToLine(estimated, ctx(1))];
  const plain = [recordToLine(recordOf(EXACT), ctx(0)), recordToLine(recordOf(EXACT), ctx(1))];

  it('a line keeps the split and the flags; reopened, the same numbers', () => {
    expect(thinking[1]).toMatchObject({ reasoningTokens: 30, reasoningTokensExact: false, ttfatMs: 60 });
    expect(thinking[0]!.events.f.filter((f) => f & EV_REASONING)).toHaveLength(3);
    expect(plain[0]).not.toHaveProperty('reasoningTokens');
    const run = reopen(thinking);
    expect(run.problems).toEqual([]);
    const s = run.summary;
    // TTFAT pooled over both: 80 and 60 ms.
    expect(s.stats.ttfat).toMatchObject({ count: 2, mean: 70, max: 80, min: 60 });
    expect(s.stats.ttft).toMatchObject({ mean: (30 + 5) / 2 });
    expect(s.reasoning).toEqual({
      requests: 2,
      reasoningTokens: 6 + 30,
      answerTokens: 3 + 10,
      estimatedRequests: 1,
    });
    expect(s.reasoning!.reasoningTokens + s.reasoning!.answerTokens).toBe(s.vllm.total_output_tokens);
  });

  it('older files (no flag, no split) load and show nothing new', () => {
    const old = plain.map((l) => ({ ...l, events: { ...l.events, f: l.events.f.map((f) => f & 0xff) } }));
    const s = reopen(old).summary;
    expect(s.stats.ttfat).toBeNull();
    expect(s).not.toHaveProperty('reasoning');
    const rows = compareRows([s, s]).map((r) => r.def.id);
    expect(
      rows.some((id) => id.startsWith('ttfat') || id.includes('reasoning') || id.includes('answer')),
    ).toBe(false);
    expect(summaryText(s)).not.toMatch(/TTFAT|Reasoning/);
    expect(summaryJson(s)).not.toHaveProperty('mean_ttfat_ms');
  });

  it('compare rows: TTFAT with its statistics, and the token totals, for runs that reasoned', () => {
    const a = reopen(thinking).summary;
    const b = reopen([thinking[0]!, recordToLine(recordOf(THINK_EXACT), ctx(1))]).summary;
    const rows = compareRows([a, b]);
    const byId = new Map(rows.map((r) => [r.def.id, r]));
    expect(byId.get('ttfat-mean')!.values).toEqual([70, 80]);
    expect(byId.get('ttfat-p99')!.values[1]).toBe(80);
    expect(byId.get('reasoning-tokens')!.values).toEqual([36, 12]);
    expect(byId.get('answer-tokens')!.values).toEqual([13, 6]);
    // Beside a run without reasoning the rows stay (one side has the value), the other side empty.
    const mixed = compareRows([a, reopen(plain).summary]);
    expect(mixed.find((r) => r.def.id === 'ttfat-mean')!.values).toEqual([70, null]);
  });

  it('the text and JSON summaries print TTFAT and the split (~ where estimated)', () => {
    const s = reopen(thinking).summary;
    const text = summaryText(s);
    expect(text).toMatch(/Time to First Answer Token/);
    expect(text).toMatch(/Mean TTFAT \(ms\):\s+70\.00/);
    expect(text).toMatch(/Reasoning tokens:\s+~36/);
    expect(text).toMatch(/Answer tokens:\s+~13/);
    expect(summaryJson(s)).toMatchObject({
      mean_ttfat_ms: 70,
      total_reasoning_tokens: 36,
      total_answer_tokens: 13,
    });
  });
});

// Flags past 8 bits survive the columns a record is built from.
it('EV_REASONING is a 16-bit flag the record keeps', () => {
  const rec = recordOf([[1, 1, EV_CONTENT | EV_TOKENS_EXACT | EV_REASONING, 0]]);
  expect(rec.events.flags[0]! & EV_REASONING).toBe(EV_REASONING);
});
