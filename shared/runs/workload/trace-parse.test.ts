import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../../../electron/testing/corpus.ts';
import {
  describeTraceIssues,
  detectTraceFormat,
  parseBurstGpt,
  parseMooncake,
  parseTrace,
  traceSchedule,
  type TraceFailure,
} from './trace-parse.ts';

const corpus = (name: string): string => readFileSync(path.join(CORPUS_DIR, 'traces', name), 'utf8');
const MOONCAKE = corpus('mooncake-conversation-head.jsonl');
const README = corpus('mooncake-readme-sample.jsonl');
const BURST = corpus('burstgpt-head.csv');
const o = { blockTokens: 512 };

function failure<T>(r: { ok: true; value: T } | { ok: false; error: TraceFailure }): TraceFailure {
  if (r.ok) throw new Error('expected a failure');
  return r.error;
}

describe('Mooncake JSONL', () => {
  it("reads the real trace's lines: times in ms, lengths, block ids", () => {
    const r = parseMooncake(MOONCAKE, o);
    if (!r.ok) throw new Error(describeTraceIssues(r.error));
    const rows = r.value.rows;
    expect(rows).toHaveLength(14);
    // Line 1 and line 12 of FAST25-release/traces/conversation_trace.jsonl, read off the file.
    expect(rows[0]).toEqual({
      line: 1,
      atMs: 0,
      inputTokens: 6758,
      outputTokens: 500,
      hashIds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    });
    expect(rows[11]!.atMs).toBe(3000);
    expect(rows[11]!.inputTokens).toBe(87169);
    expect(rows[11]!.hashIds).toHaveLength(171);
    expect(rows.filter((x) => x.atMs === 0)).toHaveLength(10);
    expect(r.value.skipped).toBe(0);
  });

  it("reads the README's two samples, which share their first 12 blocks", () => {
    const r = parseTrace(README, 'auto', o);
    if (!r.ok) throw new Error(describeTraceIssues(r.error));
    expect(r.value.format).toBe('mooncake');
    const [a, b] = r.value.rows;
    expect([a!.atMs, b!.atMs]).toEqual([27482, 30535]);
    expect(a!.hashIds!.slice(0, 12)).toEqual(b!.hashIds!.slice(0, 12));
    expect(a!.hashIds![12]).not.toBe(b!.hashIds![12]);
  });

  it('reports every bad line with its number and kind, and keeps the good rows', () => {
    const lines = MOONCAKE.trimEnd().split('\n');
    const bad = [
      lines[0],
      '{"timestamp": 0, "input_length": 10',
      lines[1],
      '{"timestamp": -5, "input_length": 10, "output_length": 2, "hash_ids": [1]}',
      '{"timestamp": 5, "input_length": 2000, "output_length": 2, "hash_ids": [1, 2]}',
      '{"timestamp": 5, "input_length": 20, "output_length": 2, "hash_ids": ["a"]}',
      '[1, 2]',
      lines[2],
    ].join('\n');
    const f = failure(parseMooncake(bad, o));
    expect(f.issues.map((i) => [i.line, i.kind])).toEqual([
      [2, 'not-json'],
      [4, 'bad-field'],
      [5, 'blocks-mismatch'],
      [6, 'bad-field'],
      [7, 'bad-field'],
    ]);
    expect(f.issueCount).toBe(5);
    expect(f.issues[2]!.message).toContain('2 blocks of 512 tokens cannot hold input_length 2000');
    // What came before and after the bad lines is kept, with its own line numbers.
    expect(f.kept.rows.map((r) => [r.line, r.inputTokens])).toEqual([
      [1, 6758],
      [3, 7322],
      [8, 7236],
    ]);
    expect(describeTraceIssues(f, 2)).toBe(
      'line 2: not-json (not JSON); line 4: bad-field (timestamp: expected ms ≥ 0) (+3 more)',
    );
  });

  it('takes the block size it is told: the same file with 256-token blocks does not fit', () => {
    const f = failure(parseMooncake(README, { blockTokens: 256 }));
    expect(f.issues.map((i) => i.kind)).toEqual(['blocks-mismatch', 'blocks-mismatch']);
  });

  it('skips requests with no output (failed) and rows outside the window, counted', () => {
    const text = README + '{"timestamp": 40000, "input_length": 100, "output_length": 0, "hash_ids": [9]}\n';
    const all = parseMooncake(text, o);
    expect(all.ok && all.value.skipped).toBe(1);
    const w = parseMooncake(text, { ...o, startS: 28, endS: 100 });
    if (!w.ok) throw new Error(describeTraceIssues(w.error));
    expect(w.value.rows.map((r) => r.atMs)).toEqual([30535]);
    expect(w.value.outside).toBe(1);
    const none = failure(parseMooncake(text, { ...o, startS: 500 }));
    expect(none.issues).toEqual([{ line: 0, kind: 'empty', message: 'no request in the window' }]);
  });

  it('sorts rows by time, keeping the order of equal times', () => {
    const text = [
      '{"timestamp": 50, "input_length": 1, "output_length": 1}',
      '{"timestamp": 10, "input_length": 2, "output_length": 1}',
      '{"timestamp": 50, "input_length": 3, "output_length": 1}',
      '{"timestamp": 10, "input_length": 4, "output_length": 1}',
    ].join('\r\n');
    const r = parseMooncake(text, o);
    expect(r.ok && r.value.rows.map((x) => x.inputTokens)).toEqual([2, 4, 1, 3]);
  });

  it('reads back any rows written in its format (property)', () => {
    const row = fc.record({
      timestamp: fc.integer({ min: 0, max: 1e9 }),
      blocks: fc.integer({ min: 1, max: 40 }),
      last: fc.integer({ min: 1, max: 512 }),
      output_length: fc.integer({ min: 1, max: 4096 }),
      firstId: fc.nat(1e6),
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), (rows) => {
        const text = rows
          .map((x) =>
            JSON.stringify({
              timestamp: x.timestamp,
              input_length: (x.blocks - 1) * 512 + x.last,
              output_length: x.output_length,
              hash_ids: Array.from({ length: x.blocks }, (_, k) => x.firstId + k),
            }),
          )
          .join('\n');
        const r = parseMooncake(text, o);
        if (!r.ok) return false;
        const want = rows
          .map((x, k) => ({ ...x, line: k + 1 }))
          .sort((a, b) => a.timestamp - b.timestamp || a.line - b.line);
        return r.value.rows.every(
          (got, k) =>
            got.line === want[k]!.line &&
            got.atMs === want[k]!.timestamp &&
            got.inputTokens === (want[k]!.blocks - 1) * 512 + want[k]!.last &&
            got.hashIds!.length === want[k]!.blocks,
        );
      }),
    );
  });
});

