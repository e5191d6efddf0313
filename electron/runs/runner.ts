/**
 * The load runner: `vllm bench serve` done live. Schedules arrivals (shared/runs/arrivals.ts),
 * holds them to the client-side concurrency limit (waiting time = queue time, kept apart from
 * TTFT), streams every request through the engine on keep-alive connections, appends each
 * finished request to the run file, reports progress a few times a second, and ends with the
 * exact summary (shared/runs/summary.ts). Cancellable with an AbortSignal. No Electron imports.
 *
 * Clock: offsets are ms since the measured part began (t0, after warm-up), on the engine's
 * monotonic clock; the header, written at t0, records t0 as wall time (`clockZeroWall`) and each
 * line its send time on that clock (`sentMs`), so a run file lines up with a server's log.
 * Duration (vLLM's): t0 → the last request done.
 *
 * Sockets and timestamps live on the stream-I/O thread (engine/io/); the bookkeeping of a finished
 * request (its line, statistics, live histograms, file buffer) runs here, in slices (see
 * `finishQueue`), so requests that end together never hold this thread for long.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { RequestRecord } from '../../shared/record.ts';
import type { RequestSpec } from '../../shared/request.ts';
import { arrivalStream, arrivalTimes } from '../../shared/runs/arrivals.ts';
import { LiveStats } from '../../shared/runs/live-stats.ts';
import { isCancelledLine, outcomeOfLine } from '../../shared/runs/outcome.ts';
import { ms3, recordToLineWithStats } from '../../shared/runs/record-line.ts';
import {
  RUN_FILE_FORMAT,
  RUN_FILE_VERSION,
  type RunHeader,
  type RunPhase,
  type RunProgress,
  type RunRequestLine,
  type RunRequestStart,
} from '../../shared/runs/run-types.ts';
import { summarizeRunLines } from '../../shared/runs/summarize-run.ts';
import { rateOf, type Workload } from '../../shared/runs/workload.ts';
import { fireRequest } from '../engine/client.ts';
import { now, wallNow } from '../engine/clock.ts';
import { io } from '../engine/io/io-engine.ts';
import type { PromptItem } from './prompt-items.ts';
import { buildSpec, publicTarget } from './request-spec.ts';
import { RunFileWriter } from './run-file.ts';
import { ServerWatch } from './server-watch.ts';
import { SelfCheckMonitor } from './self-check.ts';
import { sleepUntil, Slots } from './slots.ts';
import { FinishQueue } from './finish-queue.ts';
import { sendTestRequest, TestRequestError } from './test-request.ts';

export type { RunTargetSpec } from './request-spec.ts';
export { TestRequestError } from './test-request.ts';
export { arrivalSpecOf, tokenscopeVersion, type RunOptions, type RunResult } from './run-options.ts';
import { arrivalSpecOf, tokenscopeVersion, type RunOptions, type RunResult } from './run-options.ts';

/** A request about to be sent: where it stands in the run and what it sends. */
interface Dispatch {
  seq: number;
  warmup: boolean;
  /** Its planned arrival on the run clock (null: warm-up, no schedule). */
  scheduledMs: number | null;
  arrivedMs: number;
  slots: Slots;
  /** The slot was taken already (a closed loop takes it before the arrival). */
  haveSlot: boolean;
  /** The clock zero of its offsets (the run's t0, or the warm-up's). */
  origin: number;
  item: PromptItem;
  spec: RequestSpec;
}

