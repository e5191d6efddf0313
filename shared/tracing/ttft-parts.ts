/**
 * One request's TTFT taken apart with the server's span (docs/tracing.md):
 *
 *   client send → [send: request on the wire, network] → arrival at the server
 *     → [pre-queue: API server, tokenization] → [queue] → [prefill] → first token leaves the server
 *     → [return: flush, network, the client's read] → first token at the client
 *
 * Measured: the client's TTFT (its clock), the server's queue, prefill and TTFT (its clock, from
 * the span's attributes). Derived: pre-queue = server TTFT − queue − prefill (same clock, exact);
 * and, only when client and server share a clock (the same machine, e.g. the simulator), send =
 * span start − client send, return = client TTFT − send − server TTFT. Without a shared clock a
 * one-way split is not derivable: only their sum, client TTFT − server TTFT (both durations on
 * their own clocks, so no offset enters). The parts sum to the client's TTFT by construction.
 */
import type { ServerPhases } from './server-phases.ts';

export interface TtftParts {
  clientTtftMs: number;
  /** send + return: client TTFT − server TTFT, derivable without a shared clock. */
  outsideServerMs: number;
  /** Null without a shared clock. */
  sendMs: number | null;
  preQueueMs: number;
  queueMs: number;
  prefillMs: number;
  /** Null without a shared clock. */
  returnMs: number | null;
  sharedClock: boolean;
}

/**
 * `sentWallMs`: the client's send as wall time (run header clockZeroWall + the line's sentMs);
 * null when the server's clock cannot be trusted against ours.
 */
export function ttftParts(
  clientTtftMs: number | null,
  server: ServerPhases | undefined,
  sentWallMs: number | null,
): TtftParts | null {
  if (clientTtftMs === null || !server) return null;
  const { ttftMs, queueMs, prefillMs } = server;
  if (ttftMs === null || queueMs === null || prefillMs === null) return null;
  const sendMs = sentWallMs === null ? null : server.startWallMs - sentWallMs;
  return {
    clientTtftMs,
    outsideServerMs: clientTtftMs - ttftMs,
    sendMs,
    preQueueMs: ttftMs - queueMs - prefillMs,
    queueMs,
    prefillMs,
    returnMs: sendMs === null ? null : clientTtftMs - sendMs - ttftMs,
    sharedClock: sendMs !== null,
  };
}

/** Loopback targets share this machine's wall clock; anything else is assumed not to. */
export function sharesClock(url: string): boolean {
  try {
    const h = new URL(url).hostname;
    return h === 'localhost' || h === '[::1]' || h === '::1' || /^127\./.test(h);
  } catch {
    return false;
  }
}
