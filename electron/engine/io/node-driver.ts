/**
 * The Node-http connection driver (https targets; plain HTTP with httpClient 'node'): opens
 * connections, writes requests, stamps every socket read. It runs on the stream-I/O thread (io-worker.ts), or inline in the measuring thread (`--io-threads 0`),
 * and reports to an IoSink. Per read it does only: take the time, hand the bytes on — no parsing,
 * no per-read objects of its own (Node's http allocates the Buffer; the sink copies it).
 *
 * Timing rule: each read is stamped the moment its 'data' callback runs, before anything looks at
 * it. node:http gives one chunk per socket read (fetch would merge reads).
 *
 * The request lifecycle (timeouts, cancel, back-pressure acks, the retry rule for reused pooled
 * connections a server had closed, the one end) is the raw driver's too: lifecycle.ts.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { IoCtrl, IoPoolOptions, IoRequest } from './protocol.ts';
import { errorMessage } from '../../../shared/result.ts';
import { invalidRequest, liveRequest, RequestLifecycle, type LiveRequest } from './lifecycle.ts';

interface Pool {
  opts: IoPoolOptions;
  http: http.Agent | null;
  https: https.Agent | null;
}

interface Conn extends LiveRequest {
  current: http.ClientRequest | null;
  /** The response being read (paused while the backlog is over its bound). */
  res: http.IncomingMessage | null;
}

export class NodeHttpDriver extends RequestLifecycle<Conn> {
  private readonly pools = new Map<number, Pool>();

  pool(id: number, opts: IoPoolOptions): void {
    this.pools.set(id, { opts, http: null, https: null });
  }

  closePool(id: number): void {
    const p = this.pools.get(id);
    this.pools.delete(id);
    p?.http?.destroy();
    p?.https?.destroy();
  }

  protected poolIds(): Iterable<number> {
    return this.pools.keys();
  }

  private agentFor(poolId: number | null, isHttps: boolean): http.Agent | false {
    const p = poolId === null ? undefined : this.pools.get(poolId);
    if (!p || p.opts.mode === 'close') return false;
    const o = { keepAlive: true, maxSockets: p.opts.maxSockets, keepAliveMsecs: 10_000 };
    if (isHttps) return (p.https ??= new https.Agent(o));
    return (p.http ??= new http.Agent(o));
  }

  fire(slot: number, req: IoRequest): void {
    const c: Conn = { ...liveRequest(slot, req, this.started(slot)), current: null, res: null };
    this.track(c);
    this.attempt(c, false);
  }

  protected readAgain(c: Conn): void {
    c.res?.resume();
  }

  /** Destroying the request makes it emit an error we own, which ends it (`failed`, with `c.ending`). */
  protected abort(c: Conn): boolean {
    if (!c.current) return false;
    c.current.destroy();
    return true;
  }

  protected resend(c: Conn): void {
    this.attempt(c, true);
  }

  private attempt(c: Conn, fresh: boolean): void {
    const { req: r, slot } = c;
    const sink = this.sink;
    let endpoint: URL;
    try {
      endpoint = new URL(r.url);
    } catch {
      this.finish(c, { k: 'error', t: performance.now(), error: invalidRequest(`Invalid URL: ${r.url}`) });
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
      const message = `Could not start request: ${errorMessage(e)}`;
      this.finish(c, { k: 'error', t: performance.now(), error: invalidRequest(message) });
      return;
    }
    c.current = req;
    let headersSeen = false;

    req.on('error', (e: Error & { code?: string }) => {
      if (c.done || c.current !== req) return;
      this.failed(c, e, performance.now(), headersSeen, req.reusedSocket);
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
      if (c.current === req) this.written(c);
    });
    req.on('response', (res: http.IncomingMessage) => {
      const t = performance.now();
      headersSeen = true;
      c.gotBytes = true;
      c.lastByte = t;
      sink.ctrl(slot, headersEvent(res, t));
      res.on('data', (chunk: Buffer) => {
        // Stamp first: nothing before this line may depend on the chunk.
        const tr = performance.now();
        c.lastByte = tr;
        sink.read(slot, tr, chunk, 0, chunk.length);
        if (this.grew(c, chunk.length)) res.pause();
      });
      c.res = res;
      res.on('end', () => this.finish(c, { k: 'end', t: performance.now() }));
      // A response that has begun is never retried (gotBytes): these end it.
      res.on('aborted', () => {
        if (c.done) return;
        const ta = performance.now();
        this.failed(c, Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), ta, true, false);
      });
      res.on('error', (e: Error) => {
        if (!c.done) this.failed(c, e, performance.now(), true, false);
      });
    });
    if (typeof r.body === 'string') req.end(r.body);
    else {
      for (const p of r.body) if (typeof p !== 'number') req.write(p);
      req.end();
    }
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
