/**
 * The summary of a native run from its file lines: the runner calls this at the end, and the
 * reader calls it for a partial file (no summary line), so both give the same numbers.
 */
import { finishedMs, isCancelledLine, outcomeOfLine } from './outcome.ts';
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import type { RunSummary } from './schema.ts';
import type { SelfCheck } from './self-check-schema.ts';
import { computeRunSummary } from './summary.ts';
import { byTurnOf } from './by-turn.ts';
import { outcomeUnder, type DefinitionsId } from './definitions.ts';
import type { Workload } from '../workload/workload.ts';
import { replaySummaryOf } from './replay-lag.ts';
import { serverPhasesSummaryOf } from '../../tracing/phase-summary.ts';
import { prefixCacheOf } from './prefix-cache.ts';
import { expectedHits, type ExpectedHits } from '../workload/prefix-groups.ts';

export interface SummarizeRunOptions {
  /** Measured duration, s. Default (partial files): from the first dispatch (0) to the last finish seen. */
  durationS?: number;
  partial?: boolean;
  cancelled?: boolean;
  selfCheck?: SelfCheck | null;
  /** Re-derive under another preset's per-request rules (definitions.ts); default Tokenscope's. */
  definitions?: DefinitionsId;
  /** Spans were joined and client and server share a clock (the spans line's sharedClock). */
  sharedClock?: boolean;
}

function configOf(w: Workload): RunSummary['config'] {
  return {
    maxConcurrency: w.maxConcurrency,
    requestRate: w.rate,
    burstiness: w.burstiness,
    numPrompts: w.requests ?? null,
  };
}

export function summarizeRunLines(
  header: RunHeader,
  lines: readonly RunRequestLine[],
  o: SummarizeRunOptions = {},
): RunSummary {
  const measured = lines.filter((l) => !l.warmup);
  const kept = measured.filter((l) => !isCancelledLine(l));
  let durationS = o.durationS;
  if (durationS === undefined) {
    let end = 0;
    for (const l of measured) end = Math.max(end, finishedMs(l));
    durationS = end / 1000;
  }
  const outcomes = kept.map((l) =>
    o.definitions && o.definitions !== 'tokenscope'
      ? outcomeUnder(l, o.definitions, header.target.dialect)
      : outcomeOfLine(l),
  );
  const byTurn = byTurnOf(
    outcomes,
    kept.map((l) => l.turn),
  );
  const summary = computeRunSummary({
    outcomes,
    definitions: o.definitions ?? 'tokenscope',
    durationS,
    slo: header.workload.slo ?? null,
    config: configOf(header.workload),
    partial: o.partial ?? false,
    cancelled: o.cancelled ?? false,
    cancelledRequests: measured.length - kept.length,
    warmupRequests: lines.length - measured.length,
    selfCheck: o.selfCheck ?? null,
  });
  const replay = replaySummaryOf(header.workload, lines);
  if (replay) summary.replay = replay;
  const phases = serverPhasesSummaryOf(lines, header.clockZeroWall, o.sharedClock ?? false);
  if (phases) summary.serverPhases = phases;
  const cache = prefixCacheOf(
    outcomes.filter((x) => x.ok),
    expectedOf(header.workload, kept),
  );
  if (cache) summary.prefixCache = cache;
  return byTurn ? { ...summary, byTurn } : summary;
}

/** The hits a prefix-groups workload should give over the requests the run measured (by item index). */
function expectedOf(w: Workload, kept: readonly RunRequestLine[]): ExpectedHits | null {
  const src = w.prompts;
  if (src.type !== 'synthetic' || !src.prefixGroups || kept.length === 0) return null;
  const tokens = new Map<number, number>();
  let n = 0;
  for (const l of kept) {
    tokens.set(l.seq, l.inputTokens ?? 0);
    n = Math.max(n, l.seq + 1);
  }
  return expectedHits(src.prefixGroups, w.seed, n, (i) => tokens.get(i) ?? 0);
}
