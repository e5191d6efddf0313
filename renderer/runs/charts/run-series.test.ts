import { describe, expect, it } from 'vitest';
import { fillLanes } from '../../testing/lane-fixture.ts';
import { outcomeOfLine } from '../../../shared/runs/summary/outcome.ts';
import { runLines } from '../../testing/run-fixture.ts';
import { LaneStore } from '../live/lane-store.ts';
import {
  cdfPoints,
  concurrencySeries,
  fmtEta,
  histogramData,
  metricValues,
  throughputSeries,
} from './run-series.ts';

function store(): LaneStore {
  return fillLanes(new LaneStore(), [
    {
      id: 'a',
      arrivedMs: 0,
      startedMs: 0,
      t: [100, 200, 1100, 2100],
      tok: [1, 1, 3, 5],
      ok: true,
      endMs: 2100,
      ttftMs: 100,
      outputTokens: 10,
    },
    {
      id: 'b',
      arrivedMs: 0,
      startedMs: 500,
      t: [900],
      tok: [2],
      ok: false,
      endMs: 950,
      ttftMs: 400,
      outputTokens: 2,
    },
  ]);
}

describe('run series', () => {
  it('counts output tokens and finished requests per second; live shows only seconds that are over', () => {
    const s = store();
    expect(throughputSeries(s, 1500, false)).toEqual([{ t: 0.5, tokS: 4, reqS: 0, errS: 1 }]);
    // At the end: 2 full seconds; the last (2.0–2.1 s) covers 0.1 s, too short to scale: left out.
    expect(throughputSeries(s, 2100, true)).toEqual([
      { t: 0.5, tokS: 4, reqS: 0, errS: 1 },
      { t: 1.5, tokS: 3, reqS: 0, errS: 0 },
    ]);
    // Ending at 2.8 s, the last second is scaled by 0.8.
    const last = throughputSeries(s, 2800, true).at(-1)!;
    expect(last.t).toBeCloseTo(2.4, 9);
    expect(last.tokS).toBeCloseTo(5 / 0.8, 9);
    expect(last.reqS).toBeCloseTo(1 / 0.8, 9);
  });

  it('samples requests in flight and queued from the lanes', () => {
    const s = store();
    const c = concurrencySeries(s, 2100, 21); // every 100 ms
    const at = (t: number) => c.find((p) => Math.abs(p.t - t) < 1e-9)!;
    expect(at(0)).toEqual({ t: 0, inFlight: 1, queued: 1 });
    expect(at(0.4)).toEqual({ t: 0.4, inFlight: 1, queued: 1 });
    expect(at(0.5)).toEqual({ t: 0.5, inFlight: 2, queued: 0 });
    expect(at(1.0)).toEqual({ t: 1, inFlight: 1, queued: 0 });
    expect(c.at(-1)).toEqual({ t: 2.1, inFlight: 0, queued: 0 });
  });

  it('pools values per metric as the summary does (successful requests only)', () => {
    const outcomes = runLines(5).map((l) => outcomeOfLine(l));
    expect(metricValues(outcomes, 'ttft')).toEqual([12.346, 12.346, 12.346, 12.346]);
    // Each request's 3 chunk gaps but its coalesced one (two events of one read), as summary.stats.itl.
    expect(metricValues(outcomes, 'itl')).toHaveLength(4 * 2);
    expect(metricValues(outcomes, 'client_queue_time')).toEqual([0, 10, 0, 10]);
    const h = histogramData(metricValues(outcomes, 'client_queue_time'), 10);
    expect(h.reduce((a, b) => a + b.count, 0)).toBe(4);
    expect(h[0]!.count).toBe(2);
    expect(h.at(-1)!.count).toBe(2);
  });

  it('turns HdrHistogram percentile points into a CDF and formats ETAs', () => {
    expect(
      cdfPoints({
        count: 2,
        mean: 1,
        p50: 1,
        p90: 2,
        p99: 2,
        max: 2,
        cdf: [
          [0, 1],
          [50, 1],
          [100, 2],
        ],
      }),
    ).toEqual([
      { v: 1, p: 0 },
      { v: 1, p: 50 },
      { v: 2, p: 100 },
    ]);
    expect(cdfPoints(null)).toEqual([]);
    expect(fmtEta(null)).toBe('—');
    expect(fmtEta(4_400)).toBe('4 s');
    expect(fmtEta(125_000)).toBe('2 min 05 s');
    expect(fmtEta(3_725_000)).toBe('1 h 02 min');
    expect(fmtEta(30 * 86_400_000)).toBe('30.0 days');
  });
});
