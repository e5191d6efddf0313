/**
 * A trace replay's schedule lag: how late each measured request left against the time the trace
 * planned for it (run line `lagMs` = sentMs − scheduledMs), as p50/p99/max, and whether the p99 is
 * past the workload's bound (prompts.maxLagMs, default 10 ms): a replay that fell behind its trace
 * loads the server differently from the trace, so its numbers are flagged.
 */
import { percentileSorted, sortedCopy } from '../../stats/summary.ts';
import type { RunRequestLine } from '../file/line-schema.ts';
import type { Workload } from '../workload/workload.ts';
import type { ReplaySummary } from './schema.ts';

/** A line's lag: its own `lagMs`, else from its send and planned times; null if it was never sent. */
export function lagOfLine(l: RunRequestLine): number | null {
  if (l.lagMs !== undefined) return l.lagMs;
  if (l.sentMs === undefined || l.scheduledMs === null) return null;
  return l.sentMs - l.scheduledMs;
}

/** The replay part of a run's summary: null unless the workload replays a trace. @internal exported for its tests */
export function replaySummaryOf(w: Workload, lines: readonly RunRequestLine[]): ReplaySummary | null {
  if (w.prompts.type !== 'trace') return null;
  const lags: number[] = [];
  for (const l of lines) {
    if (l.warmup) continue;
    const lag = lagOfLine(l);
    if (lag !== null) lags.push(lag);
  }
  return replaySummaryOfLags(w, lags);
}

/** The replay part from the measured lines' lags (run-accumulator.ts keeps them as lines arrive). */
export function replaySummaryOfLags(w: Workload, lags: readonly number[]): ReplaySummary | null {
  if (w.prompts.type !== 'trace') return null;
  const s = sortedCopy(lags);
  const at = (p: number): number => (s.length ? percentileSorted(s, p) : 0);
  const p99 = at(99);
  const boundMs = w.prompts.maxLagMs;
  return {
    speedup: w.prompts.speedup,
    requests: s.length,
    lagP50Ms: at(50),
    lagP99Ms: p99,
    lagMaxMs: s.length ? s[s.length - 1]! : 0,
    boundMs,
    flagged: p99 > boundMs,
  };
}

/** "schedule lag p99 12.40 ms > 10 ms: the replay fell behind its trace" — null when within the bound. */
export function replayWarning(r: ReplaySummary | null | undefined): string | null {
  if (!r?.flagged) return null;
  return `schedule lag p99 ${r.lagP99Ms.toFixed(2)} ms > ${r.boundMs} ms: the replay fell behind its trace (its load differs from the trace's)`;
}
