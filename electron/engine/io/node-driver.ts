/**
 * The Node-http connection driver (https targets; plain HTTP with httpClient 'node'): opens
 * connections, writes requests, stamps every socket read. It runs on the stream-I/O thread (io-worker.ts), or inline in the measuring thread (`--io-threads 0`),
 * and reports to an IoSink. Per read it does only: take the time, hand the bytes on — no parsing,
 * no per-read objects of its own (Node's http allocates the Buffer; the sink copies it).
 *
 * Timing rule: each read is stamped the moment its 'data' callback runs, before anything looks at
 * it. node:http gives one chunk per socket read (fetch would merge reads).
 *
 * Connections (issue: servers that advertise keep-alive and close anyway, such as llama.cpp's):
 * a request whose *reused* pooled connection fails before any response byte is sent again, once,
 * on a new connection, and reported as a retry, not as a server failure. A request that received
 * any byte of a response is never retried.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { RequestError } from '../../../shared/errors.ts';
import { classifySocketError } from '../classify.ts';
import { armIdle, cancelledError, idleError, timeoutError } from './timers.ts';
import { backlogGrew, backlogShrank, type BacklogBounds, type Backlogged } from './backlog.ts';
import type { IoCtrl, IoPoolOptions, IoRequest, IoSink } from './protocol.ts';
import { errorMessage } from '../../../shared/result.ts';

interface Pool {
  opts: IoPoolOptions;
  http: http.Agent | null;
  https: https.Agent | null;
}

interface Conn extends Backlogged {
  slot: number;
  req: IoRequest;
  sink: IoSink;
  t0: number;
  /** Bytes of a response seen (any attempt): from then on nothing is retried. */
  gotResponse: boolean;
  retries: number;
  /** The reason this request was ended from our side (cancel, timeout), set before destroy. */
  ending: RequestError | null;
  done: boolean;
  current: http.ClientRequest | null;
  /** The response being read (paused while the backlog is over its bound). */
  res: http.IncomingMessage | null;
  timer: NodeJS.Timeout | null;
  idleTimer: NodeJS.Timeout | null;
  lastByte: number;
}

export class NodeHttpDriver {
  private readonly pools = new Map<number, Pool>();
  private readonly conns = new Map<number, Conn>();

  constructor(
    private readonly sink: IoSink,
    private readonly bounds: BacklogBounds,
  ) {}

  get active(): number {
    return this.conns.size;
  }

  pool(id: number, opts: IoPoolOptions): void {
    this.pools.set(id, { opts, http: null, https: null });
  }

  closePool(id: number): void {
    const p = this.pools.get(id);
    this.pools.delete(id);
    p?.http?.destroy();
    p?.https?.destroy();
  }

  private agentFor(poolId: number | null, isHttps: boolean): http.Agent | false {
    const p = poolId === null ? undefined : this.pools.get(poolId);
    if (!p || p.opts.mode === 'close') return false;
    const o = { keepAlive: true, maxSockets: p.opts.maxSockets, keepAliveMsecs: 10_000 };
    if (isHttps) return (p.https ??= new https.Agent(o));
    return (p.http ??= new http.Agent(o));
  }

  fire(slot: number, req: IoRequest): void {
    const c: Conn = {
      slot,
      req,
      sink: this.sink,
      t0: performance.now(),
      gotResponse: false,
      retries: 0,
      ending: null,
      done: false,
      current: null,
      res: null,
      timer: null,
      idleTimer: null,
      lastByte: 0,
      backlog: 0,
      paused: false,
    };
    this.conns.set(slot, c);
    c.sink.ctrl(slot, { k: 'start', t: c.t0 });
    c.timer = setTimeout(() => {
      this.endFromHere(c, timeoutError(req.timeoutMs, performance.now() - c.t0));
    }, req.timeoutMs);
    this.attempt(c, false);
  }

  cancel(slot: number): void {
    const c = this.conns.get(slot);
    if (!c) return;
    this.endFromHere(c, cancelledError(performance.now() - c.t0));
  }

  /** The measuring side decoded `bytes` of this request's reads (backlog.ts). */
  ack(slot: number, bytes: number): void {
    const c = this.conns.get(slot);
    if (!c || !backlogShrank(c, bytes, this.bounds)) return;
    c.lastByte = performance.now(); // the wait was ours: the idle clock starts again
    c.res?.resume();
  }

  /** Cancel, timeout: the request ends with `err`; destroying the socket makes it emit an error we own. */
  private endFromHere(c: Conn, err: RequestError): void {
    if (c.done) return;
    c.ending = err;
    if (c.current) c.current.destroy();
    else this.finish(c, { k: 'error', t: performance.now(), error: err });
  }

  private finish(
    c: Conn,
    ev: { k: 'end'; t: number } | { k: 'error'; t: number; error: RequestError },
  ): void {
    if (c.done) return;
    c.done = true;
    if (c.timer) clearTimeout(c.timer);
    if (c.idleTimer) clearTimeout(c.idleTimer);
    this.conns.delete(c.slot);
    c.sink.ctrl(c.slot, ev);
  }

