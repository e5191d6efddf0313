/**
 * zod schemas of a run header's `shard` and `merged` parts (shard.ts): run files are a trust
 * boundary (shared/runs/file/parse.ts), and `tokenscope merge` reads what shards wrote on other machines.
 */
import { z } from 'zod';
import { MAX_SHARDS } from './shard.ts';

const numN = z.number().nullable();

const ClockEstimateSchema = z.object({
  offsetMs: numN,
  uncertaintyMs: z.number().min(0).nullable(),
  method: z.enum(['http-date', 'none']),
  source: z.string().nullable(),
  rttMs: z.number().min(0).nullable(),
  probes: z.number().int().min(0),
  note: z.string().optional(),
});

export const ShardInfoSchema = z.object({
  index: z
    .number()
    .int()
    .min(0)
    .max(MAX_SHARDS - 1),
  of: z.number().int().min(1).max(MAX_SHARDS),
  workloadHash: z.string(),
  startAt: z.number(),
  clock: ClockEstimateSchema,
});

export const MergeInfoSchema = z.object({
  of: z.number().int().min(1).max(MAX_SHARDS),
  workloadHash: z.string(),
  startAt: z.number(),
  clockBoundMs: z.number().min(0),
  flagged: z.boolean(),
  shards: z.array(
    z.object({
      index: z.number().int().min(0),
      runId: z.string(),
      file: z.string(),
      clock: ClockEstimateSchema,
      shiftMs: z.number(),
      requests: z.number().int().min(0),
      warmupRequests: z.number().int().min(0),
      partial: z.boolean(),
      selfCheckFlagged: z.boolean(),
      flags: z.array(z.string()),
    }),
  ),
});
