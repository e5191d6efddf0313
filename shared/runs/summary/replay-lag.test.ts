import { describe, expect, it } from 'vitest';
import { lagOfLine, replaySummaryOf, replayWarning } from './replay-lag.ts';
import type { RunRequestLine } from '../file/line-schema.ts';
import { parseWorkload, type Workload } from '../workload/workload.ts';

function wl(prompts: unknown): Workload {
  const r = parseWorkload({ requests: 1, prompts });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}
const trace = wl({ type: 'trace', path: 't.jsonl', speedup: 3, maxLagMs: 5 });

/** Only the fields the lag reads; the rest of a line does not matter here. */
function line(
  scheduledMs: number | null,
  sentMs: number | undefined,
  extra: Partial<RunRequestLine> = {},
): RunRequestLine {
  return { scheduledMs, sentMs, ...extra } as RunRequestLine;
}

describe('replay lag', () => {
  it('is sent − planned, from the line’s own lagMs when it has one', () => {
    expect(lagOfLine(line(10, 12.5))).toBe(2.5);
    expect(lagOfLine(line(10, 12.5, { lagMs: 7 }))).toBe(7);
    expect(lagOfLine(line(null, 3))).toBeNull();
    expect(lagOfLine(line(10, undefined))).toBeNull();
  });

  it('sums up measured lines as p50 / p99 / max against the bound, leaving warm-up out', () => {
    const lags = [1, 2, 3, 4, 100];
    const lines = [...lags.map((l, k) => line(k * 10, k * 10 + l)), line(null, 5, { warmup: true })];
    const r = replaySummaryOf(trace, lines)!;
    // numpy's linear percentiles of [1, 2, 3, 4, 100]: p50 = 3, p99 = 4 + 0.96 × 96.
    expect(r).toEqual({
      speedup: 3,
      requests: 5,
      lagP50Ms: 3,
      lagP99Ms: 4 + 0.96 * 96,
      lagMaxMs: 100,
      boundMs: 5,
      flagged: true,
    });
    expect(replayWarning(r)).toBe(
      "schedule lag p99 96.16 ms > 5 ms: the replay fell behind its trace (its load differs from the trace's)",
    );
  });

  it('is within the bound at p99 = bound, and absent for runs that replay no trace', () => {
    const r = replaySummaryOf(trace, [line(0, 5), line(0, 5)])!;
    expect(r.flagged).toBe(false);
    expect(replayWarning(r)).toBeNull();
    expect(replaySummaryOf(wl({ type: 'synthetic' }), [line(0, 50)])).toBeNull();
  });
});
