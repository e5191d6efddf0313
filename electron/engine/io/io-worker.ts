/**
 * The stream-I/O thread (docs/ARCHITECTURE.md "Stream I/O"). Its event loop does only socket work:
 * the drivers open connections, write requests and stamp reads; this file copies each read's body
 * bytes into a preallocated batch buffer and hands the batch to the measuring thread at most every
 * FLUSH_MS (the stamps are taken already: batching only delays delivery, and fewer messages mean
 * less garbage on this thread), at once when a request ended (the runner may be waiting to send
 * the next one), transferring the buffers (no copy) and taking them back once decoded (a batch
 * barely filled goes as a trimmed copy instead). A request whose bytes the measuring side has not
 * decoded yet past a bound stops being read (backlog.ts: the drivers pause it, 'ack' resumes it).
 * No JSON, no statistics, no framing here.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { workerInput } from '../../workers/spawn.ts';
import { Drivers } from './raw-driver.ts';
import { clockSamples } from './clock-samples.ts';
import { LoopMonitor } from './loop-monitor.ts';
import { SlicedQueue } from '../../platform/sliced-queue.ts';
import { TimedStarts } from './timed-starts.ts';
import { resolveParts } from './blobs.ts';
import { notSentError } from './timers.ts';
import {
  BATCH_BYTES,
  BATCH_READS,
  META_STRIDE,
  type FromIo,
  type IoCtrl,
  type IoRequest,
  type IoDriverConfig,
  type IoSink,
  type ToIo,
} from './protocol.ts';

const port = parentPort!;
/**
 * A batch filled to less than this goes as a trimmed copy (its buffers stay here): what waits in
 * the message queue is about what was read, not a whole 256 KiB + 96 KiB buffer set per batch.
 */
const COPY_BELOW_BYTES = BATCH_BYTES / 8;
const COPY_BELOW_READS = BATCH_READS / 8;
/** Reads wait at most this long for their batch to leave. */
const FLUSH_MS = 2;

class Batcher implements IoSink {
  private bytes = new ArrayBuffer(BATCH_BYTES);
  private u8 = new Uint8Array(this.bytes);
  private meta = new Float64Array(BATCH_READS * META_STRIDE);
  private off = 0;
  private n = 0;
  private ctrlEvents: IoCtrl[] = [];
  private ctrlSlot: number[] = [];
  private ctrlAt: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate = false;
  private readonly free: { bytes: ArrayBuffer; meta: ArrayBuffer }[] = [];

  constructor(private readonly mon: LoopMonitor) {}

  read(slot: number, t: number, bytes: Buffer, start: number, end: number): void {
    const len = end - start;
    if (this.n === BATCH_READS || this.off + len > this.u8.length) {
      this.flush();
      if (len > this.u8.length) this.fresh(len);
    }
    bytes.copy(this.u8, this.off, start, end);
    const m = this.n * META_STRIDE;
    this.meta[m] = slot;
    this.meta[m + 1] = t;
    this.meta[m + 2] = len;
    this.off += len;
    this.n++;
    this.mon.reads++;
    this.timer ??= setTimeout(this.flushNow, FLUSH_MS);
  }

  ctrl(slot: number, ev: IoCtrl): void {
    this.ctrlEvents.push(ev);
    this.ctrlSlot.push(slot);
    this.ctrlAt.push(this.n);
    if (ev.k === 'end' || ev.k === 'error') {
      if (!this.immediate) {
        this.immediate = true;
        setImmediate(this.flushNow);
      }
    } else this.timer ??= setTimeout(this.flushNow, FLUSH_MS);
  }

  private readonly flushNow = (): void => this.flush();

  /** Takes a returned buffer set, or a new one (of at least `min` bytes). */
  private fresh(min = BATCH_BYTES): void {
    const reuse = min <= BATCH_BYTES ? this.free.pop() : undefined;
    this.bytes = reuse?.bytes ?? new ArrayBuffer(Math.max(min, BATCH_BYTES));
    this.u8 = new Uint8Array(this.bytes);
    this.meta = reuse ? new Float64Array(reuse.meta) : new Float64Array(BATCH_READS * META_STRIDE);
  }

