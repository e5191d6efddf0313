/**
 * The measuring side of stream I/O (docs/ARCHITECTURE.md "Stream I/O"): sends each request to a
 * stream-I/O thread, takes back its stamped reads in batches and hands them, moved onto this
 * thread's clock, to the request's handler (client.ts: framing, decoding, the record). So JSON,
 * statistics, run files, IPC and metrics scraping, which all run here, never delay a timestamp.
 *
 * Threads: the engine configuration's `ioThreads` (`--io-threads N`, TOKENSCOPE_IO_THREADS at the
 * entry point: engine-config.ts), default one per core but one, at least one, at most four; requests go to the thread with the fewest in flight. 0 runs the same driver inline
 * in this thread (the way it worked before; kept for comparison and as the fallback when a thread
 * cannot start). A thread holds the process open only while it has requests in flight.
 */
import type { Worker } from 'node:worker_threads';
import type { RequestError } from '../../../shared/errors.ts';
import { startWorker } from '../../workers/spawn.ts';
import { Drivers } from './raw-driver.ts';
import { clockOffset } from './clock-samples.ts';
import { LoopMonitor } from './loop-monitor.ts';
import { combine, emptyStats, yieldToIoThreads } from './io-threads.ts';
import { ackStepBytes, backlogBounds } from './backlog.ts';
import { defaultEngineConfig, type EngineConfig } from '../engine-config.ts';
import {
  BATCH_BYTES,
  META_STRIDE,
  type FromIo,
  type IoCtrl,
  type IoDriverConfig,
  type IoLoopStats,
  type IoPoolOptions,
  type IoRequest,
  type IoSink,
  type ToIo,
} from './protocol.ts';

/** What a request's owner gets: times on this thread's performance.now() clock. */
export interface IoHandler {
  /** `chunk` is valid only during the call (its memory goes back to the I/O thread): copy what is kept. */
  read(t: number, chunk: Buffer): void;
  ctrl(ev: IoCtrl): void;
}

/** A request sent: how its owner cancels it and reports what it decoded (back-pressure). */
export interface IoCall {
  cancel(): void;
  /** `bytes` of the request's reads (and READ_COST_BYTES per read) were decoded: backlog.ts. */
  consumed(bytes: number): void;
}

export interface IoThreadsStats {
  threads: number;
  /** The worst thread's figures (loop delay, stalls, GC); reads and batches summed. */
  io: IoLoopStats | null;
}

import { MAX_IO_THREADS } from './io-limits.ts';
import { errorMessage } from '../../../shared/result.ts';
import { TimedStarts } from './timed-starts.ts';
import { blobOf, packBodies, resolveParts, type BodyPart } from './blobs.ts';
import { notSentError } from './timers.ts';

export { MAX_IO_THREADS };

interface Thread {
  worker: Worker;
  active: number;
  offset: number | null;
  /** Batches that arrived before the clock offset (cannot happen: hello comes first; kept safe). */
  alive: boolean;
  lastStats: IoLoopStats | null;
  waiters: Map<number, (s: IoLoopStats) => void>;
  refd: boolean;
  /** Resolves when the thread said hello (started, clock measured) or died. */
  ready: Promise<void>;
  onReady: () => void;
  /** Acks waiting for this turn's message (one per thread per turn, whatever the requests). */
  ackSlots: number[];
  ackBytes: number[];
  /**
   * Requests handed over ahead of their send (IoRequest.at), waiting for this turn's one message:
   * a load run hands over what is due in the next few milliseconds together, and one message
   * wakes the thread once for all of them, where one each woke it (and took the core from this
   * thread, on a shared one) 500 times a second.
   */
  outbox: { slot: number; req: IoRequest }[];
  /** The blobs (blobs.ts) this thread holds, oldest first. */
  blobs: Set<number>;
}

interface Slot {
  handler: IoHandler;
  thread: Thread | null;
  /** Decoded bytes not yet reported to the driver (reported in steps of ACK_STEP_BYTES). */
  unacked: number;
}

