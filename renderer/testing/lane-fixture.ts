/** A lane store filled the way the live run fills it (one batch: starts, events, ends), for tests. */
import type { RunLaneBatch } from '../../shared/runs-api.ts';

export interface LaneSpec {
  id: string;
  /** Arrival and send, ms since the run began (queue = startedMs − arrivedMs). */
  arrivedMs: number;
  startedMs: number;
  /** Event times (ms since the run began) and their tokens. */
  t: number[];
  tok: number[];
  endMs: number;
  ttftMs: number;
  outputTokens: number;
  /** A failed lane ends with a server error ("x"). */
  ok: boolean;
}

/** `fillLanes(new LaneStore(), lanes)`: the store given, reset and filled with one batch. */
export function fillLanes<S extends { reset(runId: string): void; apply(b: RunLaneBatch): void }>(
  s: S,
  lanes: readonly LaneSpec[],
): S {
  s.reset('r');
  s.apply({
    runId: 'r',
    starts: lanes.map((l) => ({
      id: l.id,
      seq: 0,
      warmup: false,
      scheduledMs: l.arrivedMs,
      arrivedMs: l.arrivedMs,
      startedMs: l.startedMs,
      queueMs: l.startedMs - l.arrivedMs,
    })),
    events: lanes.map((l) => ({ id: l.id, t: l.t, tok: l.tok })),
    done: lanes.map((l) => ({
      id: l.id,
      ok: l.ok,
      endMs: l.endMs,
      ttftMs: l.ttftMs,
      errorKind: l.ok ? null : ('server' as const),
      errorMessage: l.ok ? null : 'x',
      outputTokens: l.outputTokens,
    })),
  });
  return s;
}
