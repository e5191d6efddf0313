/**
 * Fires one streaming request and times every event.
 *
 * The sockets live on a stream-I/O thread (io/io-engine.ts, io/node-driver.ts): it stamps each socket
 * read the moment its callback runs and hands the bytes here in batches. This side frames,
 * decodes and records them: every event a read completes gets that read's stamp, and events
 * sharing a read are flagged coalesced. So nothing done here (JSON, statistics, run files, IPC)
 * can make a timestamp late.
 */
import { randomUUID } from 'node:crypto';
import { EventColumns } from '../../shared/event-columns.ts';
import { newRecord, type RequestRecord, type TraceContext } from '../../shared/record.ts';
import type { Phases, RequestSpec } from '../../shared/request.ts';
import type { RequestError } from '../../shared/errors.ts';
import { wallNow } from './clock.ts';
import { redactUrl } from './endpoint.ts';
import { httpStatusError } from './classify.ts';
import { compressedError, readJsonBody, withResponseHints } from './response-body.ts';
import { redactText } from '../../shared/redact.ts';
import { DECODE_SLICE_FRAMES, StreamDecoder } from './stream-decoder.ts';
import { io, type IoCall, type IoHandler } from './io/io-engine.ts';
import { READ_COST_BYTES } from './io/backlog.ts';
import { cancelledError } from './io/timers.ts';
import type { IoCtrl } from './io/protocol.ts';
import type { EngineLimits } from './engine-config.ts';
import { failedBeforeStart, prepareRequest, type PreparedRequest } from './prepare-request.ts';
import { SlicedQueue } from '../platform/sliced-queue.ts';
import { onAbort as whenAborted } from '../platform/abort-hub.ts';
import { pooledAnswer } from './dialects/pooled-answer.ts';

export interface FireOptions {
  signal?: AbortSignal;
  /**
   * Keep each event's raw data and text (the debugger wants them; load runs do not: their events
   * keep times, counts and flags, the record its whole text). Default true.
   */
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
  /**
   * The trace context the request carries, told before it is sent (a span receiver keeps that
   * trace's spans: runs/server-spans.ts `expect`).
   */
  onTrace?: (trace: TraceContext) => void;
  /**
   * Send it at this instant (performance.now()), not before: a load run builds each request and
   * hands it over ahead of its planned send, and the stream-I/O thread starts it when it is due
   * (io/timed-starts.ts). Cancelled before then, it ends with no start (`startMono` unset).
   */
  startAt?: number;
  /** Told when the I/O thread started it (its send's time, performance.now()). */
  onStart?: (t: number) => void;
}

const MAX_ERROR_BODY = 64 * 1024;

/**
 * One setImmediate for every request's pending decode: reads handed over together are all
 * recorded before any of their events is decoded. Decoding runs in slices of DECODE_SLICE_MS (and
 * of DECODE_SLICE_FRAMES per request), yielding between slices, so IPC and timers on this thread
 * are never held up long, not even by a flood: a request with frames left goes back in the queue.
 */
const DECODE_SLICE_MS = 1;
const decodes = new SlicedQueue<() => void>(DECODE_SLICE_MS, (fn) => {
  try {
    fn();
  } catch (e) {
    // A throwing progress callback must not starve the other requests' decodes; it still surfaces.
    queueMicrotask(() => {
      throw e;
    });
  }
});

export function fireRequest(spec: RequestSpec, opts: FireOptions = {}): Promise<RequestRecord> {
  const prep = prepareRequest(spec, opts);
  if ('failed' in prep) return Promise.resolve(prep.failed);
  if (prep.trace) opts.onTrace?.(prep.trace);
  return new Promise<RequestRecord>((resolve) => {
    if (opts.signal?.aborted) {
      const cancelled = cancelledError(0);
      resolve(failedBeforeStart(spec, opts, cancelled.message, cancelled));
      return;
    }
    new Exchange(spec, opts, prep, resolve).start();
  });
}

/**
 * One request in flight, created once per request: the I/O engine's handler for it (`read` gets
 * each stamped socket read, `ctrl` the rest) and the record it fills.
 */
/** The event rows a request's record starts with: its max_tokens and a few, 64 to 4,096. @internal exported for its tests */
export function initialRows(maxTokens: number | null | undefined): number {
  return maxTokens && maxTokens > 0 ? Math.min(4096, Math.max(64, Math.ceil(maxTokens) + 8)) : 64;
}

class Exchange implements IoHandler {
  private readonly phases: Phases = {
    connectedMs: null,
    requestWrittenMs: null,
    headersMs: null,
    firstByteMs: null,
    endMs: null,
  };
  private readonly events: EventColumns;
  private readonly rec: RequestRecord;
  private readonly decoder: StreamDecoder;
  private t0 = performance.now();
  private settled = false;
  private status = 0;
  private errorParts: Buffer[] | null = null;
  private errorSize = 0;
  /** A 2xx that is one JSON document, not a stream: collected whole (bounded) and read at the end. */
  private jsonBody = false;
  private location: string | null = null;
  private retryAfter: string | null = null;
  private call!: IoCall;
  /** The decoder's decodedCost already reported to the I/O side (back-pressure). */
  private reported = 0;
  /** The engine that sends it, and so the entry point's configuration (limits, idle timeout). */
  private readonly engine = io();
  private readonly limits: EngineLimits = this.engine.config.limits;