/** Blobs an I/O thread holds at most (image-body.ts caches as many images). */
const THREAD_BLOBS = 64;

/** The stream-I/O thread's young generation (V8's nursery), MB. */
const IO_YOUNG_GENERATION_MB = 6;

export class IoEngine {
  private readonly threads: Thread[] = [];
  private readonly slots = new Map<number, Slot>();
  private nextSlot = 1;
  private nextPool = 1;
  private nextToken = 1;
  private readonly pools = new Map<number, IoPoolOptions>();
  private inline: Drivers | null = null;
  private inlineMon: LoopMonitor | null = null;
  /** Inline (no I/O thread): requests handed over ahead of their send wait here (timed-starts.ts). */
  private readonly inlineTimed = new TimedStarts<IoRequest>((slot, req) =>
    this.inlineDriver().fire(slot, req),
  );
  private failedToStart: string | null = null;
  private readonly ackStep: number;
  readonly threadCount: number;

  /** Starts the configured threads; the measuring thread steps back only if `config` asks. */
  constructor(readonly config: EngineConfig = defaultEngineConfig()) {
    this.threadCount = Math.max(0, Math.min(MAX_IO_THREADS, Math.floor(config.ioThreads)));
    this.ackStep = ackStepBytes(backlogBounds(config.limits.backlogHighBytes));
    for (let i = 0; i < this.threadCount; i++) {
      try {
        this.threads.push(this.spawn());
      } catch (e) {
        this.failedToStart = errorMessage(e);
        break;
      }
    }
    if (this.threads.length > 0 && config.lowerPriority) yieldToIoThreads();
  }

  /** Where requests actually run: threads alive, or 0 = inline. */
  get mode(): { threads: number; note: string | null } {
    const alive = this.threads.filter((t) => t.alive).length;
    return { threads: alive, note: this.failedToStart };
  }

  private spawn(): Thread {
    // A small young generation: this thread's live set is a few MB (its drivers and batch buffers;
    // reads land in a fixed buffer), and V8 otherwise grows the nursery to 3 × 16 MB of mostly
    // garbage (heap 44 MB for 15 MB used in a 1 M-chunk run). Scavenges stay short: they cost what
    // survives, not the nursery's size.
    const worker = startWorker('io-worker', this.driverConfig(), {
      resourceLimits: { maxYoungGenerationSizeMb: IO_YOUNG_GENERATION_MB },
    });
    let onReady = (): void => {};
    const ready = new Promise<void>((r) => (onReady = r));
    const th: Thread = {
      worker,
      active: 0,
      offset: null,
      alive: true,
      lastStats: null,
      waiters: new Map(),
      refd: true,
      ready,
      onReady,
      ackSlots: [],
      ackBytes: [],
      outbox: [],
      blobs: new Set(),
    };
    worker.unref();
    th.refd = false;
    worker.on('message', (m: FromIo) => this.onMessage(th, m));
    const died = (why: string): void => {
      if (!th.alive) return;
      th.alive = false;
      this.failedToStart ??= why;
      // Every request on it fails, classified; what arrived before stays with its owner.
      for (const [slot, s] of this.slots) {
        if (s.thread !== th) continue;
        this.slots.delete(slot);
        const error: RequestError = {
          kind: 'client',
          code: 'io-thread',
          message: `The stream-I/O thread stopped: ${why}`,
        };
        s.handler.ctrl({ k: 'error', t: performance.now(), error });
      }
      for (const w of th.waiters.values()) w(emptyStats());
      th.waiters.clear();
      th.onReady();
    };
    worker.on('error', (e) => died(e.message));
    worker.on('exit', (code) => died(`exited with code ${code}`));
    for (const [id, opts] of this.pools) worker.postMessage({ op: 'pool', id, opts } satisfies ToIo);
    return th;
  }

