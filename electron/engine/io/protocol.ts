/**
 * What the stream-I/O thread and the measuring side say to each other (docs/ARCHITECTURE.md
 * "Stream I/O"). The I/O side owns the sockets: it opens connections, writes requests, stamps
 * every socket read with the monotonic clock the moment its callback runs and hands the raw bytes
 * on, with a few control events per request (socket, headers, end, error, retry). Everything
 * after the stamp (framing, JSON, dialects, statistics, run files, IPC) happens on the other side.
 *
 * Times are absolute `performance.now()` values of the thread that took them; the receiving side
 * moves them onto its own clock with the offset measured at start (the same CLOCK_MONOTONIC
 * underneath, so the offset is ~0, but it is measured rather than assumed).
 */
import type { RequestError } from '../../../shared/errors.ts';
import type { HttpClient } from '../engine-config.ts';
import type { IoSelfCheck } from '../../../shared/runs/summary/self-check-schema.ts';
import type { BodyPart } from './blobs.ts';

/** One request for the I/O side to send. Only cloneable data: it crosses a thread boundary. */
export interface IoRequest {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  /**
   * The body: text, or parts — text and shared blobs (a body with large images: image-body.ts),
   * blob ids on the measuring side, their bytes once the I/O side has resolved them (blobs.ts).
   */
  body: string | BodyPart[];
  /** Abort with client/timeout after this long without a complete response. */
  timeoutMs: number;
  /** Abort with client/idle-timeout when no byte arrives for this long (0 = never). */
  idleTimeoutMs: number;
  insecureTls: boolean;
  /** A keep-alive pool (see IoPoolOptions) or null: a fresh connection closed after the response. */
  pool: number | null;
  /**
   * Start it at this instant, not before (performance.now() of the sender; the engine moves it
   * onto the I/O thread's clock): a load run hands requests over ahead of their planned send
   * (timed-starts.ts). Absent, or already past: now.
   */
  at?: number;
}

type ConnectionMode = 'keep-alive' | 'close';

export interface IoPoolOptions {
  /** keep-alive: pooled connections reused across requests; close: one connection per request. */
  mode: ConnectionMode;
  maxSockets: number;
}

/** Control events of one request, in the order they happened. `t`: the I/O thread's clock. */
export type IoCtrl =
  /** The request is being started: the zero of its times. */
  | { k: 'start'; t: number }
  /** It got a socket: `reused` a pooled one, else `connecting` a new one. */
  | { k: 'socket'; t: number; reused: boolean; connecting: boolean }
  | { k: 'connected'; t: number }
  | { k: 'written'; t: number }
  | {
      k: 'headers';
      t: number;
      status: number;
      contentType: string | null;
      requestId: string | null;
      /** 3xx: where it points. */
      location?: string | null;
      /** Retry-After as sent (429/503). */
      retryAfter?: string | null;
      /** Content-Encoding, when the server compressed the body. */
      contentEncoding?: string | null;
    }
  /**
   * A reused connection failed before any response byte (the server had closed it): the request
   * is sent again once on a new connection. Not a server failure; counted apart.
   */
  | { k: 'retry'; t: number; error: RequestError }
  /** The response ended cleanly. */
  | { k: 'end'; t: number }
  /** The request failed (socket error, timeout, cancel). Its last event. */
  | { k: 'error'; t: number; error: RequestError };

/** What a stream-I/O thread's drivers are configured with (from the engine configuration, at start). */
export interface IoDriverConfig {
  httpClient: HttpClient;
  backlogHighBytes: number;
}

/** Where the connection driver reports to: the worker's batcher, or the engine directly (inline). */
export interface IoSink {
  /**
   * One socket read's response-body bytes, bytes[start, end): only valid during the call (the
   * memory is reused for the next read); copy what is kept.
   */
  read(slot: number, t: number, bytes: Buffer, start: number, end: number): void;
  ctrl(slot: number, ev: IoCtrl): void;
}

/**
 * How the I/O thread's own event loop fared: what can make its stamps late. The figures a run's
 * self-check records (shared/runs/summary/self-check-schema.ts IoSelfCheck, there with the thread count), plus the
 * span they cover and the batches sent.
 */
export interface IoLoopStats extends Omit<IoSelfCheck, 'threads'> {
  /** Wall time these figures cover, ms. */
  spanMs: number;
  batches: number;
  /**
   * Stall windows, [from, to] pairs on the clock of whoever holds the figures (the thread's own,
   * moved onto the measuring thread's by io-engine.ts): empty in the pushed figures.
   */
  stallWindows: number[];
}

/** Main → worker. */
export type ToIo =
  /** A request to start now (`at` unset). */
  | { op: 'fire'; slot: number; req: IoRequest }
  /** Requests handed over ahead of their send (each with `at`), in one message. */
  | { op: 'fires'; fires: { slot: number; req: IoRequest }[] }
  | { op: 'cancel'; slot: number }
  /** Bytes that bodies name by id (blobs.ts), sent before the first request that needs them; dropped later. */
  | { op: 'blob'; id: number; bytes: Uint8Array }
  | { op: 'blob-drop'; id: number }
  | { op: 'pool'; id: number; opts: IoPoolOptions }
  | { op: 'pool-close'; id: number }
  | { op: 'stats-reset' }
  /** Ask for the loop figures now (with the stall windows); answered with the same token. */
  | { op: 'stats'; token: number; windows?: boolean }
  | { op: 'recycle'; bytes: ArrayBuffer; meta: ArrayBuffer }
  /** Bytes of these requests' reads decoded since the last ack (back-pressure: backlog.ts). */
  | { op: 'ack'; slots: number[]; bytes: number[] }
  /** Tests of the self-check: busy-wait this thread's loop for `ms` (a stall, as a GC or a burst makes). */
  | { op: 'test-stall'; ms: number };

/** Worker → main. */
export type FromIo =
  /** Sent once at start: clock samples [before, hr, after] to measure the offset. */
  | { op: 'hello'; samples: [number, number, number][] }
  /**
   * Reads and control events since the last batch. Read i: slot meta[3i], time meta[3i+1],
   * length meta[3i+2], bytes at the running offset in `bytes`. Control event j happened before
   * read `ctrlAt[j]` (== nReads: after the last one).
   */
  | {
      op: 'batch';
      bytes: ArrayBuffer;
      meta: ArrayBuffer;
      nReads: number;
      ctrl: IoCtrl[];
      ctrlSlot: number[];
      ctrlAt: number[];
    }
  /** Loop figures: pushed once a second (token 0), or the answer to a request. */
  | { op: 'stats'; stats: IoLoopStats; token: number };

/** Fields of a batch's meta array per read. */
export const META_STRIDE = 3;
/** A batch's buffers: sent whole when well filled (and sent back to be reused), else copied trimmed. */
export const BATCH_BYTES = 256 * 1024;
export const BATCH_READS = 4096;
