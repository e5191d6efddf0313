import { describe, expect, it } from 'vitest';
import { EV_CONTENT, EV_ERROR, EV_TERMINAL } from '../../request.ts';
import { C, EXACT, recordOf, X } from '../../testing/records.ts';
import { outcomeOfLine, statsOfLine } from './outcome.ts';
import { recordToLine, recordToLineWithStats, type LineContext } from '../file/record-line.ts';

const ctx: LineContext = {
  seq: 3,
  warmup: false,
  scheduledMs: 100.0004,
  arrivedMs: 100.5,
  startedMs: 120.25,
  inputTokensEstimate: 40,
  expectedOutputTokens: 16,
  saveText: false,
};

const records = {
  'exact per event, coalesced reads': recordOf(EXACT),
  // Times below a µs: the line rounds them, and the stats are the rounded columns'.
  'estimated, sub-µs times': recordOf([
    [3.00049, 0, 0, 0],
    [12.3456789, 1, EV_CONTENT, 1],
    [32.1111111, 1, EV_CONTENT | X, 2],
    [32.1111111, 1, EV_CONTENT | X, 2],
    [52.9999999, 1, EV_CONTENT, 3],
    [60.0000004, 0, EV_TERMINAL, 4],
  ]),
  'usage total': recordOf(
    [
      [20, 1, EV_CONTENT, 0],
      [45.5, 1, EV_CONTENT | X, 1],
      [45.5, 1, EV_CONTENT | X, 1],
    ],
    { usage: { promptTokens: 9, completionTokens: 7, totalTokens: 16 }, endMs: 50.1234567 },
  ),
  'failed mid-stream': {
    ...recordOf([
      [15, 2, C, 0],
      [25, 1, C, 1],
      [40, 0, EV_ERROR, 2],
    ]),
    error: { kind: 'server' as const, code: 'error-event' as const, message: 'boom', atMs: 40.00001 },
  },
  'no events': recordOf([], { endMs: 5 }),
};

describe('recordToLineWithStats', () => {
  for (const [name, rec] of Object.entries(records)) {
    it(`gives the stats outcomeOfLine would compute: ${name}`, () => {
      const { line, stats } = recordToLineWithStats(rec, ctx);
      expect(line).toEqual(recordToLine(rec, ctx));
      expect(stats).toEqual(statsOfLine(line));
      expect(outcomeOfLine(line, stats)).toEqual(outcomeOfLine(line));
    });
  }

  it('carries the coalesced gaps into the outcome', () => {
    const { line, stats } = recordToLineWithStats(records['exact per event, coalesced reads'], ctx);
    const o = outcomeOfLine(line, stats);
    expect(o.coalescedGaps).toBe(3);
    expect(o.itlChunkMs).toHaveLength(8);
    expect(o.itlChunkMeasuredMs).toEqual([20, 30, 10, 20, 20]);
    expect(o.itlTokenMeasuredMs).toHaveLength(12);
  });
});
