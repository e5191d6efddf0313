/**
 * The client checks itself: a load generator that is starved of CPU or whose event loop stalls
 * stamps events late and releases arrivals late, and the numbers it reports are then about the
 * client, not the server. Measured during the run and written into the summary and the run file.
 *
 * - Event-loop delay: perf_hooks.monitorEventLoopDelay samples every RESOLUTION_MS; a sample is
 *   the time the timer took, so the delay is sample − RESOLUTION_MS. Every socket read waits in
 *   that same loop, so its p99 bounds how late a typical timestamp can be.
 * - CPU: process.cpuUsage() (user + system, all threads) over wall time, % of one core; the main
 *   thread cannot use more than one core, so near 100 % it is the bottleneck.
 *
 * - The stream-I/O thread(s) (engine/io/): every read is stamped there, so its loop delay, stalls
 *   over 5 ms, GC pauses and busy share are what bound a timestamp's lateness. This thread's figures
 *   (above) then only bound how late arrivals are released (the schedule lag).
 * - Connections: opened, reused, retried after the server had closed a reused one.
 *
 * Flag thresholds (a run over any is marked "timing may be distorted"), on the loop that
 * stamps reads (the I/O thread; this thread with `--io-threads 0`):
 *   event-loop delay p99 > 5 ms — timestamps can be off by more than the ms-level precision we promise;
 *   busy > 85 % — the loop has almost no idle time left to service sockets promptly;
 *   any content event stamped in or up to 5 ms after a stall of that loop over 5 ms
 *     (shared/runs/summary/stall-touches.ts) — a p99 hides a 66-ms stall among 131k reads, the events it
 *     made late are counted and their requests named;
 * and on this thread: schedule lag p99 > 50 ms — requests left that much later than planned (only
 *   arrivals that found a free concurrency slot count: the others would have waited anyway).
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { percentileSorted, sortedCopy } from '../../shared/stats/summary.ts';
import type { ConnectionStats, IoSelfCheck, SelfCheck } from '../../shared/runs/summary/self-check-schema.ts';
import {
  STALL_BOUND_MS,
  stallReason,
  stallTouches,
  type StallItem,
} from '../../shared/runs/summary/stall-touches.ts';
import type { IoEngine } from '../engine/io/io-engine.ts';
import type { IoLoopStats } from '../engine/io/protocol.ts';

export const SELF_CHECK_THRESHOLDS = {
  eventLoopDelayP99Ms: 5,
  cpuMeanPct: 85,
  scheduleLagP99Ms: 50,
} as const;
const RESOLUTION_MS = 5;
/** The live CPU figure needs at least this much wall time behind it. @internal exported for its tests */
export const LIVE_CPU_MIN_MS = 1000;

export class SelfCheckMonitor {
  private eld: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private t0 = performance.now();
  private cpu0 = process.cpuUsage();
  private lastT = this.t0;
  private lastCpu = this.cpu0;
  private cpuMax = 0;
  private timer: NodeJS.Timeout;
  private lags: number[] = [];

  constructor(private readonly io: IoEngine | null = null) {
    io?.resetStats();
    this.eld.enable();
    this.timer = setInterval(() => this.sampleCpu(), 1000);
    this.timer.unref();
  }

  private sampleCpu(): number {
    const t = performance.now();
    const c = process.cpuUsage(this.lastCpu);
    const pct = t > this.lastT ? ((c.user + c.system) / 1000 / (t - this.lastT)) * 100 : 0;
    this.lastT = t;
    this.lastCpu = process.cpuUsage();
    if (pct > this.cpuMax) this.cpuMax = pct;
    return pct;
  }

  /** How late an arrival was released against its schedule (ms). */
  recordLag(ms: number): void {
    this.lags.push(Math.max(0, ms));
  }

  private eldMs(p: number): number {
    if (this.eld.count === 0) return 0;
    return Math.max(0, this.eld.percentile(p) / 1e6 - RESOLUTION_MS);
  }

  /**
   * Cheap live view for progress events. CPU is the mean since the run began, and null for the
   * first second: over a few ms, starting the run itself (prompts, connections) reads as 90 % and
   * would raise a false "client overloaded" at every start.
   */
  live(): { eventLoopDelayP99Ms: number; cpuPct: number | null; loop: 'io' | 'main' } {
    const t = performance.now();
    const c = process.cpuUsage(this.cpu0);
    const io = this.io && this.io.mode.threads > 0 ? this.io.statsNow().io : null;
    if (io) {
      // The loop that stamps reads is the I/O thread's: its figures are the ones that matter live.
      return {
        eventLoopDelayP99Ms: io.loopDelayP99Ms,
        cpuPct: t - this.t0 >= LIVE_CPU_MIN_MS ? io.cpuPct : null,
        loop: 'io',
      };
    }
    return {
      eventLoopDelayP99Ms: this.eldMs(99),
      cpuPct: t - this.t0 >= LIVE_CPU_MIN_MS ? ((c.user + c.system) / 1000 / (t - this.t0)) * 100 : null,
      loop: 'main',
    };
  }

