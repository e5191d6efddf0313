/**
 * How one thread's event loop fares while it stamps reads: what can make a timestamp late.
 * - Loop delay: a 5-ms probe timer; its lateness is how long a read that became readable at that
 *   moment waited for its callback. Kept in a fixed 0.1-ms-bucket histogram (no allocation per
 *   probe) for p99 and max, and counted as a stall when over 5 ms. A stall's window — from the
 *   probe before it (the loop was on time then) to the late probe — is kept (at most
 *   MAX_STALL_WINDOWS), so the run can name the events stamped in or just after it (self-check).
 * - GC pauses: PerformanceObserver 'gc' entries of this thread.
 * - Busy share: event-loop utilization (time not idle in the poller), the thread's own CPU.
 * - Holds: a request's connection not read while the measuring side was behind (backlog.ts), the
 *   drivers count them in `holds`.
 */
import { PerformanceObserver, performance as perf } from 'node:perf_hooks';
import type { IoLoopStats } from './protocol.ts';
import { holdTally, type HoldTally } from './backlog.ts';

const PROBE_MS = 5;
const STALL_MS = 5;
const BUCKET_MS = 0.1;
const BUCKETS = 2000; // 0–200 ms; beyond counts in the last bucket (max is kept exactly)
/** Stall windows kept per thread; past it the count and time still add up, the windows do not. */
const MAX_STALL_WINDOWS = 8192;

export class LoopMonitor {
  private hist = new Uint32Array(BUCKETS);
  private count = 0;
  private max = 0;
  private stalls = 0;
  private stallMs = 0;
  private gcCount = 0;
  private gcMs = 0;
  private gcMax = 0;
  /** [from, to] pairs on this thread's clock, one per stall. */
  private windows: number[] = [];
  private since = performance.now();
  private elu = perf.eventLoopUtilization();
  private last = performance.now();
  private timer: NodeJS.Timeout;
  private obs: PerformanceObserver | null = null;
  reads = 0;
  batches = 0;
  readonly holds: HoldTally = holdTally();

  constructor() {
    this.timer = setInterval(() => this.probe(), PROBE_MS);
    this.timer.unref();
    try {
      this.obs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          this.gcCount++;
          this.gcMs += e.duration;
          if (e.duration > this.gcMax) this.gcMax = e.duration;
        }
      });
      this.obs.observe({ entryTypes: ['gc'] });
    } catch {
      this.obs = null; // no gc entries here: reported as 0
    }
  }

  private probe(): void {
    const t = performance.now();
    const late = Math.max(0, t - this.last - PROBE_MS);
    const from = this.last;
    this.last = t;
    this.count++;
    if (late > this.max) this.max = late;
    this.hist[Math.min(BUCKETS - 1, Math.floor(late / BUCKET_MS))]!++;
    if (late > STALL_MS) {
      this.stalls++;
      this.stallMs += late;
      if (this.windows.length < MAX_STALL_WINDOWS * 2) this.windows.push(from, t);
    }
  }

  reset(): void {
    this.hist.fill(0);
    this.count = 0;
    this.max = 0;
    this.stalls = 0;
    this.stallMs = 0;
    this.gcCount = 0;
    this.gcMs = 0;
    this.gcMax = 0;
    this.windows = [];
    this.reads = 0;
    this.batches = 0;
    Object.assign(this.holds, holdTally()); // the drivers keep this object: zeroed in place
    this.since = performance.now();
    this.elu = perf.eventLoopUtilization();
  }

  private quantile(q: number): number {
    if (this.count === 0) return 0;
    const rank = Math.ceil(q * this.count);
    let acc = 0;
    for (let i = 0; i < BUCKETS; i++) {
      acc += this.hist[i]!;
      if (acc >= rank) return Math.min(this.max, (i + 1) * BUCKET_MS);
    }
    return this.max;
  }

  /** `windows`: with the stall windows since the reset (asked for at a run's end, not pushed). */
  stats(windows = false): IoLoopStats {
    const elu = perf.eventLoopUtilization(this.elu);
    return {
      spanMs: performance.now() - this.since,
      loopDelayP99Ms: this.quantile(0.99),
      loopDelayMaxMs: this.max,
      stalls: this.stalls,
      stallMs: this.stallMs,
      gcCount: this.gcCount,
      gcPauseMs: this.gcMs,
      gcMaxMs: this.gcMax,
      cpuPct: Number.isFinite(elu.utilization) ? elu.utilization * 100 : null,
      reads: this.reads,
      holds: this.holds.holds,
      heldMs: this.holds.heldMs,
      heldMaxMs: this.holds.heldMaxMs,
      batches: this.batches,
      stallWindows: windows ? this.windows.slice() : [],
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.obs?.disconnect();
  }
}