  constructor(
    private readonly spec: RequestSpec,
    private readonly opts: FireOptions,
    private readonly prep: PreparedRequest,
    private readonly resolve: (rec: RequestRecord) => void,
  ) {
    // Room for every event a max_tokens-bound stream brings (one token each, and the last few):
    // growing by doubling as events came left three discarded copies per request behind.
    // A load run keeps no text per event (stream-decoder.ts `eventText`): no text column either.
    this.events = new EventColumns(initialRows(spec.params?.maxTokens), opts.keepRaw !== false);
    this.rec = newRecord({
      id: opts.id ?? randomUUID(),
      url: redactUrl(prep.endpoint),
      dialect: spec.dialect,
      model: spec.model,
      startedAtWall: wallNow(),
      phases: this.phases,
      events: this.events,
      raw: opts.keepRaw === false ? null : [],
      maxTokens: spec.params?.maxTokens ?? null,
      ...(prep.trace ? { trace: prep.trace } : {}),
      // A request with images: its body's size, beside its upload time (the run's `upload`); the
      // debugger's embeddings and rerank requests too (their batch is the body).
      ...(spec.images?.length || (opts.keepRaw !== false && prep.dialect.readResponse)
        ? { requestBytes: Number(prep.headers['content-length']) }
        : {}),
    });
    this.rec.connection = { reused: false, retries: 0, retryReason: null };
    this.decoder = new StreamDecoder(
      prep.dialect,
      this.rec,
      {
        maxTokens: spec.params?.maxTokens ?? null,
        maxEvents: this.limits.maxRecordEvents,
        maxTextChars: this.limits.maxRecordTextChars,
        maxEventChars: this.limits.maxEventChars,
      },
      opts.keepRaw !== false,
    );
  }

  start(): void {
    const { spec, opts, prep } = this;
    this.call = this.engine.fire(
      {
        url: prep.target.href,
        method: 'POST',
        headers: prep.headers,
        body: prep.body,
        timeoutMs: spec.timeoutMs ?? 300_000,
        idleTimeoutMs: spec.idleTimeoutMs ?? this.limits.idleTimeoutMs,
        insecureTls: spec.insecureTls === true,
        pool: opts.pool ?? null,
        ...(opts.startAt !== undefined ? { at: opts.startAt } : {}),
      },
      this,
    );
    if (opts.signal) this.stopWaiting = whenAborted(opts.signal, this.onAbort);
  }

  private readonly onAbort = (): void => this.cancel();
  private stopWaiting: (() => void) | null = null;

  private cancel(): void {
    this.call.cancel();
  }

  // Frame and decode a slice of the queued reads (JSON, dialect), report the new events, come back for more.
  private readonly decodeNow = (): void => {
    this.decodeSlice(DECODE_SLICE_FRAMES);
  };

  private decodeSlice(max: number): void {
    const { decoder, events, rec } = this;
    const before = events.n;
    const left = decoder.undecoded > 0 ? decoder.flush(max) : 0;
    if (events.n > before) this.opts.onProgress?.(rec, before);
    // Reads that completed no frame (a long event, keep-alives) count as decoded too.
    const cost = decoder.decodedCost;
    if (cost > this.reported && !this.settled) this.call.consumed(cost - this.reported);
    this.reported = cost;
    if (left > 0 && !this.settled) decodes.add(this.decodeNow);
    // Past max_tokens by a margin, an event too large, the record's limit: stop here, keep what came.
    if (decoder.stop && !this.settled) this.stopHere();
  }

  /** A limit was reached: the stream is stopped from here, what arrived before kept. */
  private stopHere(): void {
    this.cancel();
    this.finish(null, performance.now());
  }

  private finish(err: RequestError | null, tEnd: number): void {
    if (this.settled) return;
    this.settled = true;
    const { rec, phases } = this;
    if (phases.endMs === null) phases.endMs = tEnd - this.t0;
    this.stopWaiting?.();
    rec.events = this.events;
    // What arrived before the end is decoded first: its errors came before this one.
    this.decodeSlice(Infinity);
    this.decoder.finalize();
    if (err && !rec.error) rec.error = err;
    // A server may echo the key (or a signed URL) back in its error: never kept in clear.
    if (rec.error) rec.error = redactError(rec.error, this.prep.secrets);
    this.opts.onProgress?.(rec, this.events.n);
    this.resolve(rec);
  }