  private onMessage(th: Thread, m: FromIo): void {
    switch (m.op) {
      case 'hello':
        th.offset = clockOffset(m.samples);
        th.onReady();
        break;
      case 'stats': {
        th.lastStats = m.stats;
        const w = th.waiters.get(m.token);
        if (w) {
          th.waiters.delete(m.token);
          w(m.stats);
        }
        break;
      }
      case 'batch':
        this.onBatch(th, m);
        break;
    }
  }

  private onBatch(th: Thread, m: Extract<FromIo, { op: 'batch' }>): void {
    const off = th.offset ?? 0;
    const meta = new Float64Array(m.meta);
    const bytes = Buffer.from(m.bytes);
    let ci = 0;
    const nCtrl = m.ctrl.length;
    let pos = 0;
    for (let r = 0; r <= m.nReads; r++) {
      while (ci < nCtrl && m.ctrlAt[ci] === r) {
        const slot = m.ctrlSlot[ci]!;
        const ev = m.ctrl[ci]!;
        ci++;
        ev.t += off;
        this.deliverCtrl(slot, ev, th);
      }
      if (r === m.nReads) break;
      const k = r * META_STRIDE;
      const len = meta[k + 2]!;
      const s = this.slots.get(meta[k]!);
      if (s) s.handler.read(meta[k + 1]! + off, bytes.subarray(pos, pos + len));
      pos += len;
    }
    // Whole buffer sets go back to be reused; trimmed copies (a batch barely filled) are dropped.
    if (m.bytes.byteLength === BATCH_BYTES)
      th.worker.postMessage({ op: 'recycle', bytes: m.bytes, meta: m.meta } satisfies ToIo, [
        m.bytes,
        m.meta,
      ]);
  }

  private deliverCtrl(slot: number, ev: IoCtrl, th: Thread | null): void {
    const s = this.slots.get(slot);
    if (!s) return;
    if (ev.k === 'end' || ev.k === 'error') {
      this.slots.delete(slot);
      if (th) {
        th.active--;
        if (th.active === 0 && th.refd) {
          th.worker.unref();
          th.refd = false;
        }
      }
    }
    s.handler.ctrl(ev);
  }

  private pick(): Thread | null {
    let best: Thread | null = null;
    for (const t of this.threads) if (t.alive && (!best || t.active < best.active)) best = t;
    return best;
  }

  private driverConfig(): IoDriverConfig {
    return { httpClient: this.config.httpClient, backlogHighBytes: this.config.limits.backlogHighBytes };
  }

  private inlineDriver(): Drivers {
    if (!this.inline) {
      const sink: IoSink = {
        read: (slot, t, bytes, start, end) => {
          this.inlineMon!.reads++;
          this.slots.get(slot)?.handler.read(t, bytes.subarray(start, end));
        },
        ctrl: (slot, ev) => this.deliverCtrl(slot, ev, null),
      };
      this.inlineMon = new LoopMonitor();
      this.inline = new Drivers(sink, this.driverConfig(), this.inlineMon.holds);
      for (const [id, opts] of this.pools) this.inline.pool(id, opts);
    }
    return this.inline;
  }