/** One run's state and steps: opened, run (test request, warm-up, measured part), closed. */
class RunSession {
  readonly w: Workload;
  readonly runId: string;
  readonly header: RunHeader;
  private readonly ac = new AbortController();
  private readonly signal = this.ac.signal;
  private readonly onOuterAbort = (): void => this.ac.abort();
  private readonly C: number;
  private readonly engine = io();
  private readonly pool: number;
  private readonly conns: { mode: Workload['connection']; opened: number; reused: number; retried: number };
  private readonly live = new LiveStats();
  readonly callbackErrors: string[] = [];
  private readonly onStart?: (s: RunRequestStart) => void;
  private readonly onEvents?: (id: string, rec: RequestRecord, firstNewEvent: number) => void;
  private readonly onDone?: (line: RunRequestLine, rec: RequestRecord) => void;
  private readonly onProgress?: (p: RunProgress) => void;
  private readonly lines: RunRequestLine[] = [];
  private readonly finishQueue = new FinishQueue();
  private readonly c = {
    arrived: 0,
    started: 0,
    completed: 0,
    failed: 0,
    inFlight: 0,
    maxInFlight: 0,
    warmupDone: 0,
    outputTokens: 0,
  };
  private phase: RunPhase;
  private discarded = false;
  private t0 = now();
  private monitor: SelfCheckMonitor | null = null;
  private lastSelf = { eventLoopDelayP99Ms: 0, cpuPct: 0 };
  private lastArrivalMs = 0;
  private readonly total: number | null;
  private readonly durationMs: number | null;
  private ticker: ReturnType<typeof setInterval> | null = null;

  private constructor(
    private readonly o: RunOptions,
    private readonly writer: RunFileWriter | null,
    private readonly watch: ServerWatch | null,
  ) {
    const w = (this.w = o.workload);
    this.runId = o.runId ?? randomUUID();
    const { target: _omit, ...workloadNoTarget } = w;
    const wall = wallNow();
    this.header = {
      type: 'header',
      format: RUN_FILE_FORMAT,
      version: RUN_FILE_VERSION,
      runId: this.runId,
      name: o.name ?? w.name ?? null,
      workload: workloadNoTarget,
      target: publicTarget(o.target),
      tokenscopeVersion: o.tokenscopeVersion ?? tokenscopeVersion(),
      nodeVersion: process.version,
      platform: `${process.platform}-${process.arch}`,
      startedAtWall: wall,
      startedAt: new Date(wall).toISOString(),
      ...(o.repeat ? { repeat: o.repeat } : {}),
    };
    if (o.signal?.aborted) this.ac.abort();
    o.signal?.addEventListener('abort', this.onOuterAbort, { once: true });
    // Every request in flight (and every queued one) listens on this one signal while it lasts:
    // hundreds at a time is the point, not a leak (each removes its listener when it ends).
    setMaxListeners(0, this.signal);
    this.C = w.maxConcurrency ?? Infinity;
    this.pool = this.engine.createPool({ mode: w.connection, maxSockets: this.C });
    this.conns = { mode: w.connection, opened: 0, reused: 0, retried: 0 };
    this.onStart = this.safe(o.onRequestStart);
    this.onEvents = this.safe(o.onRequestEvents);
    this.onDone = this.safe(o.onRequestDone);
    this.onProgress = this.safe(o.onProgress);
    this.phase = w.testRequest ? 'test' : w.warmup > 0 ? 'warmup' : 'running';
    this.total = w.requests ?? null;
    this.durationMs = w.durationS !== undefined ? w.durationS * 1000 : null;
  }

  static async open(o: RunOptions): Promise<RunSession> {
    // The file is created now (a name taken or a folder not writable fails the run before it
    // starts); its header is written when the run clock starts, with that instant as wall time.
    const writer = o.outFile ? await RunFileWriter.open(o.outFile) : null;
    let watch: ServerWatch | null = null;
    if (o.serverMetrics) {
      try {
        watch = new ServerWatch({ timeoutMs: 2000, ...o.serverMetrics }, o.target.model);
      } catch {
        watch = null; // a metrics URL that can never work: the run goes on without server numbers
      }
    }
    const s = new RunSession(o, writer, watch);
    await s.engine.ready(); // the stream-I/O thread(s) started before anything is sent
    s.ticker = setInterval(() => s.emit(), o.progressIntervalMs ?? 250);
    s.ticker.unref();
    return s;
  }

