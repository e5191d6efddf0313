/**
 * A run file's lines, declared once: the zod schema of each line is its type (`z.output`), so a
 * field exists in one place and cannot be written and then dropped on reopen (zod strips keys its
 * schema does not name). Run file (JSONL, electron/runs/files/run-file.ts): line 1 `RunHeader`,
 * then a `RunRequestLine` per request as it finishes, then (tokenized-line.ts) an optional
 * `tokenized` line, then the summary line (shared/runs/summary/schema.ts). The whole file is read
 * by shared/runs/run-file/parse.ts. Plain JSON-able data: it goes into files, over IPC and into the
 * renderer unchanged.
 *
 * A file is a trust boundary: every number a line holds is checked against the range the code that
 * reads it can take — token counts the column's type (Uint32Array), times a bound no run reaches —
 * so no count or time read from a file sizes an allocation (docs/ARCHITECTURE.md "Counts from
 * outside").
 */
import { z } from 'zod';
import { DIALECT_IDS } from '../../dialects.ts';
import { ERROR_KINDS } from '../../errors.ts';
import type { Phases, TokenSource, Usage } from '../../request.ts';
import type { SameType } from '../../same-type.ts';
import { MAX_TOKEN_COUNT } from '../../stats/token-bounds.ts';
import { MergeInfoSchema, ShardInfoSchema } from '../shard/schema.ts';
import { WorkloadSchema } from '../workload/workload.ts';

export const RUN_FILE_FORMAT = 'tokenscope-run';
export const RUN_FILE_VERSION = 1;
import { ServerPhasesSchema } from '../../tracing/server-phases.ts';
import { ToolsLineSchema } from './tools-line.ts';

/** A run-clock time or duration past this (about 115 days) is no run's: the line is refused. */
const MAX_RUN_MS = 1e10;

const nul = <T extends z.ZodType>(t: T) => t.nullable();
const numN = nul(z.number());
const count = z.number().min(0).max(Number.MAX_SAFE_INTEGER);
/** A time since the request started, or a duration: never negative (zod 4 numbers are finite). */
const ms = z.number().min(0).max(MAX_RUN_MS);
const msN = nul(ms);
/** A run-clock time: warm-up lines may be before the zero. */
const clockMs = z.number().min(-MAX_RUN_MS).max(MAX_RUN_MS);

/** Where the run went, without secrets: credentials and key-like query values redacted, header values dropped. */
const RunTargetSchema = z.object({
  url: z.string(),
  dialect: z.enum(DIALECT_IDS),
  model: z.string(),
  headerNames: z.array(z.string()),
  /** Whether an API key was sent (never the key). */
  authenticated: z.boolean(),
});
export type RunTarget = z.output<typeof RunTargetSchema>;

/** One of N repeats of the same workload: which, of how many, and the id that ties them together. */
const RunRepeatSchema = z.object({
  group: z.string(),
  /** 1-based. */
  index: z.number().int().min(1),
  of: z.number().int().min(1),
});
export type RunRepeat = z.output<typeof RunRepeatSchema>;

/** What the test request saw (not part of the run's numbers). */
const RunTestRequestSchema = z.object({
  /** 1, or more when a passing failure (a 5xx, a dropped stream) was tried again. */
  attempts: z.number().int().min(1),
  ttftMs: msN,
  e2eMs: msN,
  outputTokens: z.number().int().min(0),
  /**
   * The model its response named, when it named one (shared/model-answer.ts): a server that serves
   * what it has loaded whatever the name (llama.cpp) shows here that the run's model was not used.
   */
  responseModel: z.string().max(1000).optional(),
});
export type RunTestRequest = z.output<typeof RunTestRequestSchema>;

/** What a prefix-cache reset before the run did (electron/runs/prefix-cache-reset.ts). */
const RunPrefixCacheResetSchema = z.object({
  ok: z.boolean(),
  /** The endpoint that answered; null: none exists on this server. */
  endpoint: z.string().max(200).nullable(),
  status: z.number().int().nullable(),
  message: z.string().max(2000),
});
export type RunPrefixCacheReset = z.output<typeof RunPrefixCacheResetSchema>;

