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
import { readFileSync } from 'node:fs';
import type { RequestRecord } from '../../shared/record.ts';
import { arrivalStream, arrivalTimes, type ArrivalSpec } from '../../shared/runs/arrivals.ts';
import { LiveStats } from '../../shared/runs/live-stats.ts';
import { isCancelledLine, outcomeOfLine } from '../../shared/runs/outcome.ts';
import { ms3, recordToLineWithStats } from '../../shared/runs/record-line.ts';
import {
  RUN_FILE_FORMAT,
  RUN_FILE_VERSION,
  type RunHeader,
  type RunRepeat,
  type RunPhase,
  type RunProgress,
  type RunRequestLine,
  type RunRequestStart,
  type RunSummary,
} from '../../shared/runs/run-types.ts';
import { summarizeRunLines } from '../../shared/runs/summarize-run.ts';
import { arrivalProcessOf, rateOf, type Workload } from '../../shared/runs/workload.ts';
import { fireRequest } from '../engine/client.ts';
import { now, wallNow } from '../engine/clock.ts';
import { io } from '../engine/io/io-engine.ts';
import type { PromptProvider } from './prompt-items.ts';
import { buildSpec, publicTarget, type RunTargetSpec } from './request-spec.ts';
import type { ScrapeTarget } from '../metrics/scraper.ts';
import { RunFileWriter } from './run-file.ts';
import { ServerWatch } from './server-watch.ts';
import { SelfCheckMonitor } from './self-check.ts';
import { sleepUntil, Slots } from './slots.ts';
import { FinishQueue } from './finish-queue.ts';
import { sendTestRequest, TestRequestError } from './test-request.ts';

export type { RunTargetSpec } from './request-spec.ts';
export { TestRequestError } from './test-request.ts';

export interface RunOptions {
  workload: Workload;
  target: RunTargetSpec;
  prompts: PromptProvider;
  /** Run file to create (must not exist); null/absent = no file. */
  outFile?: string | null;
  name?: string | null;
  runId?: string;
  /** One of N repeats of this workload (written into the header). */
  repeat?: RunRepeat;
  signal?: AbortSignal;
  tokenscopeVersion?: string;
  /** How often onProgress fires (default 250 ms), plus once at the end. */
  progressIntervalMs?: number;
  onProgress?: (p: RunProgress) => void;
  /** The header is written (the run file exists): called once, before any other callback. */
  onStarted?: (header: RunHeader) => void;
  onRequestStart?: (s: RunRequestStart) => void;
  /** Every socket read that completed events, straight from the engine (live swimlanes). */
  onRequestEvents?: (id: string, rec: RequestRecord, firstNewEvent: number) => void;
  onRequestDone?: (line: RunRequestLine, rec: RequestRecord) => void;
  /**
   * Watch the server's own metrics through the run (its /metrics, or a Prometheus): a baseline
   * scrape before the clock starts, one a second, a last one after; summed up in summary.server.
   */
  serverMetrics?: ScrapeTarget | null;
}

export interface RunResult {
  header: RunHeader;
  /** Every request line, warm-up included, in completion order. */
  lines: RunRequestLine[];
  summary: RunSummary;
  path: string | null;
  cancelled: boolean;
  /** The run file could not be written completely (the run itself went on). */
  fileError: string | null;
  /** A callback (onProgress, onRequest…) threw; the run went on. The first few messages. */
  callbackErrors: string[];
}

export function tokenscopeVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'unknown'; // bundled builds pass their version explicitly
  }
}

export function arrivalSpecOf(w: Workload): ArrivalSpec {
  return {
    rate: rateOf(w),
    process: arrivalProcessOf(w),
    burstiness: w.burstiness,
    rampUp: w.rampUp ?? null,
    seed: w.seed,
    normalize: w.normalizeSchedule,
  };
}

