/**
 * A run's server phases from the spans joined to its requests: exact per request (each request's
 * own span), so the percentiles are of the values themselves, not of a histogram's buckets like a
 * /metrics scrape's. Beside them the same requests' client TTFT and its parts (ttft-parts.ts).
 * Percentiles as everywhere else (shared/stats/summary.ts, numpy's linear interpolation).
 */
import { summarize } from '../stats/summary.ts';
import type { RunRequestLine } from '../runs/file/line-schema.ts';
import type { MetricStats } from '../runs/summary/schema.ts';
import { toMetricStats } from '../runs/summary/summary.ts';
import { ttftParts } from './ttft-parts.ts';

export interface ServerPhasesSummary {
  /** Successful measured requests, and of them those with a joined span. */
  requests: number;
  joined: number;
  /** Client and server share a wall clock: send and return are derived (else null). */
  sharedClock: boolean;
  queueMs: MetricStats | null;
  prefillMs: MetricStats | null;
  decodeMs: MetricStats | null;
  /** The server's TTFT (arrival → first token) and E2E. */
  serverTtftMs: MetricStats | null;
  serverE2eMs: MetricStats | null;
  /** The joined requests' client TTFT, and its parts. */
  clientTtftMs: MetricStats | null;
  outsideServerMs: MetricStats | null;
  preQueueMs: MetricStats | null;
  sendMs: MetricStats | null;
  returnMs: MetricStats | null;
}

const stats = (v: number[]): MetricStats | null => toMetricStats(summarize(v));

/** What the summary reads of a request line (a run's accumulator keeps only this: run-accumulator.ts). */
export type PhaseLine = Pick<RunRequestLine, 'warmup' | 'status' | 'ttftMs' | 'sentMs' | 'server'>;

export function serverPhasesSummaryOf(
  lines: readonly PhaseLine[],
  clockZeroWall: number | undefined,
  sharedClock: boolean,
): ServerPhasesSummary | null {
  const ok = lines.filter((l) => !l.warmup && l.status === 'ok');
  const joined = ok.filter((l) => l.server);
  if (joined.length === 0) return null;
  const col = (f: (l: PhaseLine) => number | null | undefined): number[] =>
    joined.map(f).filter((x): x is number => typeof x === 'number');
  const useClock = sharedClock && clockZeroWall !== undefined;
  const parts = joined.map((l) =>
    ttftParts(l.ttftMs, l.server, useClock && l.sentMs !== undefined ? clockZeroWall + l.sentMs : null),
  );
  const pcol = (f: (p: NonNullable<(typeof parts)[number]>) => number | null): number[] =>
    parts.map((p) => (p ? f(p) : null)).filter((x): x is number => typeof x === 'number');
  return {
    requests: ok.length,
    joined: joined.length,
    sharedClock: useClock,
    queueMs: stats(col((l) => l.server?.queueMs)),
    prefillMs: stats(col((l) => l.server?.prefillMs)),
    decodeMs: stats(col((l) => l.server?.decodeMs)),
    serverTtftMs: stats(col((l) => l.server?.ttftMs)),
    serverE2eMs: stats(col((l) => l.server?.e2eMs)),
    clientTtftMs: stats(pcol((p) => p.clientTtftMs)),
    outsideServerMs: stats(pcol((p) => p.outsideServerMs)),
    preQueueMs: stats(pcol((p) => p.preQueueMs)),
    sendMs: useClock ? stats(pcol((p) => p.sendMs)) : null,
    returnMs: useClock ? stats(pcol((p) => p.returnMs)) : null,
  };
}
