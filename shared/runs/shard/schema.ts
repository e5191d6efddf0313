/**
 * What a shard and a merged run record in the run file's header (`shard` and `merged`), declared
 * once: the schemas are the types. Run files are a trust boundary (shared/runs/run-file/parse.ts),
 * and `tokenscope merge` reads what shards wrote on other machines.
 */
import { z } from 'zod';

export const MAX_SHARDS = 1024;

const numN = z.number().nullable();

/** This machine's clock against a reference (the target server's HTTP Date), ms. */
const ClockEstimateSchema = z.object({
  /** reference − local: add it to a local time to get the reference's. null: not measured. */
  offsetMs: numN,
  /** Half-width of the interval the offset is known to lie in (null: not measured). */
  uncertaintyMs: z.number().min(0).nullable(),
  /** How it was measured: the Date header's second boundary, or not at all. */
  method: z.enum(['http-date', 'none']),
  /** The URL whose Date was read (no credentials). */
  source: z.string().nullable(),
  /** Round trip of the probes (median), ms. */
  rttMs: z.number().min(0).nullable(),
  probes: z.number().int().min(0),
  /** Why it is absent or weak (no Date header, Date not changing at second boundaries…). */
  note: z.string().optional(),
});
export type ClockEstimate = z.output<typeof ClockEstimateSchema>;

/** What a shard's run file header says of it. */
export const ShardInfoSchema = z.object({
  /** 0-based. */
  index: z
    .number()
    .int()
    .min(0)
    .max(MAX_SHARDS - 1),
  of: z.number().int().min(1).max(MAX_SHARDS),
  /** Hash of what the shards must share (shard-hash: workload, model, prompts, schedule). */
  workloadHash: z.string(),
  /** The measured part's start on the reference clock, epoch ms (the --start-at given). */
  startAt: z.number(),
  clock: ClockEstimateSchema,
});
export type RunShardInfo = z.output<typeof ShardInfoSchema>;

const MergedShardSchema = z.object({
  index: z.number().int().min(0),
  runId: z.string(),
  file: z.string(),
  clock: ClockEstimateSchema,
  /** Added to the shard's run-clock times (arrivedMs, startedMs, sentMs) to put them on the merged clock. */
  shiftMs: z.number(),
  requests: z.number().int().min(0),
  warmupRequests: z.number().int().min(0),
  partial: z.boolean(),
  selfCheckFlagged: z.boolean(),
  flags: z.array(z.string()),
});
export type MergedShard = z.output<typeof MergedShardSchema>;

/** A merged run's header: where its lines came from and what was found wrong with them. */
export const MergeInfoSchema = z.object({
  of: z.number().int().min(1).max(MAX_SHARDS),
  workloadHash: z.string(),
  startAt: z.number(),
  clockBoundMs: z.number().min(0),
  /** Any shard flagged. */
  flagged: z.boolean(),
  shards: z.array(MergedShardSchema),
});
