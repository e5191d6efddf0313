import { describe, expect, it } from 'vitest';
import { EV_CONTENT } from '../request.ts';
import { computeRequestStats } from './request-stats.ts';
import { C, EXACT, recordOf, withoutCoalesced, X, type Row } from '../testing/records.ts';

describe('computeRequestStats: coalesced gaps', () => {
  it('keeps every gap in the vLLM lists and leaves the coalesced ones out of the measured lists', () => {
    const s = computeRequestStats(recordOf(EXACT));
    expect(s.tokenSource).toBe('per-event');
    expect(s.outputTokens).toBe(13);
    expect(s.itlChunkMs).toEqual([20, 30, 0, 0, 10, 20, 20, 0]);
    expect(s.coalescedGaps).toBe(3);
    expect(s.itlChunkMeasuredMs).toEqual([20, 30, 10, 20, 20]);
    // Every gap over the tokens of its later event.
    expect(s.itlTokenMs).toEqual([10, 10, 30, 0, 0, 0, 10, 20, 20, 0, 0, 0]);
    // One read, one arrival: 30 ms over the 4 tokens of the three-event read, 20 ms over the 4 of the last.
    expect(s.itlTokenMeasuredMs).toEqual([10, 10, 7.5, 7.5, 7.5, 7.5, 10, 20, 5, 5, 5, 5]);
    // Both per-token lists account for every token after the first read, and sum to the same time.
    const sum = (a: number[]): number => a.reduce((x, y) => x + y, 0);
    expect(s.itlTokenMeasuredMs).toHaveLength(12);
    expect(sum(s.itlTokenMeasuredMs)).toBeCloseTo(sum(s.itlChunkMs), 12);
    expect(s.coalescedEvents).toBe(6); // content events flagged, as before
  });

  it('tells two coalesced reads apart by their times', () => {
    // [1, 1] at 50, then [1, 1] at 80: one gap between reads (30), two within.
    const s = computeRequestStats(
      recordOf([
        [40, 0, 0, 0],
        [50, 1, C | X, 1],
        [50, 1, C | X, 1],
        [80, 1, C | X, 2],
        [80, 1, C | X, 2],
      ]),
    );
    expect(s.itlChunkMs).toEqual([0, 30, 0]);
    expect(s.coalescedGaps).toBe(2);
    expect(s.itlChunkMeasuredMs).toEqual([30]);
    // The second event shares the first token's read: its time is inside TTFT, no measured gap.
    expect(s.itlTokenMeasuredMs).toEqual([15, 15]);
  });

  it('without per-event counts, spreads a read over its events at w tokens each', () => {
    const rows: Row[] = [
      [50, 1, EV_CONTENT, 0],
      [70, 1, EV_CONTENT, 1],
      [100, 1, EV_CONTENT | X, 2],
      [100, 1, EV_CONTENT | X, 2],
      [100, 1, EV_CONTENT | X, 2],
      [110, 1, EV_CONTENT, 3],
    ];
    const est = computeRequestStats(recordOf(rows));
    expect(est.tokenSource).toBe('estimated');
    expect(est.itlChunkMs).toEqual([20, 30, 0, 0, 10]);
    expect(est.itlTokenMs).toEqual([20, 30, 0, 0, 10]); // w = 5 / 5 = 1
    expect(est.coalescedGaps).toBe(2);
    expect(est.itlChunkMeasuredMs).toEqual([20, 30, 10]);
    expect(est.itlTokenMeasuredMs).toEqual([20, 10, 10, 10, 10]);
    // The final usage says 11 tokens: w = 10 / 5 = 2 per later event.
    const usage = computeRequestStats(
      recordOf(rows, { usage: { promptTokens: 5, completionTokens: 11, totalTokens: 16 } }),
    );
    expect(usage.tokenSource).toBe('usage-total');
    expect(usage.itlTokenMs).toEqual([10, 15, 0, 0, 5]);
    expect(usage.itlTokenMeasuredMs).toEqual([10, 5, 5, 5, 5]);
  });

  it('equals the vLLM lists when nothing was coalesced', () => {
    const plain = withoutCoalesced(EXACT);
    const s = computeRequestStats(recordOf(plain));
    expect(s.coalescedGaps).toBe(0);
    expect(s.itlChunkMeasuredMs).toEqual(s.itlChunkMs);
    expect(s.itlTokenMeasuredMs).toEqual(s.itlTokenMs);
    // And the vLLM lists do not depend on the flags.
    const c = computeRequestStats(recordOf(EXACT));
    expect(c.itlChunkMs).toEqual(s.itlChunkMs);
    expect(c.itlTokenMs).toEqual(s.itlTokenMs);
  });

  it('has no gaps for zero or one content event', () => {
    const s = computeRequestStats(recordOf([[50, 3, C | X, 0]]));
    expect(s.coalescedGaps).toBe(0);
    expect(s.itlChunkMeasuredMs).toEqual([]);
    expect(s.itlTokenMeasuredMs).toEqual([]);
  });
});
