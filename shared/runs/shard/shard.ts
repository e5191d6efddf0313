/**
 * Sharded load runs (`tokenscope run --shard I/N`): which requests of the global schedule a shard
 * sends, how `--shard` and `--start-at` are read, and what a shard and a merged run record in the
 * run file's header. Pure: the CLI, the runner and `tokenscope merge` share it.
 *
 * Slicing: shard I of N (0-based, like Kubernetes' JOB_COMPLETION_INDEX) sends request i of the
 * whole workload when i mod N = I, at the whole workload's planned time for i, with prompt i. Its
 * warm-up requests are numbered k·N + I, so every shard's warm-up lines stay distinct too.
 */
import { fail, ok, type Result } from '../../result.ts';

export const MAX_SHARDS = 1024;
/** A --start-at this far in the past is still taken (clocks of machines started together differ). */
export const START_AT_TOLERANCE_MS = 250;
/** …and one further ahead than this is taken for a typo. */
const START_AT_MAX_AHEAD_MS = 24 * 3600_000;
/** Default bound on a shard's clock offset and its uncertainty before merge flags the shard. */
export const DEFAULT_CLOCK_BOUND_MS = 5;

export interface ShardSpec {
  /** 0-based. */
  index: number;
  of: number;
}

/** This machine's clock against a reference (the target server's HTTP Date), ms. */
export interface ClockEstimate {
  /** reference − local: add it to a local time to get the reference's. null: not measured. */
  offsetMs: number | null;
  /** Half-width of the interval the offset is known to lie in (null: not measured). */
  uncertaintyMs: number | null;
  /** How it was measured: the Date header's second boundary, or not at all. */
  method: 'http-date' | 'none';
  /** The URL whose Date was read (no credentials). */
  source: string | null;
  /** Round trip of the probes (median), ms. */
  rttMs: number | null;
  probes: number;
  /** Why it is absent or weak (no Date header, Date not changing at second boundaries…). */
  note?: string;
}

/** What a shard's run file header says of it. */
export interface RunShardInfo extends ShardSpec {
  /** Hash of what the shards must share (shard-hash: workload, model, prompts, schedule). */
  workloadHash: string;
  /** The measured part's start on the reference clock, epoch ms (the --start-at given). */
  startAt: number;
  clock: ClockEstimate;
}

/** A merged run's header: where its lines came from and what was found wrong with them. */
export interface RunMergeInfo {
  of: number;
  workloadHash: string;
  startAt: number;
  clockBoundMs: number;
  shards: MergedShard[];
  /** Any shard flagged. */
  flagged: boolean;
}

export interface MergedShard {
  index: number;
  runId: string;
  file: string;
  clock: ClockEstimate;
  /** Added to the shard's run-clock times (arrivedMs, startedMs, sentMs) to put them on the merged clock. */
  shiftMs: number;
  requests: number;
  warmupRequests: number;
  partial: boolean;
  selfCheckFlagged: boolean;
  flags: string[];
}

/** "2/4" → {index 2, of 4}; 0-based, I < N ≤ MAX_SHARDS. */
export function parseShard(text: string): Result<ShardSpec, string> {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return fail(`--shard must be I/N (0-based index I of N shards, e.g. 0/4); got "${text}"`);
  const index = Number(m[1]);
  const of = Number(m[2]);
  if (of < 1 || of > MAX_SHARDS) return fail(`--shard: N must be 1 to ${MAX_SHARDS}; got ${of}`);
  if (index >= of)
    return fail(`--shard: the index is 0-based, so it must be below N (0 to ${of - 1}); got ${index}/${of}`);
  return ok({ index, of });
}

/** Whether this shard sends request `i` of the global schedule (all requests without a shard). */
export function ownsRequest(shard: ShardSpec | null | undefined, i: number): boolean {
  return !shard || i % shard.of === shard.index;
}

/** How many of `n` requests a shard sends (n without a shard; null stays null: a duration run). */
export function shareOf(shard: ShardSpec | null | undefined, n: number | null): number | null {
  if (!shard || n === null) return n;
  return Math.max(0, Math.ceil((n - shard.index) / shard.of));
}

/** The global index of a shard's k-th warm-up request (k without a shard). */
export function warmupIndex(shard: ShardSpec | null | undefined, k: number): number {
  return shard ? k * shard.of + shard.index : k;
}

/**
 * `--start-at`: epoch ms (digits) or an ISO-8601 time with its zone (Z or ±hh:mm: machines in
 * different zones must agree on the instant). Checked against `nowMs` (the reference clock's now).
 */
export function parseStartAt(text: string, nowMs: number): Result<number, string> {
  const s = text.trim();
  let t: number;
  if (/^\d{10,}(\.\d+)?$/.test(s)) t = Number(s);
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(s)) t = Date.parse(s);
  else
    return fail(
      `--start-at must be epoch ms or an ISO-8601 time with its zone (e.g. 2026-03-01T12:00:00Z); got "${text}"`,
    );
  if (!Number.isFinite(t)) return fail(`--start-at: not a valid time: "${text}"`);
  const ahead = t - nowMs;
  if (ahead < -START_AT_TOLERANCE_MS)
    return fail(
      `--start-at ${new Date(t).toISOString()} is ${((nowMs - t) / 1000).toFixed(3)} s in the past: give a time ahead of every shard's start`,
    );
  if (ahead > START_AT_MAX_AHEAD_MS)
    return fail(`--start-at is more than 24 h ahead: ${new Date(t).toISOString()}`);
  return ok(t);
}
