/**
 * The connection driver for plain-HTTP targets (https goes through node-driver.ts, Node's client):
 * HTTP/1.1 over `net` sockets read with `onread` into one preallocated buffer, so a socket read
 * allocates nothing — no Buffer per read, no stream machinery, no 'data' event. Each read is
 * stamped first, its body bytes decoded in place (http1.ts) and handed to the sink in one piece,
 * so "one socket read, one stamp" holds exactly as with Node's client.
 *
 * Same contract as NodeHttpDriver, and the same request lifecycle (lifecycle.ts: timeouts, cancel,
 * back-pressure acks, the retry rule, the one end); its own: pools (keep-alive, or close after each
 * response), connections, the HTTP/1.1 exchange.
 */
import net from 'node:net';
import { NodeHttpDriver } from './node-driver.ts';
import { Http1ResponseParser, type ParseOut } from './http1.ts';
import { serialize } from './http1-request.ts';
import type { IoDriverConfig, IoPoolOptions, IoRequest, IoSink } from './protocol.ts';
import { RawPool, type RawConn, type RawReq } from './raw-pool.ts';
import { backlogBounds, type HoldTally } from './backlog.ts';
import { errorMessage } from '../../../shared/result.ts';
import { liveRequest, RequestLifecycle } from './lifecycle.ts';

const READ_BUFFER_BYTES = 64 * 1024;

export class RawHttpDriver extends RequestLifecycle<RawReq> {
  private readonly buf = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  private readonly out: ParseOut = { headEnded: false, body: 0, used: 0 };
  private readonly pools = new Map<number, RawPool>();

  pool(id: number, opts: IoPoolOptions): void {
    this.pools.set(id, new RawPool(id, opts));
  }

  closePool(id: number): void {
    const p = this.pools.get(id);
    this.pools.delete(id);
    if (!p) return;
    // A copy of each list: kill() takes the connection out of the list it is in.
    for (const list of p.free.values()) for (const c of [...list]) this.kill(c);
    p.free.clear();
  }

  protected poolIds(): Iterable<number> {
    return this.pools.keys();
  }

