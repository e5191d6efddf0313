/**
 * The per-request timers both connection drivers share: the whole-request timeout and the idle
 * watch, and the errors they end a request with. The idle watch is armed once and, when it fires,
 * re-armed for what is left since the last byte: no timer work per read.
 */
import type { RequestError } from '../../../shared/errors.ts';

export interface IdleWatched {
  done: boolean;
  /** performance.now() of the last byte (or of the request written). */
  lastByte: number;
  idleTimer: NodeJS.Timeout | null;
  /** Not being read (back-pressure, backlog.ts): the silence is ours, not the server's. */
  paused?: boolean;
}

export function armIdle(c: IdleWatched, idleMs: number, onIdle: () => void): void {
  if (!idleMs || c.done || c.idleTimer) return;
  const check = (): void => {
    c.idleTimer = null;
    if (c.done) return;
    if (c.paused) {
      c.idleTimer = setTimeout(check, idleMs);
      return;
    }
    const quiet = performance.now() - c.lastByte;
    if (quiet >= idleMs) onIdle();
    else c.idleTimer = setTimeout(check, idleMs - quiet);
  };
  c.idleTimer = setTimeout(check, idleMs);
}

export function timeoutError(timeoutMs: number, atMs: number): RequestError {
  return { kind: 'client', code: 'timeout', message: `No complete response within ${timeoutMs} ms.`, atMs };
}

export function idleError(idleMs: number, atMs: number): RequestError {
  return {
    kind: 'client',
    code: 'idle-timeout',
    message: `No byte arrived for ${idleMs} ms (the idle timeout: --idle-timeout, the workload's idleTimeoutMs, or TOKENSCOPE_IDLE_TIMEOUT_S; 0 = never).`,
    atMs,
  };
}

export function cancelledError(atMs: number, message = 'Cancelled by the user.'): RequestError {
  return { kind: 'client', code: 'cancelled', message, atMs };
}

/**
 * Cancelled while it waited for its planned send on the I/O thread (timed-starts.ts): it has no
 * start event and was never sent (a load run does not count it, as one cancelled in its queue).
 */
export function notSentError(): RequestError {
  return cancelledError(0, 'Cancelled before its planned send.');
}
