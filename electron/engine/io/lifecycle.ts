/**
 * One request's lifecycle on the stream-I/O side, shared by both connection drivers (raw-driver.ts
 * over `net` sockets, node-driver.ts over Node's http/https client): the start event and the
 * request's zero, the whole-request timeout, "request written" and the idle watch it arms, cancel,
 * back-pressure acks, the classification of a failed connection with the one retry rule, and the
 * one end (timers cleared, the request forgotten, its last event sent). The transports keep what
 * is theirs: connections, pools, writing, and the read path — stamp, hand on, count the backlog —
 * which goes through nothing here (no call, no allocation per read).
 *
 * The retry rule (servers that advertise keep-alive and close anyway, such as llama.cpp's): a
 * request whose *reused* pooled connection fails before any response byte is sent again, once, on
 * a new connection, and reported as a retry, not as a server failure. A request that received any
 * byte of a response is never retried.
 */
import type { RequestError } from '../../../shared/errors.ts';
import { classifySocketError } from '../classify.ts';
import { armIdle, cancelledError, idleError, timeoutError, type IdleWatched } from './timers.ts';
import {
  addHold,
  backlogGrew,
  backlogShrank,
  holdTally,
  type BacklogBounds,
  type Backlogged,
  type HoldTally,
} from './backlog.ts';
import type { IoRequest, IoSink } from './protocol.ts';

/** What the lifecycle keeps of a request; each driver's request state extends it. */
export interface LiveRequest extends Backlogged, IdleWatched {
  slot: number;
  req: IoRequest;
  /** performance.now() at the start event: the request's zero. */
  t0: number;
  /** Bytes of a response seen (any attempt): from then on nothing is retried. */
  gotBytes: boolean;
  retries: number;
  /** The reason this request was ended from our side (cancel, timeout), set before its transport is torn down. */
  ending: RequestError | null;
  timer: NodeJS.Timeout | null;
  paused: boolean;
  /** When its connection stopped being read (while `paused`), performance.now(). */
  heldSince: number;
}

/** The fields every request starts with (a driver spreads them into its own state). */
export function liveRequest(slot: number, req: IoRequest, t0: number): LiveRequest {
  return {
    slot,
    req,
    t0,
    gotBytes: false,
    retries: 0,
    ending: null,
    done: false,
    timer: null,
    idleTimer: null,
    lastByte: t0,
    backlog: 0,
    paused: false,
    heldSince: 0,
  };
}

export function invalidRequest(message: string): RequestError {
  return { kind: 'client', code: 'invalid-request', message, atMs: 0 };
}

type LastEvent = { k: 'end'; t: number } | { k: 'error'; t: number; error: RequestError };

export abstract class RequestLifecycle<R extends LiveRequest> {
  protected readonly live = new Map<number, R>();

  constructor(
    protected readonly sink: IoSink,
    protected readonly bounds: BacklogBounds,
    /** Where this thread's holds are counted (its loop monitor's, for the self-check). */
    private readonly holds: HoldTally = holdTally(),
  ) {}

  get active(): number {
    return this.live.size;
  }

  /**
   * Tears down what the transport holds for `r`, which is ending from our side (`r.ending` set):
   * true when the transport will report the end itself (an error event it owns, `failed`), false
   * to end it now.
   */
  protected abstract abort(r: R): boolean;
  /** The backlog is down again: read `r`'s connection again. */
  protected abstract readAgain(r: R): void;
  /** The retry rule said send `r` again, on a new connection. */
  protected abstract resend(r: R): void;
  abstract closePool(id: number): void;
  protected abstract poolIds(): Iterable<number>;

  /** The start event: the request's zero. Before anything is checked, so a failure has a zero too. */
  protected started(slot: number): number {
    const t0 = performance.now();
    this.sink.ctrl(slot, { k: 'start', t: t0 });
    return t0;
  }

  /** A request that cannot be sent at all (bad URL, a head that cannot be written), not tracked. */
  protected invalid(slot: number, message: string): void {
    this.sink.ctrl(slot, { k: 'error', t: performance.now(), error: invalidRequest(message) });
  }

  /** Tracks `r` and arms its whole-request timeout. */
  protected track(r: R): void {
    this.live.set(r.slot, r);
    const timeoutMs = r.req.timeoutMs;
    r.timer = setTimeout(
      () => this.endFromHere(r, timeoutError(timeoutMs, performance.now() - r.t0)),
      timeoutMs,
    );
  }

  cancel(slot: number): void {
    const r = this.live.get(slot);
    if (!r) return;
    this.endFromHere(r, cancelledError(performance.now() - r.t0));
  }

  /**
   * A read of `bytes` of `r` was handed on: true when its connection is to stop being read now,
   * its backlog over the bound (backlog.ts). The hold is timed from here.
   */
  protected grew(r: R, bytes: number): boolean {
    if (!backlogGrew(r, bytes, this.bounds)) return false;
    r.heldSince = performance.now();
    return true;
  }

  /** The measuring side decoded `bytes` of this request's reads (backlog.ts). */
  ack(slot: number, bytes: number): void {
    const r = this.live.get(slot);
    if (!r || !backlogShrank(r, bytes, this.bounds)) return;
    // The wait was ours, not the server's: the idle clock starts again.
    r.lastByte = performance.now();
    addHold(this.holds, r.lastByte - r.heldSince);
    this.readAgain(r);
  }

  /** The request is on the wire: reported, and the idle watch starts from now. */
  protected written(r: R): void {
    const t = performance.now();
    r.lastByte = t;
    this.sink.ctrl(r.slot, { k: 'written', t });
    const idle = r.req.idleTimeoutMs;
    // Armed once; when it fires, re-armed for what is left since the last byte (no work per read).
    armIdle(r, idle, () => this.endFromHere(r, idleError(idle, performance.now() - r.t0)));
  }

  /** Cancel, timeout, idle: the request ends with `err`. */
  protected endFromHere(r: R, err: RequestError): void {
    if (r.done) return;
    r.ending = err;
    if (!this.abort(r)) this.finish(r, { k: 'error', t: performance.now(), error: err });
  }

  /**
   * The request's connection failed at `t` with `e`: it ends with the reason we ended it for, or
   * with `e` classified — unless the retry rule sends it again (`reused`: the connection had served
   * a response before).
   */
  protected failed(r: R, e: Error, t: number, headersSeen: boolean, reused: boolean): void {
    if (r.ending) {
      this.finish(r, { k: 'error', t, error: r.ending });
      return;
    }
    const err = classifySocketError(e, t - r.t0, headersSeen);
    if (!r.gotBytes && reused && r.retries === 0 && err.kind === 'network') {
      // The pooled connection had been closed by the server: not this request's failure.
      r.retries++;
      this.sink.ctrl(r.slot, { k: 'retry', t, error: err });
      this.resend(r);
      return;
    }
    this.finish(r, { k: 'error', t, error: err });
  }

  /** The one end of a request: its timers cleared, forgotten, its last event sent. */
  protected finish(r: R, ev: LastEvent): void {
    if (r.done) return;
    r.done = true;
    if (r.paused) addHold(this.holds, performance.now() - r.heldSince);
    if (r.timer) clearTimeout(r.timer);
    if (r.idleTimer) clearTimeout(r.idleTimer);
    this.live.delete(r.slot);
    this.sink.ctrl(r.slot, ev);
  }

  /** Ends everything (the thread is shutting down). */
  destroy(): void {
    for (const r of [...this.live.values()]) {
      this.endFromHere(r, cancelledError(0, 'The I/O thread stopped.'));
    }
    for (const id of [...this.poolIds()]) this.closePool(id);
  }
}