  /** A UI callback that throws must not stop a run or lose its data: keep the error, go on. */
  private safe<A extends unknown[]>(fn: ((...a: A) => void) | undefined): ((...a: A) => void) | undefined {
    return (
      fn &&
      ((...a: A): void => {
        try {
          fn(...a);
        } catch (e) {
          if (this.callbackErrors.length < 5) this.callbackErrors.push((e as Error).message);
        }
      })
    );
  }

  /**
   * Prompts are built before their arrival time, so building one never delays a dispatch or shows
   * up as queue time.
   */
  private prepare(seq: number, stream: 'main' | 'warmup' | 'test'): { item: PromptItem; spec: RequestSpec } {
    const item = this.o.prompts.at(seq, stream);
    return { item, spec: buildSpec(this.w, this.o.target, item, this.o.prompts.force) };
  }

  async run(): Promise<RunResult> {
    if (this.w.testRequest) await this.testRequest();
    this.safe(this.o.onStarted)?.(this.header);
    if (this.w.warmup > 0 && !this.signal.aborted) this.phase = 'warmup';
    if (this.w.warmup > 0) await this.warmup();
    this.phase = this.signal.aborted ? 'cancelled' : 'running';
    const durationS = await this.measured();
    return this.finish(durationS);
  }

  /** One request before anything is measured; stops the run (TestRequestError) when it fails. */
  private async testRequest(): Promise<void> {
    this.emit();
    const { item, spec } = this.prepare(0, 'test');
    const t = await sendTestRequest(spec, { pool: this.pool, signal: this.signal });
    const err = t.rec.error;
    if (!t.cancelled && err) {
      this.discarded = true;
      await this.writer?.discard().catch(() => undefined);
      throw new TestRequestError(err, t.attempts);
    }
    if (t.cancelled) return;
    const { line } = recordToLineWithStats(t.rec, {
      seq: 0,
      warmup: true,
      scheduledMs: null,
      arrivedMs: 0,
      startedMs: 0,
      inputTokensEstimate: item.inputTokens,
      expectedOutputTokens: spec.params?.maxTokens ?? null,
      saveText: false,
    });
    this.header.testRequest = {
      attempts: t.attempts,
      ttftMs: line.ttftMs,
      e2eMs: line.e2eMs,
      outputTokens: line.outputTokens,
    };
  }

  /** Warm-up: like vLLM, at max concurrency with no rate, before the clock starts. */
  private async warmup(): Promise<void> {
    this.emit();
    const ws = new Slots(this.C);
    this.signal.addEventListener('abort', () => ws.cancelAll(), { once: true });
    const tw = now();
    const prepared = Array.from({ length: this.w.warmup }, (_, k) => this.prepare(k, 'warmup'));
    await Promise.all(
      prepared.map((p, k) =>
        this.fire({
          seq: k,
          warmup: true,
          scheduledMs: null,
          arrivedMs: 0,
          slots: ws,
          haveSlot: false,
          origin: tw,
          ...p,
        }),
      ),
    );
  }

