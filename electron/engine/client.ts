/**
 * Fires one streaming request and times every event.
 *
 * The sockets live on a stream-I/O thread (io/io-engine.ts, io/driver.ts): it stamps each socket
 * read the moment its callback runs and hands the bytes here in batches. This side frames,
 * decodes and records them: every event a read completes gets that read's stamp, and events
 * sharing a read are flagged coalesced. So nothing done here (JSON, statistics, run files, IPC)
 * can make a timestamp late.
 */
import { randomUUID } from 'node:crypto';
import { EventColumns } from '../../shared/event-columns.ts';
import { newRecord, type RequestRecord } from '../../shared/record.ts';
import type { Phases, RequestSpec } from '../../shared/request.ts';
import type { RequestError } from '../../shared/errors.ts';
import { wallNow } from './clock.ts';
import { resolveEndpoint, redactUrl } from './endpoint.ts';
import { getDialect } from './dialects/index.ts';
import { buildRequestBody } from './body.ts';
import { httpStatusError } from './classify.ts';
import { compressedError, readJsonBody, withResponseHints } from './response-body.ts';
import { redactText, redactUrlsIn, secretHeaderValues, urlSecrets } from '../../shared/redact.ts';
import { headerValueProblem } from '../../shared/api.ts';
import { MAX_EVENT_CHARS, StreamDecoder } from './stream-decoder.ts';
import { io } from './io/io-engine.ts';

export interface FireOptions {
  signal?: AbortSignal;
  /** Keep each event's raw data (the debugger wants it; load runs do not). Default true. */
  keepRaw?: boolean;
  /**
   * A connection pool of the I/O engine (`io().createPool`) for load runs; default: a fresh
   * connection closed after the response.
   */
  pool?: number | null;
  /** Called after every socket read that completed at least one event (and on headers/end). */
  onProgress?: (rec: RequestRecord, firstNewEvent: number) => void;
  /** Request id to use (the UI and run files give their own). */
  id?: string;
}

const MAX_ERROR_BODY = 64 * 1024;
/** The longest delay a Node timer takes (2^31 − 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * No byte for this long fails a request as client/idle-timeout (a server that accepted and went
 * silent), unless the request sets its own (0 = never). TOKENSCOPE_IDLE_TIMEOUT_S overrides it.
 */
export const DEFAULT_IDLE_TIMEOUT_MS =
  process.env.TOKENSCOPE_IDLE_TIMEOUT_S !== undefined &&
  Number.isFinite(Number(process.env.TOKENSCOPE_IDLE_TIMEOUT_S))
    ? Math.max(0, Number(process.env.TOKENSCOPE_IDLE_TIMEOUT_S)) * 1000
    : 60_000;

