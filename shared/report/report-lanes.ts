/**
 * A run's swimlane for a report: its measured requests as columns, in the order the app's lane
 * store loads them (renderer/runs/live/lane-store.ts loadLines), with token ticks thinned to a budget
 * and the exact output tokens per second (from every event, so throughput does not depend on the
 * thinning). A 10,000-request run has millions of events; a report keeps ~100,000 ticks.
 */
import { requestOriginMs } from '../runs/summary/outcome.ts';
import type { RunRequestLine } from '../runs/file/line-schema.ts';
import type { ReportLanes } from './report-types.ts';

/** Ticks kept per report run by default: ~1 MB of JSON, more than a swimlane can draw apart. */
export const DEFAULT_TICK_BUDGET = 100_000;

/** Null when the run has no measured request. */
export function reportLanes(
  lines: readonly RunRequestLine[],
  budget = DEFAULT_TICK_BUDGET,
): ReportLanes | null {
  const measured = lines
    .filter((l) => !l.warmup)
    .sort((a, b) => requestOriginMs(a) - requestOriginMs(b) || a.seq - b.seq);
  if (measured.length === 0) return null;
  let events = 0;
  for (const l of measured) events += l.events.t.length;
  // Every stride-th event of each lane, its first and last always (the lane's extent and the run's
  // end stay exact); a dropped event's tokens go to the next tick kept.
  const stride = Math.max(1, Math.ceil(events / Math.max(1, budget)));
  const out: ReportLanes = {
    id: [],
    seq: [],
    arrivedMs: [],
    startedMs: [],
    endAfterMs: [],
    ttftMs: [],
    ok: [],
    outTokens: [],
    errors: [],
    tickCount: [],
    tickT: [],
    tickTok: [],
    events,
    ticksKept: 0,
    tokPerS: [],
  };
  const tokPerS: number[] = [];
  const add = (ms: number, n: number): void => {
    const b = Math.max(0, Math.floor(ms / 1000));
    while (tokPerS.length <= b) tokPerS.push(0);
    tokPerS[b]! += n;
  };
  measured.forEach((l, i) => {
    const t = l.events.t;
    const tok = l.events.tok;
    out.id.push(l.id);
    out.seq.push(l.seq);
    out.arrivedMs.push(l.arrivedMs);
    // The lane starts where its event times count from (outcome.ts requestOriginMs).
    const origin = requestOriginMs(l);
    out.startedMs.push(origin);
    out.endAfterMs.push(l.e2eMs ?? l.phases.endMs ?? (t.length ? t[t.length - 1]! : 0));
    out.ttftMs.push(l.ttftMs);
    out.ok.push(l.status === 'ok' ? 1 : 0);
    out.outTokens.push(l.outputTokens);
    if (l.error) out.errors.push([i, `${l.error.kind}/${l.error.code}: ${l.error.message}`]);
    let kept = 0;
    let carry = 0;
    for (let j = 0; j < t.length; j++) {
      const n = tok[j] ?? 0;
      // The lane store adds the send time to each event time (lane-store.ts addEvents): the same sum here.
      if (n > 0) add(t[j]! + origin, n);
      carry += n;
      if (j % stride === 0 || j === t.length - 1) {
        out.tickT.push(t[j]!);
        out.tickTok.push(carry);
        carry = 0;
        kept++;
      }
    }
    out.tickCount.push(kept);
    out.ticksKept += kept;
    // The lane store counts a request's end in its second too (for the buckets' extent).
    const end = origin + out.endAfterMs[i]!;
    const b = Math.max(0, Math.floor(end / 1000));
    while (tokPerS.length <= b) tokPerS.push(0);
  });
  out.tokPerS = tokPerS;
  return out;
}