  /** The measured part: arrivals on schedule (or a closed loop), then the drain. Its duration (s). */
  private async measured(): Promise<number> {
    const { w, signal, total, durationMs } = this;
    const slots = new Slots(this.C);
    signal.addEventListener('abort', () => slots.cancelAll(), { once: true });
    const tasks: Promise<void>[] = [];
    // Duration run at rate "inf": a closed loop — the next request arrives when a slot frees.
    const closedLoop = total === null && rateOf(w) === Infinity;
    const spec = arrivalSpecOf(w);
    const times = total !== null ? arrivalTimes(spec, total) : null; // computed before the clock starts
    const stream = times ? null : arrivalStream(spec);
    if (times && times.length > 0) this.lastArrivalMs = times[times.length - 1]!;
    if (this.watch) {
      // The baseline: bounded, so a server whose /metrics hangs delays the start by 2 s at most.
      await this.watch.scrapeNow();
      this.watch.start();
    }
    this.monitor = new SelfCheckMonitor(this.engine);
    const t0 = (this.t0 = now());
    this.header.clockZeroWall = performance.timeOrigin + t0;
    await this.writer?.start(this.header);
    this.emit();
    for (let i = 0; !signal.aborted && (total === null || i < total); i++) {
      const prepared = this.prepare(i, 'main');
      let at: number;
      if (closedLoop) {
        if (!(await slots.acquire())) break;
        at = now() - t0;
      } else {
        at = times ? times[i]! : stream!.next().value;
        if (durationMs !== null && at >= durationMs) break;
        await sleepUntil(t0 + at, signal);
        if (signal.aborted) break;
      }
      const arrivedMs = now() - t0;
      if (durationMs !== null && arrivedMs >= durationMs) {
        if (closedLoop) slots.release();
        break;
      }
      this.monitor.recordLag(arrivedMs - at);
      this.c.arrived++;
      tasks.push(
        this.fire({
          seq: i,
          warmup: false,
          scheduledMs: at,
          arrivedMs,
          slots,
          haveSlot: closedLoop,
          origin: t0,
          ...prepared,
        }),
      );
    }
    if (!signal.aborted) this.phase = 'draining';
    await Promise.all(tasks);
    return (now() - t0) / 1000;
  }

  /** Sends one request when it gets a slot, and queues its bookkeeping when it ends. */
  private async fire(d: Dispatch): Promise<void> {
    const { c, signal } = this;
    if (!d.haveSlot && !(await d.slots.acquire())) return; // cancelled while queued: never sent
    if (signal.aborted) {
      d.slots.release(); // got a slot just as the run was cancelled: do not send it
      return;
    }
    const startedMs = now() - d.origin;
    const id = `${d.warmup ? 'w' : 'r'}${String(d.seq).padStart(5, '0')}`;
    c.inFlight++;
    if (!d.warmup) c.started++;
    c.maxInFlight = Math.max(c.maxInFlight, c.inFlight);
    this.onStart?.({
      id,
      seq: d.seq,
      warmup: d.warmup,
      scheduledMs: d.scheduledMs,
      arrivedMs: d.arrivedMs,
      startedMs,
      queueMs: startedMs - d.arrivedMs,
    });
    const onEvents = this.onEvents;
    const rec = await fireRequest(d.spec, {
      signal,
      keepRaw: false,
      pool: this.pool,
      id,
      onProgress: onEvents ? (r, from) => onEvents(id, r, from) : undefined,
    });
    c.inFlight--;
    d.slots.release();
    const cn = rec.connection;
    if (cn && rec.startMono !== undefined) {
      if (cn.reused && cn.retries === 0) this.conns.reused++;
      else this.conns.opened++;
      if (cn.retries > 0) this.conns.retried++;
    }
    this.finishQueue.push(() => this.record(d, rec, startedMs));
  }

  /** A finished request's line, statistics and counters (in the finish queue's slices). */
  private record(d: Dispatch, rec: RequestRecord, startedMs: number): void {
    const { c } = this;
    // Statistics computed once, with the line, and reused for the live numbers.
    const { line, stats } = recordToLineWithStats(rec, {
      seq: d.seq,
      warmup: d.warmup,
      scheduledMs: d.scheduledMs,
      arrivedMs: d.arrivedMs,
      startedMs,
      inputTokensEstimate: d.item.inputTokens,
      expectedOutputTokens: d.spec.params?.maxTokens ?? null,
      saveText: this.w.saveText,
    });
    // The run clock of this line (warm-up lines: the warm-up's), so a line says when it was sent.
    if (rec.startMono !== undefined) line.sentMs = ms3(rec.startMono - d.origin);
    const cn = rec.connection;
    if (cn) {
      line.connection = {
        reused: cn.reused,
        retried: cn.retries > 0,
        ...(cn.retryReason ? { retryReason: cn.retryReason } : {}),
      };
    }
    this.lines.push(line);
    this.writer?.append(line);
    if (d.warmup) c.warmupDone++;
    else if (!isCancelledLine(line)) {
      if (line.status === 'ok') c.completed++;
      else c.failed++;
      c.outputTokens += line.status === 'ok' ? line.outputTokens : 0;
      this.live.add(outcomeOfLine(line, stats));
    }
    this.onDone?.(line, rec);
  }