  fire(slot: number, req: IoRequest): void {
    const t0 = this.started(slot);
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      this.invalid(slot, `Invalid URL: ${req.url}`);
      return;
    }
    const pool = req.pool === null ? null : (this.pools.get(req.pool) ?? null);
    const keepAlive = pool !== null && pool.opts.mode === 'keep-alive';
    let wire: RawReq['wire'];
    try {
      wire = serialize(req, url, keepAlive);
    } catch (e) {
      this.invalid(slot, `Could not start request: ${errorMessage(e)}`);
      return;
    }
    const key = `${url.hostname}:${url.port || '80'}`;
    const r: RawReq = { ...liveRequest(slot, req, t0), url, key, conn: null, wire };
    this.track(r);
    this.dispatch(r, pool, false);
  }

  protected readAgain(r: RawReq): void {
    const c = r.conn;
    if (c && !c.dead && c.req === r) this.resumeConn(c);
  }

  private resumeConn(c: RawConn): void {
    if (!c.paused) return;
    c.paused = false;
    c.sock.resume();
  }

  // ---- connections ----

  /** A free pooled connection, a new one, or a place in the pool's queue. */
  private dispatch(r: RawReq, pool: RawPool | null, fresh: boolean): void {
    if (pool && !fresh && pool.keepAlive) {
      const c = pool.takeFree(r.key);
      if (c) {
        this.assign(r, c);
        return;
      }
      if (pool.queueIfFull(r)) return;
    }
    this.assign(r, this.connect(r, pool && pool.keepAlive ? pool : null));
  }

  private connect(r: RawReq, pool: RawPool | null): RawConn {
    const host = r.url.hostname.startsWith('[') ? r.url.hostname.slice(1, -1) : r.url.hostname;
    const port = Number(r.url.port || 80);
    const c: RawConn = {
      key: r.key,
      sock: null as unknown as net.Socket,
      parser: new Http1ResponseParser(),
      req: null,
      served: 0,
      connected: false,
      dead: false,
      pool,
      paused: false,
    };
    c.sock = net.connect({
      host,
      port,
      noDelay: true,
      onread: { buffer: this.buf, callback: (n: number) => this.onRead(c, n) },
    });
    pool?.opened(c.key);
    c.sock.on('connect', () => {
      c.connected = true;
      if (c.req) this.sink.ctrl(c.req.slot, { k: 'connected', t: performance.now() });
    });
    c.sock.on('end', () => this.onClose(c, null));
    c.sock.on('error', (e: Error) => this.onClose(c, e));
    c.sock.on('close', () => this.onClose(c, null));
    return c;
  }

  private assign(r: RawReq, c: RawConn): void {
    r.conn = c;
    c.req = r;
    c.parser.reset();
    const reused = c.served > 0;
    this.sink.ctrl(r.slot, { k: 'socket', t: performance.now(), reused, connecting: !c.connected });
    const done = (): void => {
      if (r.conn !== c || r.done) return;
      this.written(r);
    };
    if (typeof r.wire === 'string') c.sock.write(r.wire, done);
    else {
      // Head and body parts in one writev: no copy of a large body into one buffer.
      c.sock.cork();
      const last = r.wire.length - 1;
      for (let i = 0; i < last; i++) c.sock.write(r.wire[i]!);
      c.sock.write(r.wire[last]!, done);
      c.sock.uncork();
    }
  }

  private onRead(c: RawConn, n: number): boolean {
    // Stamp first: nothing before this line may depend on the bytes.
    const t = performance.now();
    const r = c.req;
    if (!r || r.done) {
      // Bytes on an idle connection (or after a cancel): the connection is not reusable.
      this.kill(c);
      return false;
    }
    r.gotBytes = true;
    r.lastByte = t;
    const p = c.parser;
    const out = this.out;
    p.push(this.buf, 0, n, out);
    if (out.headEnded) {
      const h = p.headInfo!;
      this.sink.ctrl(r.slot, {
        k: 'headers',
        t,
        status: h.status,
        contentType: h.contentType,
        requestId: h.requestId,
        location: h.location,
        retryAfter: h.retryAfter,
        contentEncoding: h.contentEncoding,
      });
    }
    if (out.body > 0) {
      this.sink.read(r.slot, t, this.buf, 0, out.body);
      // The measuring side is behind on this request: stop reading it until it catches up.
      if (this.grew(r, out.body) && !p.done) {
        c.paused = true;
        c.sock.pause();
      }
    }
    if (p.error !== null) {
      this.kill(c);
      this.finish(r, {
        k: 'error',
        t,
        error: {
          kind: 'protocol',
          code: 'bad-frame',
          message: `Malformed HTTP response: ${p.error}`,
          atMs: t - r.t0,
        },
      });
      return true;
    }
    if (p.done) {
      c.served++;
      c.req = null;
      const reusable = p.headInfo!.keepAlive && out.used === n && c.pool !== null;
      this.finish(r, { k: 'end', t });
      if (reusable) this.release(c);
      else this.kill(c);
    }
    return true;
  }

  /** The server closed the connection, or it failed. */
  private onClose(c: RawConn, e: Error | null): void {
    const r = c.req;
    const wasDead = c.dead;
    this.kill(c);
    if (!r || r.done || r.conn !== c) return;
    c.req = null;
    const t = performance.now();
    if (r.ending) {
      this.finish(r, { k: 'error', t, error: r.ending });
      return;
    }
    if (!e && c.parser.closeDelimited) {
      this.finish(r, { k: 'end', t }); // a body without length ends with the connection
      return;
    }
    if (wasDead && !e) return;
    const hangUp = e ?? Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    this.failed(r, hangUp, t, c.parser.headInfo !== null, c.served > 0);
  }

  protected resend(r: RawReq): void {
    r.conn = null;
    const pool = r.req.pool === null ? null : (this.pools.get(r.req.pool) ?? null);
    this.dispatch(r, pool, true);
  }

  private release(c: RawConn): void {
    this.resumeConn(c); // a parked connection is read (a server's close must be seen)
    const pool = c.pool!;
    if (this.pools.get(pool.id) !== pool) {
      this.kill(c);
      return;
    }
    const next = pool.nextWaiting(c.key);
    if (next) {
      this.assign(next, c);
      return;
    }
    pool.park(c);
  }

  private kill(c: RawConn): void {
    if (c.dead) return;
    c.dead = true;
    c.sock.destroy();
    const pool = c.pool;
    if (!pool) return;
    pool.closed(c);
    // A slot opened up: the next waiting request gets a new connection.
    const next = pool.nextWaiting(c.key);
    if (next) this.assign(next, this.connect(next, pool));
  }

  // ---- ends ----

  /** Ending from our side: its connection killed (or its place in a pool's queue given up); ended now. */
  protected abort(r: RawReq): boolean {
    const c = r.conn;
    if (c && !c.dead) {
      c.req = null;
      this.kill(c);
    }
    // Still queued for a connection: take it out.
    if (!c && r.req.pool !== null) this.pools.get(r.req.pool)?.unqueue(r);
    return false;
  }
}

/**
 * Both drivers behind one face: plain HTTP through RawHttpDriver, https (TLS) through Node's
 * client (node-driver.ts). `httpClient: 'node'` (TOKENSCOPE_HTTP_CLIENT=node at the entry point) sends
 * plain HTTP through Node's client too (comparisons; a fallback should a server need something the
 * raw driver does not speak).
 */
export class Drivers {
  private readonly raw: RawHttpDriver;
  private readonly node: NodeHttpDriver;
  private readonly useNode: boolean;

  /** `holds`: where the thread's holds (backlog.ts) are counted, its loop monitor's. */
  constructor(sink: IoSink, cfg: IoDriverConfig, holds?: HoldTally) {
    const bounds = backlogBounds(cfg.backlogHighBytes);
    this.raw = new RawHttpDriver(sink, bounds, holds);
    this.node = new NodeHttpDriver(sink, bounds, holds);
    this.useNode = cfg.httpClient === 'node';
  }

  get active(): number {
    return this.raw.active + this.node.active;
  }

  pool(id: number, opts: IoPoolOptions): void {
    this.raw.pool(id, opts);
    this.node.pool(id, opts);
  }

  closePool(id: number): void {
    this.raw.closePool(id);
    this.node.closePool(id);
  }

  fire(slot: number, req: IoRequest): void {
    if (!this.useNode && req.url.startsWith('http:')) this.raw.fire(slot, req);
    else this.node.fire(slot, req);
  }

  cancel(slot: number): void {
    this.raw.cancel(slot);
    this.node.cancel(slot);
  }

  ack(slot: number, bytes: number): void {
    this.raw.ack(slot, bytes);
    this.node.ack(slot, bytes);
  }

  destroy(): void {
    this.raw.destroy();
    this.node.destroy();
  }
}
