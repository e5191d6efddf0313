/**
 * A run's books: its counters (arrived, started, in flight, done, warm-up, output tokens), the
 * connections its requests used, its live statistics, and the progress report they add up to.
 * The runner (runner.ts) schedules and sends; this keeps count.
 */
import type { RequestRecord } from '../../shared/record.ts';
import { LiveStats } from '../../shared/runs/live/live-stats.ts';
import { isCancelledLine, outcomeOfLine } from '../../shared/runs/summary/outcome.ts';
import type { RunPhase, RunProgress } from '../../shared/runs/live/progress-types.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import type { Workload } from '../../shared/runs/workload/workload.ts';
import type { RequestStats } from '../../shared/stats/request-stats.ts';
import { now } from '../engine/clock.ts';

/** Where the run stands, besides what the tally counted: what its progress report needs. */
export interface RunStanding {
  runId: string;
  phase: RunPhase;
  /** The run clock's zero (the measured part's start). */
  t0: number;
  total: number | null;
  durationMs: number | null;
  lastArrivalMs: number;
  warmupTotal: number;
  selfCheck: RunProgress['selfCheck'];
}

export class RunTally {
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
  /** Embeddings/rerank runs: inputs and input tokens of the successful requests (absent for streams). */
  private batch: { inputs: number; inputTokens: number } | undefined;
  /** How the requests' connections went (the self-check reports it). */
  readonly conns: { mode: Workload['connection']; opened: number; reused: number; retried: number };
  private readonly live = new LiveStats();

  /** Conversations or agentic sessions ended (a run by sessions). */
  private sessionsEnded = 0;

  /**
   * `bySessions`: the run's unit is a conversation or an agentic session, whose requests are not
   * known ahead (turns, or steps until the model stops calling tools): progress counts sessions.
   */
  constructor(
    mode: Workload['connection'],
    private readonly bySessions = false,
  ) {
    this.conns = { mode, opened: 0, reused: 0, retried: 0 };
  }

  sessionEnded(): void {
    this.sessionsEnded++;
  }

  /**
   * Arrivals handed to the I/O thread ahead of their time (runner.ts), as performance.now() instants
   * in order: each counts as arrived once its instant has come (the queue and the over-saturation
   * watch see arrivals when they happen, not a second early). `pendingAt` is the first not yet counted.
   */
  private pending: number[] = [];
  private pendingAt = 0;

  /** A measured request arrived (it may still wait for a slot), or will at `atAbs` (performance.now()). */
  arrived(atAbs?: number): void {
    if (atAbs === undefined || atAbs <= now()) this.c.arrived++;
    else this.pending.push(atAbs);
  }

  private settleArrivals(): void {
    const t = now();
    const p = this.pending;
    while (this.pendingAt < p.length && p[this.pendingAt]! <= t) {
      this.c.arrived++;
      this.pendingAt++;
    }
    if (this.pendingAt > 4096) {
      this.pending = p.slice(this.pendingAt);
      this.pendingAt = 0;
    }
  }

  /** A request got its slot and is being sent. */
  sent(warmup: boolean): void {
    const { c } = this;
    c.inFlight++;
    if (!warmup) c.started++;
    c.maxInFlight = Math.max(c.maxInFlight, c.inFlight);
  }

  /** A request's stream ended: one fewer in flight, and the connection it used. */
  ended(rec: RequestRecord): void {
    this.c.inFlight--;
    const cn = rec.connection;
    if (cn && rec.startMono !== undefined) {
      if (cn.reused && cn.retries === 0) this.conns.reused++;
      else this.conns.opened++;
      if (cn.retries > 0) this.conns.retried++;
    }
  }

  /** A finished request's line, counted (a measured one also in the live statistics). */
  counted(line: RunRequestLine, stats: RequestStats, warmup: boolean): void {
    const { c } = this;
    if (warmup) c.warmupDone++;
    else if (!isCancelledLine(line)) {
      if (line.status === 'ok') c.completed++;
      else c.failed++;
      c.outputTokens += line.status === 'ok' ? line.outputTokens : 0;
      if (line.batch) {
        this.batch ??= { inputs: 0, inputTokens: 0 };
        if (line.status === 'ok') {
          this.batch.inputs += line.batch.inputs;
          this.batch.inputTokens += line.inputTokens ?? 0;
        }
      }
      this.live.add(outcomeOfLine(line, stats));
    }
  }

  progress(s: RunStanding): RunProgress {
    this.settleArrivals();
    const { c } = this;
    const { phase, durationMs } = s;
    const elapsedMs = phase === 'warmup' || phase === 'test' ? 0 : Math.max(0, now() - s.t0);
    // By sessions: the bar and the ETA follow the sessions ended; the requests have no total.
    const sessions =
      this.bySessions && s.total !== null ? { done: this.sessionsEnded, total: s.total } : null;
    const total = this.bySessions ? null : s.total;
    const done = sessions ? sessions.done : c.completed + c.failed;
    const planned = sessions ? sessions.total : total;
    let fraction = 0;
    let etaMs: number | null = null;
    if (phase === 'done' || phase === 'cancelled') fraction = 1;
    else if (planned !== null) {
      fraction = done / planned;
      if (done > 0) etaMs = Math.max(((planned - done) * elapsedMs) / done, s.lastArrivalMs - elapsedMs);
      // A planned schedule (a trace replay) says how long the run takes before anything is done.
      else if (s.lastArrivalMs > 0 && phase === 'running') etaMs = Math.max(0, s.lastArrivalMs - elapsedMs);
    }
    if (durationMs !== null && phase === 'running') {
      const f = Math.min(1, elapsedMs / durationMs);
      if (f > fraction) {
        fraction = f;
        etaMs = Math.max(0, durationMs - elapsedMs);
      }
    }
    return {
      runId: s.runId,
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
      warmupTotal: s.warmupTotal,
      outputTokens: c.outputTokens,
      ...(this.batch ? { batch: { ...this.batch } } : {}),
      ...(sessions ? { sessions } : {}),
      fraction,
      etaMs,
      live: this.live.snapshot(),
      selfCheck: s.selfCheck,
    };
  }

  destroy(): void {
    this.live.destroy();
  }
}