  /** The summary, the server side, the file's last line. */
  private async finish(durationS: number): Promise<RunResult> {
    await this.finishQueue.idle();
    const fqError = this.finishQueue.error;
    if (fqError && this.callbackErrors.length < 5) this.callbackErrors.push(fqError.message);
    const cancelled = this.signal.aborted;
    this.phase = cancelled ? 'cancelled' : 'done';
    const selfCheck = await this.monitor!.stop({ ...this.conns });
    this.monitor = null;
    this.lastSelf = { eventLoopDelayP99Ms: selfCheck.eventLoopDelayP99Ms, cpuPct: selfCheck.cpuMeanPct };
    const summary = summarizeRunLines(this.header, this.lines, { durationS, cancelled, selfCheck });
    if (this.watch) summary.server = await this.watch.finish(this.t0);
    let fileError: string | null = null;
    try {
      await this.writer?.finish(summary);
    } catch (e) {
      fileError = (e as Error).message;
    }
    this.emit();
    return {
      header: this.header,
      lines: this.lines,
      summary,
      path: this.writer?.path ?? null,
      cancelled,
      fileError,
      callbackErrors: this.callbackErrors,
    };
  }

  private progress(): RunProgress {
    const { c, phase, total, durationMs } = this;
    const elapsedMs = phase === 'warmup' || phase === 'test' ? 0 : now() - this.t0;
    const done = c.completed + c.failed;
    let fraction = 0;
    let etaMs: number | null = null;
    if (phase === 'done' || phase === 'cancelled') fraction = 1;
    else if (total !== null) {
      fraction = done / total;
      if (done > 0) etaMs = Math.max(((total - done) * elapsedMs) / done, this.lastArrivalMs - elapsedMs);
    }
    if (durationMs !== null && phase === 'running') {
      const f = Math.min(1, elapsedMs / durationMs);
      if (f > fraction) {
        fraction = f;
        etaMs = Math.max(0, durationMs - elapsedMs);
      }
    }
    return {
      runId: this.runId,
      phase,
      elapsedMs,
      total,
      durationMs,
      arrived: c.arrived,
      started: c.started,
      completed: c.completed,
      failed: c.failed,
      inFlight: c.inFlight,
      queued: phase === 'cancelled' ? 0 : Math.max(0, c.arrived - c.started),
      maxInFlight: c.maxInFlight,
      warmupDone: c.warmupDone,
      warmupTotal: this.w.warmup,
      outputTokens: c.outputTokens,
      fraction,
      etaMs,
      live: this.live.snapshot(),
      selfCheck: this.monitor?.live() ?? this.lastSelf,
    };
  }

  private emit(): void {
    this.onProgress?.(this.progress());
  }

  /** Whatever happened: timers, pool, watch and file closed (the header first, if never written). */
  async close(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    this.monitor?.dispose();
    this.o.signal?.removeEventListener('abort', this.onOuterAbort);
    this.engine.closePool(this.pool);
    // Cancelled before the run clock started (in warm-up): the header still goes first.
    const w = this.writer;
    if (w && !w.started && !this.discarded) await w.start(this.header).catch(() => undefined);
    this.live.destroy();
    this.watch?.stop();
    await w?.close().catch(() => undefined); // no-op after finish(); closes on a thrown error
  }
}

export async function runWorkload(o: RunOptions): Promise<RunResult> {
  const session = await RunSession.open(o);
  try {
    return await session.run();
  } finally {
    await session.close();
  }
}