export const HeaderSchema = z.object({
  type: z.literal('header'),
  format: z.literal(RUN_FILE_FORMAT),
  version: z.number().int(),
  runId: z.string(),
  name: nul(z.string()),
  /** The workload with every default filled in, without its target. */
  workload: WorkloadSchema,
  target: RunTargetSchema,
  tokenscopeVersion: z.string(),
  nodeVersion: z.string(),
  platform: z.string(),
  /** Wall clock at the start (labels only; every duration is monotonic). */
  startedAtWall: z.number(),
  startedAt: z.string(),
  /**
   * The run clock's zero (the measured part's start) as wall-clock epoch ms, sampled with the
   * monotonic clock at that instant: a request's wall time is clockZeroWall + sentMs + an event's t.
   * Absent in files written before it existed.
   */
  clockZeroWall: z.number().optional(),
  /**
   * One of N repeats of the same workload (`tokenscope run --repeat N`): which, of how many, and
   * the id that ties the repeats together (pooled in summaries and comparisons).
   */
  repeat: RunRepeatSchema.optional(),
  /** The test request sent before the clock started (workload.testRequest), when it passed. */
  testRequest: RunTestRequestSchema.optional(),
  /** The prefix-cache reset before the run (workload.resetPrefixCache; electron/runs/prefix-cache-reset.ts), when one was asked for. */
  prefixCacheReset: RunPrefixCacheResetSchema.optional(),
  /**
   * The test request found this many of its prompt tokens in the server's prefix cache: the cache
   * was warm from an earlier run (the same seed sends the same test prompt), so TTFT may look
   * better than a cold server gives. Absent: no hit.
   */
  warmCacheTokens: z.number().int().min(0).optional(),
  /** One shard of a workload run from several machines (`run --shard I/N`, shared/runs/shard/shard.ts). */
  shard: ShardInfoSchema.optional(),
  /** The shards this run was merged from (`tokenscope merge`), with what was flagged. */
  merged: MergeInfoSchema.optional(),
});
export type RunHeader = z.output<typeof HeaderSchema>;

// The request record's parts a line copies (shared/request.ts declares them for the engine): tied
// to their schemas here, so a field added there and not here fails the typecheck.
const PhasesSchema = z.object({
  connectedMs: msN,
  requestWrittenMs: msN,
  headersMs: msN,
  firstByteMs: msN,
  endMs: msN,
});
const UsageSchema = z.object({
  promptTokens: numN,
  completionTokens: numN,
  totalTokens: numN,
  cachedTokens: numN.optional(),
  reasoningTokens: numN.optional(),
});
const TokenSourceSchema = z.enum(['per-event', 'usage-total', 'estimated']);
const phasesTied: SameType<z.output<typeof PhasesSchema>, Phases> = true;
const usageTied: SameType<z.output<typeof UsageSchema>, Usage> = true;
const tokenSourceTied: SameType<z.output<typeof TokenSourceSchema>, TokenSource> = true;
void phasesTied;
void usageTied;
void tokenSourceTied;

/**
 * One finished request. Offsets (`scheduledMs`, `arrivedMs`, `startedMs`) are ms since the
 * measured part of the run began; warm-up lines count from the warm-up's start. Event and phase
 * times are ms since the request was sent, 3 decimals.
 */