  /**
   * Resolves when every thread has started (its code loaded, its clock measured): a run waits for
   * it before its clock starts, so no request's send waits for a thread to start.
   */
  async ready(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.ready));
  }

  /** Sends a request. Every request ends with exactly one 'end' or 'error'. */
  fire(req: IoRequest, handler: IoHandler): IoCall {
    const slot = this.nextSlot++;
    const th = this.pick();
    this.slots.set(slot, { handler, thread: th, unacked: 0 });
    const consumed = (bytes: number): void => this.consumed(slot, bytes);
    if (th) {
      th.active++;
      if (!th.refd) {
        th.worker.ref();
        th.refd = true;
      }
      // A body with shared blobs (images): the thread gets each blob's bytes once, before it.
      if (typeof req.body !== 'string') this.sendBlobs(th, req.body);
      if (req.at === undefined) th.worker.postMessage({ op: 'fire', slot, req } satisfies ToIo);
      else {
        // A planned start, on the thread's clock (its batches' times come back plus the offset).
        req.at -= th.offset ?? 0;
        if (th.outbox.length === 0) setImmediate(() => this.sendOutbox(th));
        th.outbox.push({ slot, req });
      }
      const cancel = (): void => {
        if (!this.slots.has(slot)) return;
        const i = th.outbox.findIndex((f) => f.slot === slot);
        if (i >= 0) {
          // Still here: it ends without a start, never sent (after this call, as from the thread).
          th.outbox.splice(i, 1);
          queueMicrotask(() =>
            this.deliverCtrl(slot, { k: 'error', t: performance.now(), error: notSentError() }, th),
          );
        } else if (th.alive) th.worker.postMessage({ op: 'cancel', slot } satisfies ToIo);
      };
      return { cancel, consumed };
    }
    const d = this.inlineDriver();
    if (typeof req.body !== 'string') req.body = resolveParts(req.body, blobOf);
    if (req.at === undefined) d.fire(slot, req);
    else this.inlineTimed.add(slot, req.at, req);
    const cancel = (): void => {
      if (this.inlineTimed.cancel(slot))
        this.deliverCtrl(slot, { k: 'error', t: performance.now(), error: notSentError() }, null);
      else d.cancel(slot);
    };
    return { cancel, consumed };
  }

  private sendOutbox(th: Thread): void {
    const fires = th.outbox;
    th.outbox = [];
    // A thread that died meanwhile has failed these already (its requests end with client/io-thread).
    if (!th.alive || fires.length === 0) return;
    // The window's bodies as bytes in one buffer, moved (not copied) to the thread (blobs.ts).
    const packed = packBodies(fires.map((f) => f.req));
    th.worker.postMessage({ op: 'fires', fires } satisfies ToIo, packed ? [packed] : []);
  }

  /** The blobs `parts` names that `th` does not hold yet, sent (copied) before the request. */
  private sendBlobs(th: Thread, parts: readonly BodyPart[]): void {
    for (const p of parts) {
      if (typeof p !== 'number' || th.blobs.has(p)) continue;
      const bytes = blobOf(p);
      if (!bytes || !th.alive) continue; // unknown: the thread fails the request plainly
      if (th.blobs.size >= THREAD_BLOBS) {
        // The oldest goes; requests already handed over that name it go first (they resolve on arrival).
        const oldest = th.blobs.values().next().value!;
        th.blobs.delete(oldest);
        this.sendOutbox(th);
        th.worker.postMessage({ op: 'blob-drop', id: oldest } satisfies ToIo);
      }
      th.blobs.add(p);
      th.worker.postMessage({ op: 'blob', id: p, bytes } satisfies ToIo);
    }
  }

  /** Decoded bytes of a request's reads, reported to its driver in steps (backlog.ts). */
  private consumed(slot: number, bytes: number): void {
    const s = this.slots.get(slot);
    if (!s) return;
    s.unacked += bytes;
    if (s.unacked < this.ackStep) return;
    const n = s.unacked;
    s.unacked = 0;
    const th = s.thread;
    if (!th) {
      this.inline?.ack(slot, n);
      return;
    }
    if (!th.alive) return;
    if (th.ackSlots.length === 0) setImmediate(() => this.sendAcks(th));
    th.ackSlots.push(slot);
    th.ackBytes.push(n);
  }

  private sendAcks(th: Thread): void {
    const slots = th.ackSlots;
    const bytes = th.ackBytes;
    th.ackSlots = [];
    th.ackBytes = [];
    if (th.alive && slots.length > 0) th.worker.postMessage({ op: 'ack', slots, bytes } satisfies ToIo);
  }

  /** A connection pool shared by the requests that name it (a load run's keep-alive pool). */
  createPool(opts: IoPoolOptions): number {
    const id = this.nextPool++;
    this.pools.set(id, opts);
    for (const t of this.threads) if (t.alive) t.worker.postMessage({ op: 'pool', id, opts } satisfies ToIo);
    this.inline?.pool(id, opts);
    return id;
  }

  closePool(id: number): void {
    this.pools.delete(id);
    for (const t of this.threads) if (t.alive) t.worker.postMessage({ op: 'pool-close', id } satisfies ToIo);
    this.inline?.closePool(id);
  }

  /** Starts the loop figures afresh (a run's measured part begins). */
  resetStats(): void {
    for (const t of this.threads) {
      if (t.alive) t.worker.postMessage({ op: 'stats-reset' } satisfies ToIo);
      t.lastStats = null;
    }
    this.inlineMon?.reset();
  }

  /** The last figures each thread pushed (at most ~1 s old): for live views. */
  statsNow(): IoThreadsStats {
    const list = this.threads.filter((t) => t.alive && t.lastStats).map((t) => t.lastStats!);
    if (this.inlineMon) list.push(this.inlineMon.stats());
    return { threads: this.mode.threads, io: combine(list) };
  }

  /**
   * Fresh figures from every thread, with their stall windows moved onto this thread's clock
   * (`stallWindows`: a run's self-check names the events stamped in them).
   */
  async stats(): Promise<IoThreadsStats> {
    const asks = this.threads
      .filter((t) => t.alive)
      .map(
        (t) =>
          new Promise<IoLoopStats>((resolve) => {
            const token = this.nextToken++;
            const timer = setTimeout(() => {
              t.waiters.delete(token);
              resolve(t.lastStats ?? emptyStats());
            }, 2000);
            t.waiters.set(token, (s) => {
              clearTimeout(timer);
              const off = t.offset ?? 0;
              resolve({ ...s, stallWindows: s.stallWindows.map((x) => x + off) });
            });
            t.worker.postMessage({ op: 'stats', token, windows: true } satisfies ToIo);
          }),
      );
    const list = await Promise.all(asks);
    if (this.inlineMon) list.push(this.inlineMon.stats(true));
    return { threads: this.mode.threads, io: combine(list) };
  }

  /**
   * Tests of the self-check: holds the loop that stamps reads busy for `ms` (every I/O thread, or
   * this thread when inline), as a GC pause or a burst of work would.
   */
  injectStall(ms: number): void {
    const alive = this.threads.filter((t) => t.alive);
    for (const t of alive) t.worker.postMessage({ op: 'test-stall', ms } satisfies ToIo);
    if (alive.length > 0) return;
    const end = performance.now() + ms;
    while (performance.now() < end) {
      // the stall
    }
  }

  /** Ends the threads (their heaps and read pages with them); the next `io()` starts a new engine. */
  async close(): Promise<void> {
    if (engine === this) engine = null;
    for (const { slot } of this.inlineTimed.drain())
      this.deliverCtrl(slot, { k: 'error', t: performance.now(), error: notSentError() }, null);
    this.inline?.destroy();
    this.inlineMon?.stop();
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}

let engine: IoEngine | null = null;
let configured: EngineConfig | null = null;

/**
 * The entry point's engine configuration (electron/main.ts, the CLI, web mode): the process's
 * engine is made with it on first use. An engine already made with other settings is closed.
 */
export function configureEngine(config: EngineConfig): void {
  configured = config;
  const old = engine;
  engine = null;
  void old?.close();
}

/** The entry point's configuration (the defaults when none was given), without starting an engine. */
export function engineConfig(): EngineConfig {
  return configured ?? defaultEngineConfig();
}

/** Puts `e` in place of the process's engine (tests, benches); the old one is closed. */
export function useIo(e: IoEngine): void {
  const old = engine;
  engine = e;
  if (old && old !== e) void old.close();
}

/** The process's stream-I/O engine, started on first use with the entry point's configuration. */
export function io(): IoEngine {
  engine ??= new IoEngine(engineConfig());
  return engine;
}