  recycle(bytes: ArrayBuffer, meta: ArrayBuffer): void {
    const whole = bytes.byteLength === BATCH_BYTES && meta.byteLength === BATCH_READS * META_STRIDE * 8;
    if (whole && this.free.length < 8) this.free.push({ bytes, meta });
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.immediate = false;
    if (this.n === 0 && this.ctrlEvents.length === 0) return;
    const copy = this.off < COPY_BELOW_BYTES && this.n < COPY_BELOW_READS;
    const bytes = copy ? this.bytes.slice(0, this.off) : this.bytes;
    const meta = copy
      ? (this.meta.buffer.slice(0, this.n * META_STRIDE * 8) as ArrayBuffer)
      : (this.meta.buffer as ArrayBuffer);
    const msg: FromIo = {
      op: 'batch',
      bytes,
      meta,
      nReads: this.n,
      ctrl: this.ctrlEvents,
      ctrlSlot: this.ctrlSlot,
      ctrlAt: this.ctrlAt,
    };
    port.postMessage(msg, [bytes, meta]);
    this.mon.batches++;
    this.off = 0;
    this.n = 0;
    this.ctrlEvents = [];
    this.ctrlSlot = [];
    this.ctrlAt = [];
    if (!copy) this.fresh();
  }
}

/** Holds this thread's loop (tests of the self-check: an injected stall). */
function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // the stall
  }
}

const mon = new LoopMonitor();
const batcher = new Batcher(mon);
// The engine configuration's part for this thread, given by the engine that started it.
const driver = new Drivers(batcher, workerInput<IoDriverConfig>(workerData), mon.holds);

/**
 * Reads win over new work. Starting a request (a connect, its encoding and write) takes ~0.1–0.2 ms;
 * the measuring side sends a whole opening burst (256, 1,024 'fire' messages) at once and a port
 * delivers its queued messages in one go, so starting them all where they arrive held this loop
 * 35–66 ms and stamped the first streams' reads that late. They are queued instead and started in
 * slices of at most FIRE_SLICE_MS from setImmediate: each loop turn's poll phase (every readable
 * socket stamped) runs before the next slice. A request's zero is when it is started, so a queued
 * one's times are unaffected; only its send is later (its `sentMs`).
 */
const FIRE_SLICE_MS = 1;
/** Cancelled while still queued: started and cancelled at once, so it ends as any cancelled one. */
const cancelledQueued = new Set<number>();
const fires = new SlicedQueue<{ slot: number; req: IoRequest }>(FIRE_SLICE_MS, (f) => {
  driver.fire(f.slot, f.req);
  if (cancelledQueued.delete(f.slot)) driver.cancel(f.slot);
});

/** Requests handed over ahead of their send (IoRequest.at), started when due (timed-starts.ts). */
const timed = new TimedStarts<IoRequest>((slot, req) => fires.add({ slot, req }));

function cancel(slot: number): void {
  // Not started yet: it ends without a start event, never sent.
  if (timed.cancel(slot)) batcher.ctrl(slot, { k: 'error', t: performance.now(), error: notSentError() });
  else if (fires.find((f) => f.slot === slot)) cancelledQueued.add(slot);
  else driver.cancel(slot);
}

// Clock samples for the offset between this thread's performance.now() and the main thread's.
clockSamples(5); // warm the path
const samples = clockSamples();
port.postMessage({ op: 'hello', samples } satisfies FromIo);

// Loop figures once a second, so the measuring side always has recent ones without asking.
const statsTimer = setInterval(
  () => port.postMessage({ op: 'stats', stats: mon.stats(), token: 0 } satisfies FromIo),
  1000,
);
statsTimer.unref();

/** Shared body pieces (blobs.ts), by id, as the measuring side sent them. */
const blobs = new Map<number, Uint8Array>();
const blobBytes = (id: number): Uint8Array | undefined => blobs.get(id);

/** A body's blob ids become the bytes this thread holds, as the request arrives (a later drop cannot reach it). */
function arrived(req: IoRequest): IoRequest {
  if (typeof req.body !== 'string') req.body = resolveParts(req.body, blobBytes);
  return req;
}

port.on('message', (m: ToIo) => {
  switch (m.op) {
    case 'fire':
      fires.add({ slot: m.slot, req: arrived(m.req) });
      break;
    case 'fires':
      for (const f of m.fires) timed.add(f.slot, f.req.at ?? 0, arrived(f.req));
      break;
    case 'blob':
      blobs.set(m.id, m.bytes);
      break;
    case 'blob-drop':
      blobs.delete(m.id);
      break;
    case 'cancel':
      cancel(m.slot);
      break;
    case 'pool':
      driver.pool(m.id, m.opts);
      break;
    case 'pool-close':
      driver.closePool(m.id);
      break;
    case 'stats-reset':
      mon.reset();
      break;
    case 'stats':
      port.postMessage({ op: 'stats', stats: mon.stats(m.windows), token: m.token } satisfies FromIo);
      break;
    case 'recycle':
      batcher.recycle(m.bytes, m.meta);
      break;
    case 'ack':
      for (let i = 0; i < m.slots.length; i++) driver.ack(m.slots[i]!, m.bytes[i]!);
      break;
    case 'test-stall':
      busyWait(m.ms);
      break;
  }
});
