/**
 * The run's check on its own measuring: event-loop delay, CPU, schedule lag, the stream-I/O
 * thread and connections (the `selfCheck` part of a run's summary, shared/runs/file/types.ts RunSummary).
 */

export interface SelfCheck {
  /** Event-loop delay beyond the sampling interval, ms (perf_hooks.monitorEventLoopDelay). */
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
  /** Process CPU (user + system) over wall time, % of one core: mean over the run and worst 1-s window. */
  cpuMeanPct: number;
  cpuMaxPct: number;
  /** How late arrivals were released against their schedule, ms. */
  scheduleLagP99Ms: number;
  flagged: boolean;
  reasons: string[];
  thresholds: {
    eventLoopDelayP99Ms: number;
    cpuMeanPct: number;
    /** Schedule lag p99 over this flags the run (absent in older files). */
    scheduleLagP99Ms?: number;
  };
  /**
   * The stream-I/O thread(s) that stamped every read (absent in older files; null when the run
   * stamped inline, `--io-threads 0`, where the figures above are the stamping loop's).
   */
  io?: IoSelfCheck | null;
  /** Connections: opened, reused from the pool, retried after the server had closed a reused one. */
  connections?: ConnectionStats;
  /**
   * Events stamped in or just after a stall of the loop that stamps reads (shared/runs/stall-touches.ts);
   * any flags the run. Absent in older files.
   */
  stallTouches?: StallTouches;
}

/** What the stamping loop's stalls touched (shared/runs/stall-touches.ts). */
export interface StallTouches {
  /** Stalls longer than this count (ms), and events stamped up to this long after one. */
  boundMs: number;
  /** Stalls of the stamping loop(s) over the bound. */
  stalls: number;
  /** Content events stamped from a stall's start to boundMs after its end. */
  events: number;
  /** Requests with such an event; of them, those whose TTFT (first content event) was one. */
  requests: number;
  ttft: number;
  /** ITL gaps that begin or end with such an event. */
  gaps: number;
  /** The touched requests' ids, in finishing order (at most 50). */
  ids: string[];
}

export interface IoSelfCheck {
  threads: number;
  /** Event-loop delay of the I/O thread (the worst thread): how late a read could be stamped. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Loop stalls over 5 ms and the time lost in them. */
  stalls: number;
  stallMs: number;
  /** Garbage-collection pauses on the I/O thread. */
  gcCount: number;
  gcPauseMs: number;
  gcMaxMs: number;
  /** Busy share of the I/O thread's loop, % (event-loop utilization). */
  cpuPct: number | null;
  reads: number;
}

export interface ConnectionStats {
  mode: 'keep-alive' | 'close';
  /** Requests sent on a new connection (retries included). */
  opened: number;
  /** Requests sent on a pooled connection an earlier request had used. */
  reused: number;
  /** Requests whose reused connection failed before any response byte and were sent again. */
  retried: number;
}