  read(t: number, chunk: Buffer): void {
    if (this.settled) return; // stopped from here (an event too large): the rest is not ours
    const rec = this.rec;
    const rel = t - this.t0;
    const readIndex = rec.reads++;
    if (this.phases.firstByteMs === null) this.phases.firstByteMs = rel;
    rec.bytes += chunk.length;
    if (this.errorParts) {
      // Not a stream (an error status, or one JSON document): keep the body (truncated). A
      // copy: the chunk's memory goes back to the I/O thread.
      if (this.errorSize < (this.jsonBody ? this.limits.maxEventChars : MAX_ERROR_BODY))
        this.errorParts.push(Buffer.from(chunk));
      this.errorSize += chunk.length;
      this.call.consumed(chunk.length + READ_COST_BYTES); // taken as it came: no backlog
      return;
    }
    // Queued as bytes; framed and decoded in a slice (decodeSlice), which also stops the stream
    // at an event past the size cap or the record's limit, keeping what came before it.
    this.decoder.pushRead(chunk, rel, readIndex);
    decodes.add(this.decodeNow);
  }

  ctrl(ev: IoCtrl): void {
    const { rec, phases } = this;
    const rel = ev.t - this.t0;
    switch (ev.k) {
      case 'start':
        this.t0 = ev.t;
        rec.startMono = ev.t;
        rec.startedAtWall = performance.timeOrigin + ev.t;
        this.opts.onStart?.(ev.t);
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
        this.onHeaders(ev, rel);
        break;
      case 'end':
        this.onEnd(ev.t, rel);
        break;
      case 'error':
        this.onError(ev.error, ev.t, rel);
        break;
    }
  }

  private onHeaders(ev: Extract<IoCtrl, { k: 'headers' }>, rel: number): void {
    const rec = this.rec;
    this.phases.headersMs = rel;
    this.status = ev.status;
    rec.status = ev.status;
    rec.contentType = ev.contentType;
    rec.serverRequestId = ev.requestId;
    this.location = ev.location ?? null;
    this.retryAfter = ev.retryAfter ?? null;
    if (this.status < 200 || this.status >= 300) this.errorParts = [];
    else if (ev.contentEncoding && ev.contentEncoding !== 'identity') {
      // Compressed although identity was asked for (a proxy): the compressor's buffering
      // hides when each event was written, and the events cannot be read as they come.
      this.cancel();
      this.finish(compressedError(ev.contentEncoding, rel), ev.t);
    } else if (this.prep.dialect.readResponse) {
      // Not a stream by design (embeddings, rerank): the body is read whole at its end.
      this.jsonBody = true;
      this.errorParts = [];
    } else if (this.prep.dialect.framing === 'sse' && /application\/json/i.test(rec.contentType ?? '')) {
      // stream: true ignored (or an error object with 200): one JSON document, read whole.
      this.jsonBody = true;
      this.errorParts = [];
    } else {
      this.decoder.checkContentType(rec.contentType, rel);
      this.opts.onProgress?.(rec, 0);
    }
  }

  private onEnd(t: number, rel: number): void {
    if (this.errorParts) {
      const text = Buffer.concat(this.errorParts).toString('utf8');
      if (this.jsonBody) {
        this.phases.endMs = rel;
        this.finish(this.readWhole(text, rel), t);
        return;
      }
      this.finish(
        withResponseHints(
          httpStatusError(this.status, text.slice(0, MAX_ERROR_BODY), rel),
          this.location,
          this.retryAfter,
        ),
        t,
      );
      return;
    }
    this.decodeSlice(Infinity);
    this.decoder.end(rel, this.rec.reads);
    this.phases.endMs = rel;
    this.finish(this.decoder.endError(rel), t);
  }

  /** A 2xx body read whole: the dialect's answer (embeddings, rerank), or a stream that was not one. */
  private readWhole(text: string, rel: number): RequestError | null {
    const read = this.prep.dialect.readResponse;
    if (!read) return readJsonBody(this.spec.dialect, this.rec, text, this.errorSize, rel);
    // The body decides, whatever its label: a valid answer under text/plain is still the answer.
    const error = read(this.rec, this.spec, { text, size: this.errorSize, atMs: rel });
    // The debugger shows what came back (its digest); load runs keep no raw data, nor this.
    if (this.opts.keepRaw !== false)
      this.rec.answer = pooledAnswer(this.spec.dialect, this.spec, text, this.errorSize);
    return error;
  }

  private onError(error: RequestError, t: number, rel: number): void {
    if (this.errorParts && error.kind === 'network' && !this.jsonBody) {
      const text = Buffer.concat(this.errorParts).toString('utf8');
      this.finish(
        withResponseHints(httpStatusError(this.status, text, rel), this.location, this.retryAfter),
        t,
      );
      return;
    }
    this.finish(error, t);
  }
}

function redactError(e: RequestError, secrets: readonly string[]): RequestError {
  const out: RequestError = { ...e, message: redactText(e.message, secrets) };
  if (e.body !== undefined) out.body = redactText(e.body, secrets);
  if (e.location !== undefined) out.location = redactText(e.location, secrets);
  return out;
}
