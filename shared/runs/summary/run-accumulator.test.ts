/**
 * The accumulator keeps a finished request's lists small (run-accumulator.ts): its content times,
 * and every other list as a tag, an edit of the list it is measured against, or leading values
 * before the content times' gaps. Whatever the stream — a role chunk before the content, reads of
 * several events (coalesced gaps), tokens per event from the server or spread from a total — the
 * summary it gives must be the one the outcomes themselves give, every number, under Tokenscope's
 * rules and under vLLM's (the runner feeds both from one line: line-sink.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EV_CHOICES,
  EV_COALESCED,
  EV_CONTENT,
  EV_TERMINAL,
  EV_TOKENS_EXACT,
  EV_USAGE,
} from '../../request.ts';
import { recordOf, type Row } from '../../testing/records.ts';
import { recordToLineWithStats } from '../file/record-line.ts';
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import { outcomeUnder, type DefinitionsId } from './definitions.ts';
import { finishedMs, outcomeOfLine } from './outcome.ts';
import { LineValues, RunAccumulator } from './run-accumulator.ts';
import { computeRunSummary } from './summary.ts';
import { parseWorkload } from '../workload/workload.ts';

const workload = parseWorkload({ requests: 10, prompts: { type: 'synthetic', inputLen: 8, outputLen: 8 } });
if (!workload.ok) throw new Error(JSON.stringify(workload.error));
const header = {
  type: 'header',
  workload: workload.value,
  target: { url: 'http://x', dialect: 'openai-chat', model: 'm' },
} as unknown as RunHeader;

/** One read of a stream: its time and the tokens of each of its content events. */
interface Read {
  gapMs: number;
  tokens: number[];
}

/**
 * A stream's rows: a role chunk (choices, no content), then each read's content events at the
 * read's time (EV_COALESCED when a read carries several), a usage chunk and [DONE].
 */
function rowsOf(roleMs: number, reads: Read[], exact: boolean): Row[] {
  const rows: Row[] = [[roleMs, 0, EV_CHOICES, 0]];
  let t = roleMs;
  reads.forEach((r, i) => {
    t += r.gapMs;
    const x = r.tokens.length > 1 ? EV_COALESCED : 0;
    for (const k of r.tokens)
      rows.push([t, k, EV_CONTENT | EV_CHOICES | x | (exact ? EV_TOKENS_EXACT : 0), i + (i === 0 ? 0 : 1)]);
  });
  rows.push([t + 1, 0, EV_USAGE, reads.length + 1], [t + 1, 0, EV_TERMINAL, reads.length + 1]);
  return rows;
}

function lineOf(rows: Row[], seq: number, outputTokens: number): RunRequestLine {
  const usage = {
    promptTokens: 8,
    completionTokens: outputTokens,
    totalTokens: 8 + outputTokens,
    cachedTokens: null,
  };
  return recordToLineWithStats(recordOf(rows, { usage }), {
    seq,
    warmup: false,
    scheduledMs: seq * 10,
    arrivedMs: seq * 10,
    startedMs: seq * 10,
    inputTokensEstimate: 8,
    expectedOutputTokens: null,
    saveText: false,
  }).line;
}

/** The summary straight from every line's outcome (no accumulator). */
function direct(lines: RunRequestLine[], d: DefinitionsId) {
  let end = 0;
  for (const l of lines) end = Math.max(end, finishedMs(l));
  return computeRunSummary({
    outcomes: lines.map((l) => (d === 'tokenscope' ? outcomeOfLine(l) : outcomeUnder(l, d, 'openai-chat'))),
    definitions: d,
    durationS: end / 1000,
    slo: null,
    config: { maxConcurrency: null, requestRate: 'inf', burstiness: 1, numPrompts: 10 },
    partial: false,
    cancelled: false,
    cancelledRequests: 0,
    warmupRequests: 0,
    selfCheck: null,
    nonStreaming: false,
  });
}

/** Both presets' accumulators fed as the runner feeds them: one LineValues a line. */
function accumulate(lines: RunRequestLine[]) {
  const own = new RunAccumulator(header);
  const vllm = new RunAccumulator(header, 'vllm');
  for (const l of lines) {
    const lv = new LineValues();
    own.add(l, lv);
    vllm.add(l, lv);
  }
  return { own, vllm };
}

/** 256 reads, one token each, every 16th read carrying 2–4 events (a late read). */
function longStream(exact: boolean): Row[] {
  const reads: Read[] = [];
  for (let i = 0; i < 256; i++)
    reads.push({ gapMs: 5 + (i % 7) * 0.25, tokens: i % 16 === 15 ? [1, 1, 1].slice(0, 2 + (i % 3)) : [1] });
  return rowsOf(3, reads, exact);
}

describe('the run accumulator', () => {
  it('keeps only the content times of a long stream with coalesced reads and a role chunk, under both presets', () => {
    for (const exact of [true, false]) {
      const rows = longStream(exact);
      const content = rows.filter((r) => (r[2] & EV_CONTENT) !== 0).length;
      const tokens = rows.reduce((a, r) => a + r[1], 0);
      const lines = [0, 1, 2, 3].map((i) => lineOf(rows, i, tokens));
      const { own, vllm } = accumulate(lines);
      // 8 B a content event for its time. The edits (a coalesced read's positions and spread
      // values, vLLM's role-chunk gap) add a fraction of that; keeping vLLM's gaps and the per-token
      // measured list as lists of their own was 3× the content times.
      const seen = new Set<ArrayBufferView>();
      const bytes = own.keptBytes(seen) + vllm.keptBytes(seen);
      const times = 4 * content * 8;
      expect(bytes).toBeGreaterThanOrEqual(times);
      expect(bytes, `${bytes} B kept for ${times} B of content times`).toBeLessThan(1.3 * times);
      const o = { durationS: direct(lines, 'tokenscope').vllm.duration, cancelled: false, selfCheck: null };
      expect(own.summary(o)).toEqual(direct(lines, 'tokenscope'));
      expect(vllm.summary(o)).toEqual(direct(lines, 'vllm'));
      // The coalesced gaps were there to leave out: Tokenscope's ITL differs from vLLM's.
      expect(own.summary(o).coalesced?.gaps).toBeGreaterThan(0);
    }
  });

  it('gives the summary the outcomes give, every number, for any stream (both presets)', () => {
    const read = fc.record({
      gapMs: fc.double({ min: 0, max: 50, noNaN: true }),
      tokens: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 4 }),
    });
    const stream = fc.record({
      roleMs: fc.double({ min: 0, max: 30, noNaN: true }),
      reads: fc.array(read, { minLength: 1, maxLength: 40 }),
      exact: fc.boolean(),
      extraTokens: fc.integer({ min: 0, max: 5 }),
    });
    fc.assert(
      fc.property(fc.array(stream, { minLength: 1, maxLength: 6 }), (streams) => {
        const lines = streams.map((s, i) => {
          const rows = rowsOf(s.roleMs, s.reads, s.exact);
          return lineOf(rows, i, rows.reduce((a, r) => a + r[1], 0) + s.extraTokens);
        });
        const { own, vllm } = accumulate(lines);
        const o = { durationS: direct(lines, 'tokenscope').vllm.duration, cancelled: false, selfCheck: null };
        expect(own.summary(o)).toEqual(direct(lines, 'tokenscope'));
        expect(vllm.summary(o)).toEqual(direct(lines, 'vllm'));
      }),
      { numRuns: 200 },
    );
  });
});