describe('BurstGPT CSV', () => {
  it("reads the file's first rows: seconds to ms, request and response tokens", () => {
    const r = parseTrace(BURST, 'auto', o);
    if (!r.ok) throw new Error(describeTraceIssues(r.error));
    expect(r.value.format).toBe('burstgpt');
    expect(r.value.rows).toEqual([
      { line: 2, atMs: 5000, inputTokens: 472, outputTokens: 18, hashIds: null },
      { line: 3, atMs: 45000, inputTokens: 1087, outputTokens: 230, hashIds: null },
      { line: 4, atMs: 118000, inputTokens: 417, outputTokens: 276, hashIds: null },
    ]);
  });

  it("skips the trace's failed requests (0 response tokens) and takes extra columns", () => {
    const text =
      'Timestamp,Session ID,Elapsed time,Model,Request tokens,Response tokens,Total tokens,Log Type\n' +
      '5.5,a1,1.0,ChatGPT,472,18,490,Conversation log\n' +
      '6,a2,1.0,GPT-4,300,0,300,API log\n';
    const r = parseBurstGpt(text, o);
    if (!r.ok) throw new Error(describeTraceIssues(r.error));
    expect(r.value.rows.map((x) => [x.atMs, x.inputTokens])).toEqual([[5500, 472]]);
    expect(r.value.skipped).toBe(1);
  });

  it('reports bad rows with their numbers and kinds, keeping the good ones', () => {
    const lines = BURST.trimEnd().split('\n');
    const text = [
      lines[0],
      lines[1],
      '50,ChatGPT,472,18,490',
      'soon,ChatGPT,472,18,490,Conversation log',
      '60,ChatGPT,-3,18,490,Conversation log',
      '61,ChatGPT,3,1.5,490,Conversation log',
      lines[2],
    ].join('\n');
    const f = failure(parseBurstGpt(text, o));
    expect(f.issues.map((i) => [i.line, i.kind])).toEqual([
      [3, 'bad-row'],
      [4, 'bad-field'],
      [5, 'bad-field'],
      [6, 'bad-field'],
    ]);
    expect(f.issues[1]!.message).toBe('Timestamp: expected seconds ≥ 0, got "soon"');
    expect(f.kept.rows.map((r) => r.line)).toEqual([2, 7]);
  });

  it('refuses a header without its columns', () => {
    const f = failure(parseBurstGpt('Time,Model,Tokens\n5,ChatGPT,3\n', o));
    expect(f.issues[0]).toMatchObject({ line: 1, kind: 'no-header' });
    expect(f.issues[0]!.message).toContain('"Timestamp", "Request tokens", "Response tokens"');
  });
});

describe('format detection and schedules', () => {
  it('tells the formats apart, and refuses neither', () => {
    expect(detectTraceFormat(MOONCAKE)).toBe('mooncake');
    expect(detectTraceFormat(BURST)).toBe('burstgpt');
    expect(detectTraceFormat('a,b,c\n1,2,3')).toBeNull();
    const f = failure(parseTrace('a,b,c\n1,2,3', 'auto', o));
    expect(f.issues[0]!.kind).toBe('unknown-format');
  });

  it("plans send times as the trace's gaps divided by the speedup, the first at 0", () => {
    const r = parseTrace(BURST, 'auto', o);
    if (!r.ok) throw new Error('bad corpus');
    expect([...traceSchedule(r.value.rows, 1)]).toEqual([0, 40_000, 113_000]);
    expect([...traceSchedule(r.value.rows, 100)]).toEqual([0, 400, 1130]);
    expect([...traceSchedule(r.value.rows, 0.5, 2)]).toEqual([0, 80_000]);
  });

  it('keeps every gap, scaled, for any times and speedup (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1e10 }), { minLength: 1, maxLength: 50 }),
        fc.double({ min: 0.01, max: 1e5, noNaN: true }),
        (times, speedup) => {
          const rows = [...times]
            .sort((a, b) => a - b)
            .map((t, k) => ({ line: k + 1, atMs: t, inputTokens: 1, outputTokens: 1, hashIds: null }));
          const s = traceSchedule(rows, speedup);
          return rows.every((r, k) => {
            const want = (r.atMs - rows[0]!.atMs) / speedup;
            return Math.abs(s[k]! - want) <= 1e-9 * Math.max(1, want) && (k === 0 || s[k]! >= s[k - 1]!);
          });
        },
      ),
    );
  });
});