export const RequestSchema = z.object({
  type: z.literal('request'),
  seq: z.number().int(),
  id: z.string(),
  warmup: z.literal(true).optional(),
  /** Planned arrival (null for warm-up). */
  scheduledMs: nul(clockMs),
  /** When the scheduler released it: late against `scheduledMs` when the client lags. */
  arrivedMs: clockMs,
  /** When it got a concurrency slot and was sent. */
  startedMs: clockMs,
  /** startedMs − arrivedMs: waiting for a slot (vLLM's client_queue_time), not part of TTFT. */
  queueMs: ms,
  /**
   * When the stream-I/O thread began sending it, on the run clock (the zero of its event and phase
   * times; warm-up lines: on the warm-up's clock). Absent in older files.
   */
  sentMs: clockMs.optional(),
  /**
   * Schedule lag: sentMs − scheduledMs, how late it left against its plan (queue time for a
   * concurrency slot included). Absent for warm-up lines and in older files.
   */
  lagMs: clockMs.optional(),
  /** Its connection: reused from the pool, and whether it was retried after a closed reused one. */
  connection: z
    .object({ reused: z.boolean(), retried: z.boolean(), retryReason: z.string().optional() })
    .optional(),
  /** Prompt tokens: the server's usage when it reported them, else the workload's estimate. */
  inputTokens: nul(count),
  inputTokensSource: z.enum(['usage', 'estimated']),
  expectedOutputTokens: nul(count),
  status: z.enum(['ok', 'error']),
  httpStatus: numN,
  phases: PhasesSchema,
  /** Columns of every event: time (ms), generated tokens, EV_* flags. */
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
  usage: nul(UsageSchema),
  tokenSource: TokenSourceSchema,
  /** The error's code is any string: a file may come from a build with codes this one lacks. */
  error: nul(
    z.object({
      kind: z.enum(ERROR_KINDS),
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
  trace: z
    .object({
      traceId: z.string().regex(/^[0-9a-f]{32}$/),
      spanId: z.string().regex(/^[0-9a-f]{16}$/),
      requestId: z.string().max(1000),
    })
    .optional(),
  responseId: z.string().max(1000).optional(),
  /**
   * Non-streaming dialects (embeddings, rerank) only: inputs sent, results received, the vectors'
   * length (null: base64 or none). Absent for streams.
   */
  batch: z
    .object({
      inputs: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      results: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      dimension: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
    })
    .optional(),
  server: ServerPhasesSchema.optional(),
  /** Convenience copies for readers of the file (the reader recomputes them from `events`). */
  ttftMs: msN,
  tpotMs: msN,
  e2eMs: msN,
  outputTokens: z.number().min(0).max(Number.MAX_SAFE_INTEGER),
  /**
   * Requests with reasoning only (absent otherwise, and in files written before): of outputTokens,
   * the reasoning ones — the server's, or estimated from the live record's text
   * (shared/stats/reasoning-stats.ts), which the line does not keep — and whether they were exact.
   * A reader takes the split from here; the times (TTFAT) it recomputes from the EV_REASONING flags.
   */
  reasoningTokens: z.number().int().min(0).optional(),
  reasoningTokensExact: z.boolean().optional(),
  /** Convenience copy: time to first answer token (requests with reasoning only). */
  ttfatMs: msN.optional(),
  /** Full text, only when the workload asked for it (saveText). */
  text: z.string().optional(),
  /**
   * The output text counted by the server's tokenizer after the run (POST /tokenize), for lines
   * whose stream gave no count vLLM's client reads: vLLM re-tokenizes the text then. Else absent.
   */
  tokenizedOutputTokens: z.number().int().min(0).optional(),
  /** hash32 of what was sent (prompt or messages), 8 hex digits: the same request in another run. */
  promptHash: z.string().optional(),
  /** In a merged run: the shard that sent it. */
  shard: z.number().int().min(0).optional(),
  /** Multi-turn runs (workload sessions): the conversation's index and this request's turn in it (1-based). */
  session: z.number().int().min(0).optional(),
  turn: z.number().int().min(1).optional(),
  /**
   * Requests that carried images (workload `images`): the request body's bytes and the number of
   * images; the upload time is phases.firstByteMs − phases.requestWrittenMs (summary `upload`).
   */
  requestBytes: z.number().int().min(0).optional(),
  images: z.number().int().min(0).optional(),
  /** A model mix (workload models): the model name this request was sent to. Absent otherwise. */
  model: z.string().max(500).optional(),
  /** Tools offered and the calls made (tools-line.ts); absent: none. */
  tools: ToolsLineSchema.optional(),
  /** Agentic sessions: the injected tool latency waited before this step (steps 2 and later), ms. */
  toolWaitMs: ms.optional(),
});
export type RunRequestLine = z.output<typeof RequestSchema>;
