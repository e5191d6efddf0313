/**
 * The load runner: `vllm bench serve` done live. Schedules arrivals (shared/runs/workload/arrivals.ts),
 * holds them to the client-side concurrency limit (waiting time = queue time, kept apart from
 * TTFT), streams every request through the engine on keep-alive connections, appends each
 * finished request to the run file, reports progress a few times a second (counted in
 * run-tally.ts), and ends with the exact summary (shared/runs/summary/summary.ts). Cancellable with an
 * AbortSignal. No Electron imports.
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
import { arrivalStream, arrivalTimes } from '../../shared/runs/workload/arrivals.ts';
import type { RunHeader, RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import type { RunPhase, RunProgress, RunRequestStart } from '../../shared/runs/live/progress-types.ts';
import { rateOf, type Workload } from '../../shared/runs/workload/workload.ts';
import { ownsRequest, shareOf, warmupIndex } from '../../shared/runs/shard/shard.ts';
import { fireRequest } from '../engine/client.ts';
import { now } from '../engine/clock.ts';
import { io } from '../engine/io/io-engine.ts';
import { dispatchId, dispatchLine, startEvent, type Dispatch } from './dispatch.ts';
import type { PromptItem } from './prompts/items.ts';
import { buildSpec } from './request-spec.ts';
import { RunFileWriter } from './files/run-file.ts';
import { RunTally } from './run-tally.ts';
import { ServerWatch } from './server-watch.ts';
import { SelfCheckMonitor } from './self-check.ts';
import { ArrivalClock, sleepUntil, Slots, waitForStart } from './slots.ts';
import { OutputTexts } from './tokenize-outputs.ts';
import { collectSpans } from './server-spans.ts';
import { applySpans, type RunSpansLine } from '../../shared/runs/file/spans-line.ts';
import { FinishQueue } from './finish-queue.ts';
import { LineSink } from './line-sink.ts';
import { guardCallback } from './callback-guard.ts';
import { HANDOFF_LEAD_MS, handoffAt, Lookahead, ownedFrom, prefillDeadline } from './lookahead.ts';
import { sendTestRequest, TestRequestError, testRequestSummary } from './test-request.ts';
import { resetPrefixCache } from './prefix-cache-reset.ts';
import { conversationTask } from './sessions/session-loop.ts';
import { agenticTask } from './sessions/agentic-loop.ts';

export { TestRequestError } from './test-request.ts';
export { StartMissedError, type RunOptions, type RunResult } from './run-options.ts';
import { arrivalSpecOf, runHeaderOf, totalOf, type RunOptions, type RunResult } from './run-options.ts';
import { errorMessage } from '../../shared/result.ts';

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
  private readonly tally: RunTally;
  readonly callbackErrors: string[] = [];
  private readonly onStart?: (s: RunRequestStart) => void;
  private readonly onEvents?: (id: string, rec: RequestRecord, firstNewEvent: number) => void;
  private readonly onDone?: (line: RunRequestLine, rec: RequestRecord) => void;
  private readonly onProgress?: (p: RunProgress) => void;
  private readonly sink: LineSink;
  private readonly finishQueue = new FinishQueue();
  /** Each request's trace, told to the run's span receiver before it is sent (server-spans.ts). */
  private readonly expectTrace?: (t: { traceId: string }) => void;
  private readonly texts: OutputTexts;
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
    this.header = runHeaderOf(o, this.runId);
    if (o.signal?.aborted) this.ac.abort();
    o.signal?.addEventListener('abort', this.onOuterAbort, { once: true });
    // Every request in flight (and every queued one) listens on this one signal while it lasts:
    // hundreds at a time is the point, not a leak (each removes its listener when it ends).
    setMaxListeners(0, this.signal);
    this.C = w.maxConcurrency ?? Infinity;
    this.pool = this.engine.createPool({ mode: w.connection, maxSockets: this.C });
    this.tally = new RunTally(w.connection, !!(w.sessions || w.tools?.agentic));
    this.texts = new OutputTexts(o.target.dialect);
    this.sink = new LineSink(this.header, {
      keepLines: o.keepLines,
      alsoUnder: o.alsoUnder,
      holdAll: !!o.spans,
    });
    this.onStart = this.safe(o.onRequestStart);
    this.onEvents = this.safe(o.onRequestEvents);
    this.onDone = this.safe(o.onRequestDone);
    this.onProgress = this.safe(o.onProgress);
    const spans = o.spans;
    if (spans) this.expectTrace = (t) => spans.expect(t.traceId);
    this.phase = w.testRequest ? 'test' : w.warmup > 0 ? 'warmup' : 'running';
    this.total = totalOf(w, o.prompts);
    this.durationMs = w.durationS !== undefined ? w.durationS * 1000 : null;
  }

  static async open(o: RunOptions): Promise<RunSession> {
    // The file is created now (a name taken or a folder not writable fails the run before it
    // starts); its header is written when the run clock starts, with that instant as wall time.
    const writer = o.outFile ? await RunFileWriter.open(o.outFile) : null;
    let watch: ServerWatch | null = null;
    if (o.serverMetrics) {
      try {
        watch = new ServerWatch(
          { timeoutMs: 2000, ...o.serverMetrics },
          o.target.model,
          o.telemetryUrls,
          o.metricsEndpoints,
        );
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

  /** A UI callback that throws must not stop a run or lose its data (callback-guard.ts). */
  private safe<A extends unknown[]>(fn: ((...a: A) => void) | undefined): ((...a: A) => void) | undefined {
    return guardCallback(fn, this.callbackErrors);
  }

  /** An item and its request: main ones are built ahead of their arrival (lookahead.ts). */
  private prepare(seq: number, stream: 'main' | 'warmup' | 'test'): { item: PromptItem; spec: RequestSpec } {
    const item = this.o.prompts.at(seq, stream);
    return {
      item,
      spec: buildSpec(
        this.w,
        this.o.target,
        item,
        this.o.prompts.force,
        stream === 'test' ? undefined : `${stream}:${seq}`,
      ),
    };
  }

  async run(): Promise<RunResult> {
    if (this.w.resetPrefixCache)
      this.header.prefixCacheReset = await resetPrefixCache(this.o.target, this.signal);
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
    this.header.testRequest = testRequestSummary(t, item.inputTokens, spec);
    const warm = t.rec.usage?.cachedTokens ?? 0;
    if (warm > 0) this.header.warmCacheTokens = warm;
  }

  /** Warm-up: like vLLM, at max concurrency with no rate, before the clock starts. */
  private async warmup(): Promise<void> {
    this.emit();
    const ws = new Slots(this.C);
    this.signal.addEventListener('abort', () => ws.cancelAll(), { once: true });
    const tw = now();
    // A shard's warm-up requests are numbered k·N + I: distinct across shards, so they merge.
    const seqs = Array.from({ length: this.w.warmup }, (_, k) => warmupIndex(this.o.shard, k));
    const prepared = seqs.map((seq) => this.prepare(seq, 'warmup'));
    await Promise.all(
      prepared.map((p, k) =>
        this.fire({
          seq: seqs[k]!,
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
    const tasks: Promise<unknown>[] = [];
    // Duration run at rate "inf": a closed loop — the next request arrives when a slot frees.
    const closedLoop = total === null && rateOf(w) === Infinity;
    const spec = arrivalSpecOf(w);
    // Computed before the clock starts; a trace replay's are the trace's.
    const times =
      this.o.prompts.schedule?.subarray(0, total ?? undefined) ??
      (total !== null ? arrivalTimes(spec, total) : null);
    const stream = times ? null : arrivalStream(spec);
    if (times && times.length > 0) this.lastArrivalMs = times[times.length - 1]!;
    if (this.watch) {
      // The baseline: bounded, so a server whose /metrics hangs delays the start by 2 s at most.
      await this.watch.scrapeNow();
      this.watch.start();
    }
    // Prompts built ahead of their send time; a conversation builds each turn's from the answers.
    const ahead =
      w.sessions || w.tools?.agentic
        ? null
        : new Lookahead((i) => this.prepare(i, 'main'), ownedFrom(this.o.shard, total));
    ahead?.fillUntil(prefillDeadline(this.o.startAtLocalMs, now()), now);
    // Requests handed over ahead: the clock's zero is set that far ahead, so the first are too.
    const t0 = (this.t0 = await this.clockZero(ahead && !closedLoop ? HANDOFF_LEAD_MS : 0));
    this.monitor = new SelfCheckMonitor(this.engine);
    this.header.clockZeroWall = performance.timeOrigin + t0;
    await this.writer?.start(this.header);
    this.emit();
    const clock = new ArrivalClock();
    let lastHanded = 0;
    for (let i = 0; !signal.aborted && (total === null || i < total); i++) {
      // Every request of the global schedule is planned (the stream advances), a shard sends its own.
      const planned = closedLoop ? 0 : times ? times[i]! : stream!.next().value;
      if (!closedLoop && durationMs !== null && planned >= durationMs) break;
      if (!ownsRequest(this.o.shard, i)) continue;
      const prepared = ahead ? ahead.take(i) : null;
      let at = planned;
      const handedOver = prepared !== null && !closedLoop; // sent on time by the I/O thread (lookahead.ts)
      if (closedLoop) {
        if (!(await slots.acquire())) break;
        at = now() - t0;
      } else {
        const handoff = handedOver ? t0 + handoffAt(at) : t0 + at;
        ahead?.fillUntil(handoff - 2, now); // the idle time before it: the next prompts
        await clock.until(handoff, signal);
        if (signal.aborted) break;
      }
      // Handed over late (this thread fell behind by more than the margin): it arrives now.
      const arrivedMs = handedOver ? Math.max(at, now() - t0) : now() - t0;
      if (durationMs !== null && arrivedMs >= durationMs) {
        if (closedLoop) slots.release();
        break;
      }
      // Lag counts when it delayed a send: an arrival with every slot taken waits for one anyway.
      const free = closedLoop || slots.inUse < this.C;
      if (free && !handedOver) this.monitor.recordLag(arrivedMs - at); // else when it starts (fire)
      this.tally.arrived(t0 + arrivedMs);
      if (handedOver) lastHanded = t0 + arrivedMs;
      if (!prepared) {
        const deps = {
          ...this.o,
          durationMs,
          signal,
          t0,
          arrived: () => this.tally.arrived(),
          fire: (d: Dispatch) => this.fire(d),
        };
        const session = w.tools?.agentic ? agenticTask : conversationTask;
        const one = session(i, { at, arrivedMs, slots, haveSlot: closedLoop }, deps);
        tasks.push(one.finally(() => this.tally.sessionEnded()));
        continue;
      }
      // Only that it ended is kept: a finished request's record (every event, its text) must not
      // live on in this list until the run's end (4,000 × 256 events held ~100 MB).
      tasks.push(
        this.fire({
          seq: i,
          warmup: false,
          scheduledMs: at,
          arrivedMs,
          slots,
          haveSlot: closedLoop,
          origin: t0,
          ...(handedOver ? { startAt: t0 + arrivedMs, countLag: free } : {}),
          ...prepared,
        }).then(() => undefined),
      );
    }
    await sleepUntil(lastHanded, signal); // running until the last arrival handed over is due
    if (!signal.aborted) this.phase = 'draining';
    await Promise.all(tasks);
    return (now() - t0) / 1000;
  }

  /** The run clock's zero (slots.ts `waitForStart`); a missed --start-at discards the file. */
  private async clockZero(leadMs: number): Promise<number> {
    const z = await waitForStart(this.o.startAtLocalMs, this.signal, leadMs);
    if (typeof z === 'number') return z;
    this.discarded = true;
    await this.writer?.discard().catch(() => undefined);
    throw z;
  }

  /** Sends one request when it gets a slot, and queues its bookkeeping when it ends; its record (null: never sent). */
  private async fire(d: Dispatch): Promise<RequestRecord | null> {
    if (!d.haveSlot && !(await d.slots.acquire())) return null; // cancelled while queued: never sent
    if (this.signal.aborted) {
      d.slots.release(); // got a slot just as the run was cancelled: do not send it
      return null;
    }
    const id = dispatchId(d);
    let startedMs = now() - d.origin;
    let started = false;
    const onStarted = (t: number): void => {
      started = true;
      startedMs = t - d.origin;
      this.tally.sent(d.warmup);
      if (d.countLag && d.scheduledMs !== null) this.monitor?.recordLag(startedMs - d.scheduledMs);
      this.onStart?.(startEvent(d, id, startedMs));
    };
    if (d.startAt === undefined) onStarted(now()); // else when the I/O thread starts it
    const onEvents = this.onEvents;
    const rec = await fireRequest(d.spec, {
      signal: this.signal,
      keepRaw: false,
      pool: this.pool,
      id,
      onProgress: onEvents ? (r, from) => onEvents(id, r, from) : undefined,
      onTrace: this.expectTrace,
      ...(d.startAt !== undefined ? { startAt: d.startAt, onStart: onStarted } : {}),
    });
    if (!started) {
      // Cancelled while it waited for its send: never sent, as one cancelled in the slot queue.
      if (rec.error?.code === 'cancelled' && rec.startMono === undefined) {
        d.slots.release();
        return null;
      }
      onStarted(now()); // failed before it could start (a request that cannot be built): it counts
    }
    this.tally.ended(rec);
    this.finishQueue.push(() => this.record(d, rec, startedMs));
    // Back-pressure: the slot goes back once the finished requests waiting to be written are few
    // enough (finish-queue.ts FINISH_BACKLOG), so a thread short of CPU does not hold thousands.
    const room = this.finishQueue.room();
    if (room) await room;
    d.slots.release();
    return rec;
  }

  /** A finished request's line, statistics and counters (in the finish queue's slices). */
  private record(d: Dispatch, rec: RequestRecord, startedMs: number): void {
    const { line, stats } = dispatchLine(d, rec, startedMs, this.w.saveText, !!this.w.models);
    this.writer?.append(line);
    // A line whose output the server's tokenizer counts after the run waits for that count.
    this.sink.add(line, this.texts.keep(line, rec), stats);
    this.tally.counted(line, stats, d.warmup);
    this.onDone?.(line, rec);
  }

  /** The server's spans joined to the lines (run --otlp-listen): the file's `spans` line. */
  private async joinSpans(cancelled: boolean): Promise<RunSpansLine | null> {
    if (!this.o.spans || cancelled) return null;
    const lines = this.sink.heldLines; // with spans, every line is held to the end
    const s = await collectSpans(this.o.spans, lines, this.o.target.url, {
      waitMs: this.o.spanWaitMs,
      signal: this.o.signal,
    });
    applySpans(lines, s);
    this.writer?.appendTokenized(s);
    return s;
  }

  /** The summary, the server side, the file's last line. */
  private async finish(durationS: number): Promise<RunResult> {
    await this.finishQueue.idle();
    const fqError = this.finishQueue.error;
    if (fqError && this.callbackErrors.length < 5) this.callbackErrors.push(fqError.message);
    const cancelled = this.signal.aborted;
    this.phase = cancelled ? 'cancelled' : 'done';
    const selfCheck = await this.monitor!.stop({ ...this.tally.conns }, this.sink.stalls, this.t0);
    this.monitor = null;
    // The CLI's last run: the I/O threads end before the summary's pools and lists add to theirs.
    if (this.o.releaseIo) await this.engine.close();
    this.lastSelf = { eventLoopDelayP99Ms: selfCheck.eventLoopDelayP99Ms, cpuPct: selfCheck.cpuMeanPct };
    const tokenized = cancelled ? null : await this.texts.count(this.o.target, this.o.signal);
    if (tokenized) this.writer?.appendTokenized(tokenized);
    const spans = await this.joinSpans(cancelled);
    const summary = this.sink.summary({ durationS, cancelled, selfCheck, sharedClock: spans?.sharedClock });
    if (this.watch) summary.server = await this.watch.finish(this.t0, summary.vllm.total_output_tokens);
    const rederived = this.sink.rederived(summary);
    let fileError: string | null = null;
    try {
      await this.writer?.finish(summary);
    } catch (e) {
      fileError = errorMessage(e);
    }
    this.emit();
    return {
      header: this.header,
      lines: this.sink.kept,
      summary,
      rederived,
      path: this.writer?.path ?? null,
      cancelled,
      fileError,
      callbackErrors: this.callbackErrors,
    };
  }

  private progress(): RunProgress {
    return this.tally.progress({
      runId: this.runId,
      phase: this.phase,
      t0: this.t0,
      total: shareOf(this.o.shard, this.total), // a run by sessions: sessions (run-tally.ts)
      durationMs: this.durationMs,
      lastArrivalMs: this.lastArrivalMs,
      warmupTotal: this.w.warmup,
      selfCheck: this.monitor?.live() ?? this.lastSelf,
    });
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
    this.tally.destroy();
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