/**
 * One setImmediate for every request's pending decode: reads handed over together are all
 * recorded before any of their events is decoded. Decoding runs in slices of DECODE_SLICE_MS,
 * yielding between slices, so IPC and timers on this thread are never held up long.
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
  // Node's timers fire after 1 ms when given more than 2^31 − 1 ms: refuse such a timeout plainly.
  for (const [name, v] of [
    ['timeout', spec.timeoutMs],
    ['idle timeout', spec.idleTimeoutMs],
  ] as const) {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= MAX_TIMER_MS))
      return Promise.resolve(
        failedBeforeStart(
          spec,
          opts,
          `The ${name} must be between 0 and ${MAX_TIMER_MS} ms (about 24.8 days); got ${v}.`,
        ),
      );
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
  rec.connection = { reused: false, retries: 0, retryReason: null };

  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: dialect.framing === 'ndjson' ? 'application/x-ndjson, application/json' : 'text/event-stream',
    'accept-encoding': 'identity', // compressed bodies would hide the server's write boundaries
    'content-length': String(Buffer.byteLength(body)),
    ...(spec.headers ?? {}),
  };
  if (spec.apiKey) headers.authorization = `Bearer ${spec.apiKey}`;
  const secrets = [
    ...(spec.apiKey ? [spec.apiKey] : []),
    ...secretHeaderValues(spec.headers),
    ...urlSecrets(spec.url),
  ];
  if (endpoint.username || endpoint.password) {
    headers.authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(endpoint.username)}:${decodeURIComponent(endpoint.password)}`).toString('base64')}`;
  }
  // A value no HTTP header can carry (a pasted non-Latin-1 character in a key) is a clear error
  // before anything is sent, not a socket-level failure.
  for (const [k, v] of Object.entries(headers)) {
    // Positions in the key as the user typed it, not in "Bearer <key>".
    const problem =
      (k === 'authorization' && spec.apiKey ? headerValueProblem(spec.apiKey) : null) ??
      headerValueProblem(v);
    if (problem)
      return Promise.resolve(
        failedBeforeStart(spec, opts, `${k === 'authorization' ? 'The API key' : `Header ${k}`} ${problem}.`),
      );
  }
  // Credentials travel in the header, never in the URL handed to the I/O thread.
  const target = new URL(endpoint.href);
  target.username = '';
  target.password = '';

  return new Promise<RequestRecord>((resolve) => {
    if (opts.signal?.aborted) {
      resolve(
        failedBeforeStart(spec, opts, 'Cancelled by the user.', {
          kind: 'client',
          code: 'cancelled',
          message: 'Cancelled by the user.',
          atMs: 0,
        }),
      );
      return;
    }
    let t0 = performance.now();
    let settled = false;
    let status = 0;
    let errorParts: Buffer[] | null = null;
    let errorSize = 0;
    /** A 2xx that is one JSON document, not a stream: collected whole (bounded) and read at the end. */
    let jsonBody = false;
    let location: string | null = null;
    let retryAfter: string | null = null;
    const decoder = new StreamDecoder(dialect, rec, { maxTokens: spec.params?.maxTokens ?? null });
    // Decode what reads framed (JSON, dialect) and report the new events.
    const decodeNow = (): void => {
      if (decoder.pendingFrames === 0) return;
      const before = events.n;
      decoder.flush();
      if (events.n > before) opts.onProgress?.(rec, before);
      // Past max_tokens by a margin, or at the record's limit: stop here, keep what came.
      if (decoder.stop && !settled) {
        cancel();
        finish(rec.error, performance.now());
      }
    };

    const finish = (err: RequestError | null, tEnd: number): void => {
      if (settled) return;
      settled = true;
      if (phases.endMs === null) phases.endMs = tEnd - t0;
      if (err && !rec.error) rec.error = err;
      // A server may echo the key (or a signed URL) back in its error: never kept in clear.
      if (rec.error) rec.error = redactError(rec.error, secrets);
      opts.signal?.removeEventListener('abort', onAbort);
      rec.events = events;
      decodeNow();
      decoder.finalize();
      opts.onProgress?.(rec, events.n);
      resolve(rec);
    };

    const cancel = io().fire(
      {
        url: target.href,
        method: 'POST',
        headers,
        body,
        timeoutMs: spec.timeoutMs ?? 300_000,
        idleTimeoutMs: spec.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
        insecureTls: spec.insecureTls === true,
        pool: opts.pool ?? null,
      },
      {
        read(t, chunk) {
          if (settled) return; // stopped from here (an event too large): the rest is not ours
          const rel = t - t0;
          const readIndex = rec.reads++;
          if (phases.firstByteMs === null) phases.firstByteMs = rel;
          rec.bytes += chunk.length;
          if (errorParts) {
            // Not a stream (an error status, or one JSON document): keep the body (truncated). A
            // copy: the chunk's memory goes back to the I/O thread.
            if (errorSize < (jsonBody ? MAX_EVENT_CHARS : MAX_ERROR_BODY))
              errorParts.push(Buffer.from(chunk));
            errorSize += chunk.length;
            return;
          }
          decoder.pushRead(chunk, rel, readIndex);
          scheduleDecode(decodeNow);
          // An event past the size cap: stop the stream now, keep what came before it.
          if (decoder.tooLarge) {
            cancel();
            finish(rec.error, t);
          }
        },
        ctrl(ev) {
          const rel = ev.t - t0;
          switch (ev.k) {
            case 'start':
              t0 = ev.t;
              rec.startMono = ev.t;
              rec.startedAtWall = performance.timeOrigin + ev.t;
              break;
            case 'socket':
              rec.connection!.reused = ev.reused;
              if (!ev.connecting) phases.connectedMs = rel; // a pooled socket: connected when we got it
              break;
            case 'connected':
              phases.connectedMs = rel;
              break;
            case 'written':
              phases.requestWrittenMs = rel;
              break;
            case 'retry':
              rec.connection!.retries++;
              rec.connection!.retryReason = ev.error.message;
              phases.connectedMs = null;
              phases.requestWrittenMs = null;
              break;
            case 'headers':
              phases.headersMs = rel;
              status = ev.status;
              rec.status = ev.status;
              rec.contentType = ev.contentType;
              rec.serverRequestId = ev.requestId;
              location = ev.location ?? null;
              retryAfter = ev.retryAfter ?? null;
              if (status < 200 || status >= 300) errorParts = [];
              else if (ev.contentEncoding && ev.contentEncoding !== 'identity') {
                // Compressed although identity was asked for (a proxy): the compressor's buffering
                // hides when each event was written, and the events cannot be read as they come.
                cancel();
                finish(compressedError(ev.contentEncoding, rel), ev.t);
                return;
              } else if (dialect.framing === 'sse' && /application\/json/i.test(rec.contentType ?? '')) {
                // stream: true ignored (or an error object with 200): one JSON document, read whole.
                jsonBody = true;
                errorParts = [];
              } else {
                decoder.checkContentType(rec.contentType, rel);
                opts.onProgress?.(rec, 0);
              }
              break;
            case 'end':
              if (errorParts) {
                const text = Buffer.concat(errorParts).toString('utf8');
                if (jsonBody) {
                  finish(readJsonBody(spec.dialect, rec, text, errorSize, rel), ev.t);
                  return;
                }
                finish(
                  withResponseHints(
                    httpStatusError(status, text.slice(0, MAX_ERROR_BODY), rel),
                    location,
                    retryAfter,
                  ),
                  ev.t,
                );
                return;
              }
              decodeNow();
              decoder.end(rel, rec.reads);
              phases.endMs = rel;
              finish(decoder.endError(rel), ev.t);
              break;
            case 'error':
              if (errorParts && ev.error.kind === 'network' && !jsonBody) {
                const text = Buffer.concat(errorParts).toString('utf8');
                finish(withResponseHints(httpStatusError(status, text, rel), location, retryAfter), ev.t);
                return;
              }
              finish(ev.error, ev.t);
              break;
          }
        },
      },
    );
    const onAbort = (): void => cancel();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function failedBeforeStart(
  spec: RequestSpec,
  opts: FireOptions,
  message: string,
  error: RequestError = { kind: 'client', code: 'invalid-request', message, atMs: 0 },
): RequestRecord {
  let url: string;
  try {
    url = redactUrl(new URL(spec.url));
  } catch {
    url = redactUrlsIn(spec.url);
  }
  return newRecord({
    id: opts.id ?? randomUUID(),
    url,
    dialect: spec.dialect,
    model: spec.model,
    startedAtWall: wallNow(),
    phases: { connectedMs: null, requestWrittenMs: null, headersMs: null, firstByteMs: null, endMs: 0 },
    raw: opts.keepRaw === false ? null : [],
    error,
  });
}

function redactError(e: RequestError, secrets: readonly string[]): RequestError {
  const out: RequestError = { ...e, message: redactText(e.message, secrets) };
  if (e.body !== undefined) out.body = redactText(e.body, secrets);
  if (e.location !== undefined) out.location = redactText(e.location, secrets);
  return out;
}
