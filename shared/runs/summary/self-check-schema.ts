/**
 * The run's check on its own measuring: event-loop delay, CPU, schedule lag, the stream-I/O
 * thread and connections (the `selfCheck` part of a run's summary, schema.ts). The schemas are the
 * types.
 */
import { z } from 'zod';

const num = z.number();
const count = z.number().int().min(0);

const IoSelfCheckSchema = z.object({
  threads: count,
  /** Event-loop delay of the I/O thread (the worst thread): how late a read could be stamped. */
  loopDelayP99Ms: num,
  loopDelayMaxMs: num,
  /** Loop stalls over 5 ms and the time lost in them. */
  stalls: count,
  stallMs: num,
  /** Garbage-collection pauses on the I/O thread. */
  gcCount: count,
  gcPauseMs: num,
  gcMaxMs: num,
  /** Busy share of the I/O thread's loop, % (event-loop utilization). */
  cpuPct: z.number().nullable(),
  reads: count,
  /**
   * Times a request's connection was not read because the measuring side was behind (its share
   * of the thread's backlog full), their time summed and the longest: a held request's next reads
   * are stamped up to that late. Runs recorded before these were counted read 0.
   */
  holds: count.default(0),
  heldMs: num.default(0),
  heldMaxMs: num.default(0),
});
export type IoSelfCheck = z.output<typeof IoSelfCheckSchema>;

const ConnectionStatsSchema = z.object({
  mode: z.enum(['keep-alive', 'close']),
  /** Requests sent on a new connection (retries included). */
  opened: count,
  /** Requests sent on a pooled connection an earlier request had used. */
  reused: count,
  /** Requests whose reused connection failed before any response byte and were sent again. */
  retried: count,
});
export type ConnectionStats = z.output<typeof ConnectionStatsSchema>;

/** What the stamping loop's stalls touched (stall-touches.ts). */
const StallTouchesSchema = z.object({
  /** Stalls longer than this count (ms), and events stamped up to this long after one. */
  boundMs: num,
  /** Stalls of the stamping loop(s) over the bound. */
  stalls: count,
  /** Content events stamped from a stall's start to boundMs after its end. */
  events: count,
  /** Requests with such an event; of them, those whose TTFT (first content event) was one. */
  requests: count,
  ttft: count,
  /** ITL gaps that begin or end with such an event. */
  gaps: count,
  /** The touched requests' ids, in finishing order (at most 50). */
  ids: z.array(z.string().max(200)).max(1000),
});
export type StallTouches = z.output<typeof StallTouchesSchema>;

export const SelfCheckSchema = z.object({
  /** Event-loop delay beyond the sampling interval, ms (perf_hooks.monitorEventLoopDelay). */
  eventLoopDelayP99Ms: num,
  eventLoopDelayMaxMs: num,
  /** Process CPU (user + system) over wall time, % of one core: mean over the run and worst 1-s window. */
  cpuMeanPct: num,
  cpuMaxPct: num,
  /** How late arrivals were released against their schedule, ms. */
  scheduleLagP99Ms: num,
  flagged: z.boolean(),
  reasons: z.array(z.string()),
  thresholds: z.object({
    eventLoopDelayP99Ms: num,
    cpuMeanPct: num,
    /** Schedule lag p99 over this flags the run (absent in older files). */
    scheduleLagP99Ms: num.optional(),
  }),
  /**
   * The stream-I/O thread(s) that stamped every read (absent in older files; null when the run
   * stamped inline, `--io-threads 0`, where the figures above are the stamping loop's).
   */
  io: IoSelfCheckSchema.nullable().optional(),
  /** Connections: opened, reused from the pool, retried after the server had closed a reused one. */
  connections: ConnectionStatsSchema.optional(),
  /**
   * Events stamped in or just after a stall of the loop that stamps reads (stall-touches.ts); any
   * flags the run. Absent in older files.
   */
  stallTouches: StallTouchesSchema.optional(),
});
export type SelfCheck = z.output<typeof SelfCheckSchema>;