export async function runWorkload(o: RunOptions): Promise<RunResult> {
  const w = o.workload;
  const runId = o.runId ?? randomUUID();
  const { target: _omit, ...workloadNoTarget } = w;
  const wall = wallNow();
  const header: RunHeader = {
    type: 'header',
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    runId,
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
  // The file is created now (a name taken or a folder not writable fails the run before it starts);
  // its header is written when the run clock starts, with that instant as wall time.
  const writer = o.outFile ? await RunFileWriter.open(o.outFile) : null;
  let watch: ServerWatch | null = null;
  if (o.serverMetrics) {
    try {
      watch = new ServerWatch({ timeoutMs: 2000, ...o.serverMetrics }, o.target.model);
    } catch {
      watch = null; // a metrics URL that can never work: the run goes on without server numbers
    }
  }
  const ac = new AbortController();
  const onOuterAbort = (): void => ac.abort();
  if (o.signal?.aborted) ac.abort();
  o.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = ac.signal;
  // Every request in flight (and every queued one) listens on this one signal while it lasts:
  // hundreds at a time is the point, not a leak (each removes its listener when it ends).
  setMaxListeners(0, signal);

  const C = w.maxConcurrency ?? Infinity;
  const engine = io();
  const pool = engine.createPool({ mode: w.connection, maxSockets: C });
  await engine.ready(); // the stream-I/O thread(s) started before anything is sent
  const conns = { mode: w.connection, opened: 0, reused: 0, retried: 0 };
  const live = new LiveStats();
  const callbackErrors: string[] = [];
  // A UI callback that throws must not stop a run or lose its data: keep the error, go on.
  const safe = <A extends unknown[]>(fn: ((...a: A) => void) | undefined) =>
    fn &&
    ((...a: A): void => {
      try {
        fn(...a);
      } catch (e) {
        if (callbackErrors.length < 5) callbackErrors.push((e as Error).message);
      }
    });
  const onStart = safe(o.onRequestStart);
  const onEvents = safe(o.onRequestEvents);
  const onDone = safe(o.onRequestDone);
  const onProgress = safe(o.onProgress);
  const lines: RunRequestLine[] = [];
  const finishQueue = new FinishQueue();
  const c = {
    arrived: 0,
    started: 0,
    completed: 0,
    failed: 0,
    inFlight: 0,
    maxInFlight: 0,
    warmupDone: 0,
    outputTokens: 0,
  };
  let phase: RunPhase = w.testRequest ? 'test' : w.warmup > 0 ? 'warmup' : 'running';
  let discarded = false;
  let t0 = now();
  let monitor: SelfCheckMonitor | null = null;
  let lastSelf = { eventLoopDelayP99Ms: 0, cpuPct: 0 };
  let lastArrivalMs = 0;
  const total = w.requests ?? null;
  const durationMs = w.durationS !== undefined ? w.durationS * 1000 : null;

  // Prompts are built before their arrival time, so building one never delays a dispatch or
  // shows up as queue time.
  const prepare = (seq: number, warmup: boolean) => {
    const item = o.prompts.at(seq, warmup ? 'warmup' : 'main');
    return { item, spec: buildSpec(w, o.target, item, o.prompts.force) };
  };
  type Prepared = ReturnType<typeof prepare>;

  const fire = async (
    seq: number,
    warmup: boolean,
    scheduledMs: number | null,
    arrivedMs: number,
    slots: Slots,
    haveSlot: boolean,
    origin: number,
    { item, spec }: Prepared,
  ): Promise<void> => {
    if (!haveSlot && !(await slots.acquire())) return; // cancelled while queued: never sent
    if (signal.aborted) {
      slots.release(); // got a slot just as the run was cancelled: do not send it
      return;
    }
    const startedMs = now() - origin;
    const id = `${warmup ? 'w' : 'r'}${String(seq).padStart(5, '0')}`;
    c.inFlight++;
    if (!warmup) c.started++;
    c.maxInFlight = Math.max(c.maxInFlight, c.inFlight);
    onStart?.({ id, seq, warmup, scheduledMs, arrivedMs, startedMs, queueMs: startedMs - arrivedMs });
    const rec = await fireRequest(spec, {
      signal,
      keepRaw: false,
      pool,
      id,
      onProgress: onEvents ? (r, from) => onEvents(id, r, from) : undefined,
    });
    c.inFlight--;
    slots.release();
    const cn = rec.connection;
    if (cn && rec.startMono !== undefined) {
      if (cn.reused && cn.retries === 0) conns.reused++;
      else conns.opened++;
      if (cn.retries > 0) conns.retried++;
    }
    finishQueue.push(() => {
      // Statistics computed once, with the line, and reused for the live numbers.
      const { line, stats } = recordToLineWithStats(rec, {
        seq,
        warmup,
        scheduledMs,
        arrivedMs,
        startedMs,
        inputTokensEstimate: item.inputTokens,
        expectedOutputTokens: spec.params?.maxTokens ?? null,
        saveText: w.saveText,
      });
      // The run clock of this line (warm-up lines: the warm-up's), so a line says when it was sent.
      if (rec.startMono !== undefined) line.sentMs = ms3(rec.startMono - origin);
      if (cn) {
        line.connection = {
          reused: cn.reused,
          retried: cn.retries > 0,
          ...(cn.retryReason ? { retryReason: cn.retryReason } : {}),
        };
      }
      lines.push(line);
      writer?.append(line);
      if (warmup) c.warmupDone++;
      else if (!isCancelledLine(line)) {
        if (line.status === 'ok') c.completed++;
        else c.failed++;
        c.outputTokens += line.status === 'ok' ? line.outputTokens : 0;
        live.add(outcomeOfLine(line, stats));
      }
      onDone?.(line, rec);
    });
  };

  const progress = (): RunProgress => {
    const elapsedMs = phase === 'warmup' || phase === 'test' ? 0 : now() - t0;
    const done = c.completed + c.failed;
    let fraction = 0;
    let etaMs: number | null = null;
    if (phase === 'done' || phase === 'cancelled') fraction = 1;
    else if (total !== null) {
      fraction = done / total;
      if (done > 0) etaMs = Math.max(((total - done) * elapsedMs) / done, lastArrivalMs - elapsedMs);
    }
    if (durationMs !== null && phase === 'running') {
      const f = Math.min(1, elapsedMs / durationMs);
      if (f > fraction) {
        fraction = f;
        etaMs = Math.max(0, durationMs - elapsedMs);
      }
    }
    return {
      runId,
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
      warmupTotal: w.warmup,
      outputTokens: c.outputTokens,
      fraction,
      etaMs,
      live: live.snapshot(),
      selfCheck: monitor?.live() ?? lastSelf,
    };
  };
  const emit = (): void => onProgress?.(progress());
  const ticker = setInterval(emit, o.progressIntervalMs ?? 250);
  ticker.unref();

  try {
    if (w.testRequest) {
      emit();
      const item = o.prompts.at(0, 'test');
      const spec = buildSpec(w, o.target, item, o.prompts.force);
      const t = await sendTestRequest(spec, { pool, signal });
      const err = t.rec.error;
      if (!t.cancelled && err) {
        discarded = true;
        await writer?.discard().catch(() => undefined);
        throw new TestRequestError(err, t.attempts);
      }
      if (!t.cancelled) {
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
        header.testRequest = {
          attempts: t.attempts,
          ttftMs: line.ttftMs,
          e2eMs: line.e2eMs,
          outputTokens: line.outputTokens,
        };
      }
    }
    safe(o.onStarted)?.(header);
    if (w.warmup > 0 && !signal.aborted) phase = 'warmup';
    // Warm-up: like vLLM, at max concurrency with no rate, before the clock starts.
    if (w.warmup > 0) {
      emit();
      const ws = new Slots(C);
      signal.addEventListener('abort', () => ws.cancelAll(), { once: true });
      const tw = now();
      const prepared = Array.from({ length: w.warmup }, (_, k) => prepare(k, true));
      await Promise.all(prepared.map((p, k) => fire(k, true, null, 0, ws, false, tw, p)));
    }
    phase = signal.aborted ? 'cancelled' : 'running';
    const slots = new Slots(C);
    signal.addEventListener('abort', () => slots.cancelAll(), { once: true });
    const tasks: Promise<void>[] = [];
    // Duration run at rate "inf": a closed loop — the next request arrives when a slot frees.
    const closedLoop = total === null && rateOf(w) === Infinity;
    const spec = arrivalSpecOf(w);
    const times = total !== null ? arrivalTimes(spec, total) : null; // computed before the clock starts
    const stream = times ? null : arrivalStream(spec);
    if (times && times.length > 0) lastArrivalMs = times[times.length - 1]!;
    if (watch) {
      // The baseline: bounded, so a server whose /metrics hangs delays the start by 2 s at most.
      await watch.scrapeNow();
      watch.start();
    }
    monitor = new SelfCheckMonitor(engine);
    t0 = now();
    header.clockZeroWall = performance.timeOrigin + t0;
    await writer?.start(header);
    emit();
    for (let i = 0; !signal.aborted && (total === null || i < total); i++) {
      const prepared = prepare(i, false);
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
      monitor.recordLag(arrivedMs - at);
      c.arrived++;
      tasks.push(fire(i, false, at, arrivedMs, slots, closedLoop, t0, prepared));
    }
    if (!signal.aborted) phase = 'draining';
    await Promise.all(tasks);
    const durationS = (now() - t0) / 1000;
    await finishQueue.idle();
    if (finishQueue.error && callbackErrors.length < 5) callbackErrors.push(finishQueue.error.message);
    const cancelled = signal.aborted;
    phase = cancelled ? 'cancelled' : 'done';
    const selfCheck = await monitor.stop({ ...conns });
    monitor = null;
    lastSelf = { eventLoopDelayP99Ms: selfCheck.eventLoopDelayP99Ms, cpuPct: selfCheck.cpuMeanPct };
    const summary = summarizeRunLines(header, lines, { durationS, cancelled, selfCheck });
    if (watch) summary.server = await watch.finish(t0);
    let fileError: string | null = null;
    try {
      await writer?.finish(summary);
    } catch (e) {
      fileError = (e as Error).message;
    }
    emit();
    return { header, lines, summary, path: writer?.path ?? null, cancelled, fileError, callbackErrors };
  } finally {
    clearInterval(ticker);
    monitor?.dispose();
    o.signal?.removeEventListener('abort', onOuterAbort);
    engine.closePool(pool);
    // Cancelled before the run clock started (in warm-up): the header still goes first.
    if (writer && !writer.started && !discarded) await writer.start(header).catch(() => undefined);
    live.destroy();
    watch?.stop();
    await writer?.close().catch(() => undefined); // no-op after finish(); closes on a thrown error
  }
}