  /** Stops measuring without a result (the run threw). */
  dispose(): void {
    clearInterval(this.timer);
    this.eld.disable();
  }

  /**
   * The run's figures. `items` (the run's requests: a StallLog, or `stallItemsOf` its lines) and
   * `t0` (the run clock's zero on this thread's clock): the events the stamping loop's stalls
   * touched are counted in them.
   */
  async stop(connections?: ConnectionStats, items: Iterable<StallItem> = [], t0 = 0): Promise<SelfCheck> {
    const all = this.io ? (await this.io.stats()).io : null;
    const threads = this.io?.mode.threads ?? 0;
    const ioStats = threads > 0 ? all : null;
    const sc = this.result(ioStats ? ioSelfCheck(threads, ioStats) : null, connections);
    // The stamping loop's stalls (the I/O threads', or this thread's inline driver's), on the run clock.
    const touches = stallTouches(all?.stallWindows.map((x) => x - t0) ?? [], items);
    // Every stall counts; the events are those of the windows kept (the first MAX_STALL_WINDOWS a thread).
    if (all) touches.stalls = Math.max(touches.stalls, all.stalls);
    const why = stallReason(touches);
    if (why) sc.reasons.push(why);
    sc.flagged = sc.reasons.length > 0;
    return { ...sc, stallTouches: touches };
  }

  /** The figures of this thread only (no I/O thread asked): tests and inline runs. */
  result(io: IoSelfCheck | null, connections?: ConnectionStats): SelfCheck {
    clearInterval(this.timer);
    const t = performance.now();
    const c = process.cpuUsage(this.cpu0);
    const cpuMean = t > this.t0 ? ((c.user + c.system) / 1000 / (t - this.t0)) * 100 : 0;
    // The last partial window counts only if it is long enough to mean something.
    if (t - this.lastT > 200) this.sampleCpu();
    const cpuMax = this.cpuMax > 0 ? this.cpuMax : cpuMean; // runs under 1 s have no full window
    const p99 = this.eldMs(99);
    const max = this.eld.count === 0 ? 0 : Math.max(0, this.eld.max / 1e6 - RESOLUTION_MS);
    this.eld.disable();
    const lag = this.lags.length ? percentileSorted(sortedCopy(this.lags), 99) : 0;
    const th = SELF_CHECK_THRESHOLDS;
    const reasons: string[] = [];
    if (io) {
      if (io.loopDelayP99Ms > th.eventLoopDelayP99Ms)
        reasons.push(
          `I/O thread loop delay p99 ${io.loopDelayP99Ms.toFixed(1)} ms > ${th.eventLoopDelayP99Ms} ms`,
        );
      if (io.cpuPct !== null && io.cpuPct > th.cpuMeanPct)
        reasons.push(`I/O thread busy ${io.cpuPct.toFixed(0)} % > ${th.cpuMeanPct} %`);
      // A hold is a stall for one request: past the stall bound, its next reads' stamps are late.
      if (io.heldMaxMs > STALL_BOUND_MS) reasons.push(holdReason(io));
    } else {
      if (p99 > th.eventLoopDelayP99Ms)
        reasons.push(`event-loop delay p99 ${p99.toFixed(1)} ms > ${th.eventLoopDelayP99Ms} ms`);
      if (cpuMean > th.cpuMeanPct) reasons.push(`client CPU ${cpuMean.toFixed(0)} % > ${th.cpuMeanPct} %`);
    }
    if (lag > th.scheduleLagP99Ms)
      reasons.push(`schedule lag p99 ${lag.toFixed(1)} ms > ${th.scheduleLagP99Ms} ms`);
    return {
      eventLoopDelayP99Ms: p99,
      eventLoopDelayMaxMs: max,
      cpuMeanPct: cpuMean,
      cpuMaxPct: cpuMax,
      scheduleLagP99Ms: lag,
      flagged: reasons.length > 0,
      reasons,
      thresholds: { ...th },
      io,
      ...(connections ? { connections } : {}),
    };
  }
}

/** Why a run whose requests were held back (backlog.ts) is flagged. */
function holdReason(io: IoSelfCheck): string {
  return `streams held back ${io.holds} times (${io.heldMs.toFixed(0)} ms in all, the longest ${io.heldMaxMs.toFixed(1)} ms > ${STALL_BOUND_MS} ms): the measuring thread fell behind, so the reads after a hold are stamped late`;
}

function ioSelfCheck(threads: number, s: IoLoopStats): IoSelfCheck {
  const { spanMs: _span, batches: _batches, stallWindows: _windows, ...figures } = s;
  return { threads, ...figures };
}
