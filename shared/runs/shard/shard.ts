/**
 * Sharded load runs (`tokenscope run --shard I/N`): which requests of the global schedule a shard
 * sends and how `--shard` and `--start-at` are read (what a shard and a merged run record in the run
 * file's header: schema.ts). Pure: the CLI, the runner and `tokenscope merge` share it.
 *
 * Slicing: shard I of N (0-based, like Kubernetes' JOB_COMPLETION_INDEX) sends request i of the
 * whole workload when i mod N = I, at the whole workload's planned time for i, with prompt i. Its
 * warm-up requests are numbered k·N + I, so every shard's warm-up lines stay distinct too.
 */
import { fail, ok, type Result } from '../../result.ts';
import { MAX_SHARDS } from './schema.ts';

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
