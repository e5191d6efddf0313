/**
 * The zod schemas of a run file's header and request lines (parse.ts reads with them). A file
 * is a trust boundary: every number a line holds is checked against the range the code that reads
 * it can take — token counts the column's type (Uint32Array), times a bound no run reaches — so no
 * count or time read from a file sizes an allocation (docs/ARCHITECTURE.md "Counts from outside").
 */
import { z } from 'zod';
import { DIALECT_IDS } from '../../dialects.ts';
import { MAX_TOKEN_COUNT } from '../../stats/token-bounds.ts';
import { MergeInfoSchema, ShardInfoSchema } from '../shard/schema.ts';
import { WorkloadSchema } from '../workload/workload.ts';
import { RUN_FILE_FORMAT } from './types.ts';

/** A run-clock time or duration past this (about 115 days) is no run's: the line is refused. */
export const MAX_RUN_MS = 1e10;

const nul = <T extends z.ZodType>(t: T) => t.nullable();
const numN = nul(z.number());
const count = z.number().min(0).max(Number.MAX_SAFE_INTEGER);
/** A time since the request started, or a duration: never negative (zod 4 numbers are finite). */
const ms = z.number().min(0).max(MAX_RUN_MS);
const msN = nul(ms);
/** A run-clock time: warm-up lines may be before the zero. */
const clockMs = z.number().min(-MAX_RUN_MS).max(MAX_RUN_MS);

export const HeaderSchema = z.object({
  type: z.literal('header'),
  format: z.literal(RUN_FILE_FORMAT),
  version: z.number().int(),
  runId: z.string(),
  name: nul(z.string()),
  workload: WorkloadSchema,
  target: z.object({
    url: z.string(),
    dialect: z.enum(DIALECT_IDS),
    model: z.string(),
    headerNames: z.array(z.string()),
    authenticated: z.boolean(),
  }),
  tokenscopeVersion: z.string(),
  nodeVersion: z.string(),
  platform: z.string(),
  startedAtWall: z.number(),
  startedAt: z.string(),
  clockZeroWall: z.number().optional(),
  repeat: z
    .object({ group: z.string(), index: z.number().int().min(1), of: z.number().int().min(1) })
    .optional(),
  testRequest: z
    .object({
      attempts: z.number().int().min(1),
      ttftMs: msN,
      e2eMs: msN,
      outputTokens: z.number().int().min(0),
      responseModel: z.string().max(1000).optional(),
    })
    .optional(),
  prefixCacheReset: z
    .object({
      ok: z.boolean(),
      endpoint: z.string().max(200).nullable(),
      status: z.number().int().nullable(),
      message: z.string().max(2000),
    })
    .optional(),
  warmCacheTokens: z.number().int().min(0).optional(),
  shard: ShardInfoSchema.optional(),
  merged: MergeInfoSchema.optional(),
});

export const RequestSchema = z.object({
  type: z.literal('request'),
  seq: z.number().int(),
  id: z.string(),
  warmup: z.literal(true).optional(),
  scheduledMs: nul(clockMs),
  arrivedMs: clockMs,
  startedMs: clockMs,
  queueMs: ms,
  sentMs: clockMs.optional(),
  lagMs: clockMs.optional(),
  connection: z
    .object({ reused: z.boolean(), retried: z.boolean(), retryReason: z.string().optional() })
    .optional(),
  inputTokens: nul(count),
  inputTokensSource: z.enum(['usage', 'estimated']),
  expectedOutputTokens: nul(count),
  status: z.enum(['ok', 'error']),
  httpStatus: numN,
  phases: z.object({
    connectedMs: msN,
    requestWrittenMs: msN,
    headersMs: msN,
    firstByteMs: msN,
    endMs: msN,
  }),
  events: z
    .object({
      t: z.array(ms),
      tok: z.array(z.number().int().min(0).max(MAX_TOKEN_COUNT)),
      f: z.array(z.number().int().min(0).max(0xffff)),
    })
    .refine((e) => e.t.length === e.tok.length && e.t.length === e.f.length, {
      message: 'event columns differ in length',
    }),
  finishReason: nul(z.string()),
  usage: nul(
    z.object({
      promptTokens: numN,
      completionTokens: numN,
      totalTokens: numN,
      cachedTokens: numN.optional(),
      reasoningTokens: numN.optional(),
    }),
  ),
  tokenSource: z.enum(['per-event', 'usage-total', 'estimated']),
  error: nul(
    z.object({
      kind: z.enum(['network', 'http', 'protocol', 'server', 'client']),
      code: z.string(),
      message: z.string(),
      status: z.number().optional(),
      atMs: z.number().optional(),
    }),
  ),
  textLength: z.number(),
  reasoningLength: z.number(),
  bytes: z.number(),
  terminated: z.boolean(),
  serverRequestId: nul(z.string()),
  ttftMs: msN,
  tpotMs: msN,
  e2eMs: msN,
  outputTokens: z.number().min(0).max(Number.MAX_SAFE_INTEGER),
  reasoningTokens: z.number().int().min(0).optional(),
  reasoningTokensExact: z.boolean().optional(),
  ttfatMs: msN.optional(),
  text: z.string().optional(),
  tokenizedOutputTokens: z.number().int().min(0).optional(),
  promptHash: z.string().optional(),
  shard: z.number().int().min(0).optional(),
  session: z.number().int().min(0).optional(),
  turn: z.number().int().min(1).optional(),
});
