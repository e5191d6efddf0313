/**
 * What a run reports while it runs: live percentiles, the phase and counters a UI consumes a few
 * times a second, and each request as it is sent. Not part of the run file (shared/runs/file/line-schema.ts).
 */
import type { CoalescedGaps } from '../summary/schema.ts';

/** Live percentiles of one metric (HdrHistogram, 3 significant digits). */
export interface LiveStat {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** [percentile, value] pairs, 0…100, for a CDF chart. */
  cdf: [number, number][];
}

export type LiveMetric = 'ttft' | 'tpot' | 'itl' | 'itl_per_token' | 'e2el' | 'client_queue_time';
export type LiveSnapshot = Record<LiveMetric, LiveStat | null> & {
  /** Coalesced chunk gaps so far (left out of the live ITL, as in the summary). */
  coalesced?: CoalescedGaps;
  /**
   * Some request in itl_per_token had no per-event token counts from the server (usage total or
   * one per event): its per-token gaps spread over estimated counts, as the summary labels them.
   */
  itlPerTokenEstimated?: boolean;
};

export type RunPhase = 'test' | 'warmup' | 'running' | 'draining' | 'done' | 'cancelled';

/** What the runner reports a few times a second (and once at the end). */
export interface RunProgress {
  runId: string;
  phase: RunPhase;
  /** ms since the measured part began (0 during warm-up). */
  elapsedMs: number;
  /** Planned measured requests; null for a duration-only run. */
  total: number | null;
  durationMs: number | null;
  arrived: number;
  started: number;
  completed: number;
  failed: number;
  inFlight: number;
  /** Arrived and waiting for a concurrency slot. */
  queued: number;
  maxInFlight: number;
  warmupDone: number;
  warmupTotal: number;
  outputTokens: number;
  /**
   * Runs of a non-streaming dialect (embeddings, rerank) only: the successful requests' inputs
   * (embeddings' inputs, rerank documents) and input tokens so far. Present means no token stream.
   */
  batch?: { inputs: number; inputTokens: number };
  /**
   * A run of conversations or agentic sessions: sessions ended of those planned (`total` is then
   * null: how many requests a session sends is not known ahead). Its `fraction` and ETA follow them.
   */
  sessions?: { done: number; total: number };
  /** 0…1. */
  fraction: number;
  etaMs: number | null;
  live: LiveSnapshot;
  /** cpuPct: mean since the run began; null for its first second (too short a window to mean anything). */
  /**
   * The loop that stamps reads, live: the stream-I/O thread's (`loop: 'io'`: its loop delay and
   * busy share) or, stamping inline, this process's (event-loop delay, CPU of one core).
   */
  selfCheck: { eventLoopDelayP99Ms: number; cpuPct: number | null; loop?: 'io' | 'main' };
}

/** A request was sent (the swimlane opens a lane). */
export interface RunRequestStart {
  id: string;
  seq: number;
  warmup: boolean;
  scheduledMs: number | null;
  arrivedMs: number;
  startedMs: number;
  queueMs: number;
}
