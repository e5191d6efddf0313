/**
 * Fires one streaming request and times every event.
 *
 * Timing rule (DESIGN.md "Data flow"): each socket read is stamped the moment its 'data'
 * callback runs, before any parsing; every event that read completes gets that stamp, and
 * events sharing a read are flagged coalesced. Node's http module hands us one chunk per socket
 * read (fetch would merge reads), which is why this uses node:http rather than fetch.
 */
import http from 'node:http';
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import { EventColumns } from '../../shared/event-columns.ts';
import { newRecord, type RequestRecord } from '../../shared/record.ts';
import type { Phases, RequestSpec } from '../../shared/request.ts';
import type { RequestError } from '../../shared/errors.ts';
import { now, wallNow } from './clock.ts';
import { resolveEndpoint, redactUrl } from './endpoint.ts';
import { getDialect } from './dialects/index.ts';
import { buildRequestBody } from './body.ts';
import { classifySocketError, httpStatusError } from './classify.ts';
import { StreamDecoder } from './stream-decoder.ts';

export interface FireOptions {
  signal?: AbortSignal;
  /** Keep each event's raw data (the debugger wants it; load runs do not). Default true. */
  keepRaw?: boolean;
  /** Connection pool for load runs; default: a fresh connection (no keep-alive). */
  agent?: http.Agent | https.Agent;
  /** Called after every socket read that completed at least one event (and on headers/end). */
  onProgress?: (rec: RequestRecord, firstNewEvent: number) => void;
  /** Request id to use (the UI and run files give their own). */
  id?: string;
}

const MAX_ERROR_BODY = 64 * 1024;

/**
 * One setImmediate for every request's pending decode: all sockets readable in one event-loop
 * turn are stamped (poll phase) before any of their events is decoded (check phase). Decoding
 * runs in slices of DECODE_SLICE_MS, yielding to I/O between slices, so reads that arrive while
 * a big burst is decoded wait at most about one slice for their stamp.
 */
const DECODE_SLICE_MS = 1;
const decodeQueue = new Set<() => void>();
let decodeScheduled = false;
function drainDecodes(): void {
  decodeScheduled = false;
  const start = performance.now();
  for (const fn of decodeQueue) {
    decodeQueue.delete(fn);
    try {
      fn();
    } catch (e) {
      // A throwing progress callback must not starve the other requests' decodes; it still surfaces.
      queueMicrotask(() => {
        throw e;
      });
    }
    if (decodeQueue.size > 0 && performance.now() - start >= DECODE_SLICE_MS) {
      decodeScheduled = true;
      setImmediate(drainDecodes);
      return;
    }
  }
}
function scheduleDecode(fn: () => void): void {
  decodeQueue.add(fn);
  if (!decodeScheduled) {
    decodeScheduled = true;
    setImmediate(drainDecodes);
  }
}