  /**
   * The idle timer is armed once and, when it fires, re-armed for what is left since the last
   * byte: no timer work per read.
   */
  private armIdle(c: Conn): void {
    const idle = c.req.idleTimeoutMs;
    armIdle(c, idle, () => this.endFromHere(c, idleError(idle, performance.now() - c.t0)));
  }

  private attempt(c: Conn, fresh: boolean): void {
    const { req: r, slot, sink } = c;
    let endpoint: URL;
    try {
      endpoint = new URL(r.url);
    } catch {
      this.finish(c, {
        k: 'error',
        t: performance.now(),
        error: { kind: 'client', code: 'invalid-request', message: `Invalid URL: ${r.url}`, atMs: 0 },
      });
      return;
    }
    const isHttps = endpoint.protocol === 'https:';
    const mod = isHttps ? https : http;
    const agent = fresh ? false : this.agentFor(r.pool, isHttps);
    const headers = { ...r.headers };
    const poolMode = r.pool === null ? null : (this.pools.get(r.pool)?.opts.mode ?? null);
    if (agent === false && poolMode !== null) headers.connection = 'close';
    let req: http.ClientRequest;
    try {
      req = mod.request(endpoint, {
        method: r.method,
        headers,
        agent,
        ...(isHttps ? { rejectUnauthorized: !r.insecureTls } : {}),
      });
    } catch (e) {
      this.finish(c, {
        k: 'error',
        t: performance.now(),
        error: {
          kind: 'client',
          code: 'invalid-request',
          message: `Could not start request: ${errorMessage(e)}`,
          atMs: 0,
        },
      });
      return;
    }
    c.current = req;
    let headersSeen = false;

    req.on('error', (e: Error & { code?: string }) => {
      if (c.done || c.current !== req) return;
      const t = performance.now();
      if (c.ending) {
        this.finish(c, { k: 'error', t, error: c.ending });
        return;
      }
      const err = classifySocketError(e, t - c.t0, headersSeen);
      if (!c.gotResponse && req.reusedSocket && c.retries === 0 && err.kind === 'network') {
        // The pooled connection was already closed by the server: not this request's failure.
        c.retries++;
        sink.ctrl(slot, { k: 'retry', t, error: err });
        this.attempt(c, true);
        return;
      }
      this.finish(c, { k: 'error', t, error: err });
    });

    req.on('socket', (sock: Socket) => {
      sock.setNoDelay(true);
      const connecting = sock.connecting || (sock as { pending?: boolean }).pending === true;
      sink.ctrl(slot, { k: 'socket', t: performance.now(), reused: req.reusedSocket, connecting });
      if (connecting) {
        sock.once(isHttps ? 'secureConnect' : 'connect', () => {
          if (c.current === req) sink.ctrl(slot, { k: 'connected', t: performance.now() });
        });
      }
    });
    req.on('finish', () => {
      if (c.current !== req) return;
      const t = performance.now();
      c.lastByte = t;
      sink.ctrl(slot, { k: 'written', t });
      this.armIdle(c);
    });
    req.on('response', (res: http.IncomingMessage) => {
      const t = performance.now();
      headersSeen = true;
      c.gotResponse = true;
      c.lastByte = t;
      sink.ctrl(slot, headersEvent(res, t));
      res.on('data', (chunk: Buffer) => {
        // Stamp first: nothing before this line may depend on the chunk.
        const tr = performance.now();
        c.lastByte = tr;
        sink.read(slot, tr, chunk, 0, chunk.length);
        if (backlogGrew(c, chunk.length, this.bounds)) res.pause();
      });
      c.res = res;
      res.on('end', () => this.finish(c, { k: 'end', t: performance.now() }));
      res.on('aborted', () => {
        if (c.done) return;
        const ta = performance.now();
        this.finish(c, {
          k: 'error',
          t: ta,
          error:
            c.ending ??
            classifySocketError(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), ta - c.t0, true),
        });
      });
      res.on('error', (e: Error) => {
        if (c.done) return;
        const te = performance.now();
        this.finish(c, { k: 'error', t: te, error: c.ending ?? classifySocketError(e, te - c.t0, true) });
      });
    });
    req.end(r.body);
  }

  /** Ends everything (the thread is shutting down). */
  destroy(): void {
    for (const c of [...this.conns.values()]) {
      this.endFromHere(c, cancelledError(0, 'The I/O thread stopped.'));
    }
    for (const id of [...this.pools.keys()]) this.closePool(id);
  }
}

function headersEvent(res: http.IncomingMessage, t: number): IoCtrl {
  const rid = res.headers['x-request-id'];
  return {
    k: 'headers',
    t,
    status: res.statusCode ?? 0,
    contentType: res.headers['content-type'] ?? null,
    requestId: typeof rid === 'string' ? rid : null,
    location: res.headers.location?.slice(0, 2048) ?? null,
    retryAfter: headerText(res.headers['retry-after']),
    contentEncoding: headerText(res.headers['content-encoding'])?.toLowerCase() ?? null,
  };
}

function headerText(v: string | string[] | undefined): string | null {
  if (v === undefined) return null;
  return (Array.isArray(v) ? v.join(', ') : v).slice(0, 100);
}
