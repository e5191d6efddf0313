/**
 * The raw driver's state (raw-driver.ts): its connections, its requests, and the pools' bookkeeping
 * per host:port — free keep-alive connections, how many are open, and the requests queued while
 * maxSockets are. Bookkeeping only: the driver opens, assigns and kills the sockets.
 */
import type net from 'node:net';
import type { Http1ResponseParser } from './http1.ts';
import type { IoPoolOptions } from './protocol.ts';
import type { LiveRequest } from './lifecycle.ts';

export interface RawConn {
  key: string;
  sock: net.Socket;
  parser: Http1ResponseParser;
  req: RawReq | null;
  /** Responses completed on this connection. */
  served: number;
  connected: boolean;
  dead: boolean;
  pool: RawPool | null;
  /** Not being read: its request's backlog is over the bound (backlog.ts). */
  paused: boolean;
}

export interface RawReq extends LiveRequest {
  url: URL;
  key: string;
  conn: RawConn | null;
  /** Serialized request head + body, built once (a retry sends the same bytes). */
  /** The request's bytes (http1-request.ts serialize): text, or a head and a body of bytes. */
  wire: string | (string | Uint8Array)[];
}

export class RawPool {
  readonly free = new Map<string, RawConn[]>();
  private readonly open = new Map<string, number>();
  private readonly waiting = new Map<string, RawReq[]>();

  constructor(
    readonly id: number,
    readonly opts: IoPoolOptions,
  ) {}

  get keepAlive(): boolean {
    return this.opts.mode === 'keep-alive';
  }

  /** A live free connection to `key` (dead ones met on the way are dropped), or null. */
  takeFree(key: string): RawConn | null {
    const free = this.free.get(key);
    while (free && free.length > 0) {
      const c = free.pop()!;
      if (!c.dead) return c;
    }
    return null;
  }

  /** Queues `r` when maxSockets connections to its host are open already (true), else false. */
  queueIfFull(r: RawReq): boolean {
    const open = this.open.get(r.key) ?? 0;
    if (open < this.opts.maxSockets) return false;
    let q = this.waiting.get(r.key);
    if (!q) this.waiting.set(r.key, (q = []));
    q.push(r);
    return true;
  }

  /** The next request waiting for a connection to `key`, taken out of the queue. */
  nextWaiting(key: string): RawReq | undefined {
    return this.waiting.get(key)?.shift();
  }

  /** Takes a request that ended while queued out of the queue. */
  unqueue(r: RawReq): void {
    const q = this.waiting.get(r.key);
    const i = q?.indexOf(r) ?? -1;
    if (q && i >= 0) q.splice(i, 1);
  }

  opened(key: string): void {
    this.open.set(key, (this.open.get(key) ?? 0) + 1);
  }

  /** A connection done with its response, kept for the next request to its host. */
  park(c: RawConn): void {
    let free = this.free.get(c.key);
    if (!free) this.free.set(c.key, (free = []));
    free.push(c);
  }

  /** A connection died: it is no longer open, nor free. */
  closed(c: RawConn): void {
    this.open.set(c.key, Math.max(0, (this.open.get(c.key) ?? 1) - 1));
    const free = this.free.get(c.key);
    if (free) {
      const i = free.indexOf(c);
      if (i >= 0) free.splice(i, 1);
    }
  }
}