export function fireRequest(spec: RequestSpec, opts: FireOptions = {}): Promise<RequestRecord> {
  const dialect = getDialect(spec.dialect);
  let endpoint: URL;
  try {
    endpoint = resolveEndpoint(spec.url, spec.dialect);
  } catch {
    return Promise.resolve(failedBeforeStart(spec, opts, `Invalid URL: ${spec.url}`));
  }
  const body = JSON.stringify(buildRequestBody(dialect, spec));
  const phases: Phases = {
    connectedMs: null,
    requestWrittenMs: null,
    headersMs: null,
    firstByteMs: null,
    endMs: null,
  };
  const events = new EventColumns();
  const rec = newRecord({
    id: opts.id ?? randomUUID(),
    url: redactUrl(endpoint),
    dialect: spec.dialect,
    model: spec.model,
    startedAtWall: wallNow(),
    phases,
    events,
    raw: opts.keepRaw === false ? null : [],
  });

  return new Promise<RequestRecord>((resolve) => {
    const t0 = now();
    const rel = (): number => now() - t0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let idleTimer: NodeJS.Timeout | undefined;
    const decoder = new StreamDecoder(dialect, rec);
    // Decode what reads framed (JSON, dialect) and report the new events; runs after the I/O
    // phase (setImmediate), so a burst of readable sockets is stamped before any of it is parsed.
    const decodeNow = (): void => {
      if (decoder.pendingFrames === 0) return;
      const before = events.n;
      decoder.flush();
      if (events.n > before) opts.onProgress?.(rec, before);
    };

    const finish = (err: RequestError | null): void => {
      if (settled) return;
      settled = true;
      if (phases.endMs === null) phases.endMs = rel();
      if (err && !rec.error) rec.error = err;
      clearTimeout(timer);
      clearTimeout(idleTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      rec.events = events;
      decodeNow();
      decoder.finalize();
      opts.onProgress?.(rec, events.n);
      resolve(rec);
    };

    const mod = endpoint.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: dialect.framing === 'ndjson' ? 'application/x-ndjson, application/json' : 'text/event-stream',
      'accept-encoding': 'identity', // compressed bodies would hide the server's write boundaries
      'content-length': String(Buffer.byteLength(body)),
      ...(spec.headers ?? {}),
    };
    if (spec.apiKey) headers.authorization = `Bearer ${spec.apiKey}`;
    if (endpoint.username || endpoint.password) {
      headers.authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(endpoint.username)}:${decodeURIComponent(endpoint.password)}`).toString('base64')}`;
    }

    let req: http.ClientRequest;
    try {
      req = mod.request(endpoint, {
        method: 'POST',
        headers,
        agent: opts.agent ?? false,
        ...(endpoint.protocol === 'https:' ? { rejectUnauthorized: spec.insecureTls !== true } : {}),
      });
    } catch (e) {
      resolve(failedBeforeStart(spec, opts, `Could not start request: ${(e as Error).message}`));
      return;
    }

    const abortWith = (err: RequestError): void => {
      if (settled) return;
      rec.error ??= err;
      req.destroy();
      finish(err);
    };
    // Registered first: destroying the request (cancel, timeout) makes it emit an error we own.
    req.on('error', (e) => abortWith(classifySocketError(e, rel(), phases.headersMs !== null)));
    const onAbort = (): void =>
      abortWith({ kind: 'client', code: 'cancelled', message: 'Cancelled by the user.', atMs: rel() });
    if (opts.signal?.aborted) {
      onAbort();
      return;
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const timeoutMs = spec.timeoutMs ?? 300_000;
    timer = setTimeout(
      () =>
        abortWith({
          kind: 'client',
          code: 'timeout',
          message: `No complete response within ${timeoutMs} ms.`,
          atMs: rel(),
        }),
      timeoutMs,
    );
    const armIdle = (): void => {
      if (!spec.idleTimeoutMs) return;
      clearTimeout(idleTimer);
      idleTimer = setTimeout(
        () =>
          abortWith({
            kind: 'client',
            code: 'idle-timeout',
            message: `No byte arrived for ${spec.idleTimeoutMs} ms.`,
            atMs: rel(),
          }),
        spec.idleTimeoutMs,
      );
    };

    req.on('socket', (sock) => {
      sock.setNoDelay(true);
      const connectEvent = endpoint.protocol === 'https:' ? 'secureConnect' : 'connect';
      // A pooled socket is already connected: the connect phase is then when we got it.
      if (!sock.connecting && !(sock as { pending?: boolean }).pending) phases.connectedMs ??= rel();
      else sock.once(connectEvent, () => (phases.connectedMs = rel()));
    });
    req.on('finish', () => {
      phases.requestWrittenMs = rel();
      armIdle();
    });

    req.on('response', (res) => {
      phases.headersMs = rel();
      rec.status = res.statusCode ?? null;
      rec.contentType = (res.headers['content-type'] as string | undefined) ?? null;
      const rid = res.headers['x-request-id'];
      rec.serverRequestId = typeof rid === 'string' ? rid : null;
      const status = res.statusCode ?? 0;

      if (status < 200 || status >= 300) {
        // Not a stream: keep the body (truncated) as the error's detail.
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (b: Buffer) => {
          phases.firstByteMs ??= rel();
          rec.bytes += b.length;
          rec.reads++;
          if (size < MAX_ERROR_BODY) parts.push(b);
          size += b.length;
        });
        res.on('end', () =>
          finish(
            httpStatusError(status, Buffer.concat(parts).toString('utf8').slice(0, MAX_ERROR_BODY), rel()),
          ),
        );
        res.on('error', () => finish(httpStatusError(status, Buffer.concat(parts).toString('utf8'), rel())));
        return;
      }

      decoder.checkContentType(rec.contentType, rel());
      opts.onProgress?.(rec, 0);

      res.on('data', (chunk: Buffer) => {
        // Stamp first: nothing before this line may depend on the chunk's size or content.
        const t = now() - t0;
        const readIndex = rec.reads++;
        if (phases.firstByteMs === null) phases.firstByteMs = t;
        rec.bytes += chunk.length;
        armIdle();
        decoder.pushRead(chunk, t, readIndex);
        scheduleDecode(decodeNow);
      });
      res.on('end', () => {
        const t = rel();
        decodeNow();
        decoder.end(t, rec.reads);
        phases.endMs = t;
        finish(decoder.endError(t));
      });
      res.on('aborted', () =>
        abortWith(
          classifySocketError(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), rel(), true),
        ),
      );
      res.on('error', (e) => abortWith(classifySocketError(e, rel(), true)));
    });

    req.end(body);
  });
}

function failedBeforeStart(spec: RequestSpec, opts: FireOptions, message: string): RequestRecord {
  return newRecord({
    id: opts.id ?? randomUUID(),
    url: spec.url,
    dialect: spec.dialect,
    model: spec.model,
    startedAtWall: wallNow(),
    phases: { connectedMs: null, requestWrittenMs: null, headersMs: null, firstByteMs: null, endMs: 0 },
    raw: opts.keepRaw === false ? null : [],
    error: { kind: 'client', code: 'invalid-request', message, atMs: 0 },
  });
}
