/**
 * A run's summary — the summary line of a run file, and what every view, `compare` and export
 * reads — declared once: the schemas are the types, so a field added here is kept on reopen. The
 * line is validated in full: run files are shared, hand-edited and cut short. zod 4 numbers are
 * finite (JSON's 1e999 is Infinity, refused). A summary that fails is not trusted: the reader
 * recomputes it from the request lines and says why (shared/runs/run-file/parse.ts). The parts
 * for the server's metrics and the run's self-check are in server-side-schema.ts and
 * self-check-schema.ts.
 */
import { z } from 'zod';
import { toolSummarySchema } from './tool-summary-schema.ts';
import type { TokenSource } from '../../request.ts';
import type { SameType } from '../../same-type.ts';
import { Slo } from '../workload/workload.ts';
import { DEFINITION_IDS } from './definitions.ts';
import { ServerSideSummarySchema } from './server-side-schema.ts';
import { SelfCheckSchema } from './self-check-schema.ts';
import { ModelRowSchema } from './by-model-schema.ts';
import { BatchSummarySchema } from './batch.ts';

const num = z.number();
const nonNeg = z.number().min(0);
const count = z.number().int().min(0);
const numN = z.number().nullable();

export const STAT_METRICS = [
  'ttft',
  'tpot',
  'itl',
  'e2el',
  'itl_per_token',
  'client_queue_time',
  'first_event',
  /** Time to first answer token (reasoning models); null for runs without reasoning, absent in older files. */
  'ttfat',
] as const;
export type StatMetric = (typeof STAT_METRICS)[number];

/** The percentiles vLLM reports for TTFT, TPOT, ITL and E2EL, and we write (vLLM's key format). */
export const VLLM_PERCENTILES = [90, 95, 99, 99.9] as const;

/** Reads null as NaN: median/std are NaN in memory for imports that did not report them; JSON writes null. */
const nanIfNull = z
  .number()
  .nullable()
  .transform((v) => v ?? NaN);

/** mean/median/std/percentiles; min/max/count null when an import reported only aggregates. */
const MetricStatsSchema = z.object({
  count: count.nullable(),
  mean: num,
  median: nanIfNull,
  std: nanIfNull,
  min: numN,
  max: numN,
  p90: numN,
  p95: numN,
  p99: numN,
  p999: numN,
  /**
   * The same metric as vLLM defines it, present only where that differs from this one: on
   * `stats.itl` when some chunk gaps were coalesced (Tokenscope's ITL leaves them out, vLLM's keeps
   * them). vLLM's keys (`vllmStatKeys`, summary.vllm, vLLM-format exports) are computed from it.
   */
  get vllm() {
    return MetricStatsSchema.optional();
  },
});
export type MetricStats = z.output<typeof MetricStatsSchema>;

/**
 * `vllm bench serve` result keys, exactly as vLLM names and computes them (seconds for duration,
 * ms for latencies, per second for rates). Plus `mean_ttft_ms`, `p99.9_itl_ms`, … per metric.
 */
const VllmMetricsSchema = z
  .object({
    completed: count,
    failed: count,
    duration: nonNeg,
    total_input_tokens: nonNeg,
    total_output_tokens: nonNeg,
    request_throughput: nonNeg,
    request_goodput: numN,
    output_throughput: nonNeg,
    total_token_throughput: nonNeg,
    /** null only for imports that did not report it. */
    max_output_tokens_per_s: numN,
    max_concurrent_requests: numN,
  })
  .catchall(numN);
export type VllmMetrics = z.output<typeof VllmMetricsSchema>;

const ReasoningTotalsSchema = z.object({
  /** Successful requests that reasoned. */
  requests: count,
  reasoningTokens: count,
  answerTokens: count,
  /** Of `requests`, those whose split was estimated (the server gave no reasoning count). */
  estimatedRequests: count,
});
export type ReasoningTotals = z.output<typeof ReasoningTotalsSchema>;

/** A multi-turn run's requests of one turn (by-turn.ts). */
const TurnRowSchema = z.object({
  /** 1-based; with andLater, this turn and every later one. */
  turn: z.number().int().min(1),
  andLater: z.boolean(),
  requests: count,
  failed: count,
  /** Mean prompt tokens of its successful requests (the conversation so far grows them). */
  meanInputTokens: z.number().nullable(),
  ttft: MetricStatsSchema.nullable(),
  e2e: MetricStatsSchema.nullable(),
});
export type TurnRow = z.output<typeof TurnRowSchema>;

/**
 * Gaps between content events that one socket read carried together (the client read late; both
 * got the read's time, so the gap is ~0 ms by construction): left out of Tokenscope's ITL, kept in
 * vLLM's.
 */
const CoalescedGapsSchema = z.object({
  /** Coalesced chunk gaps. */
  gaps: count,
  /** Every chunk gap (vLLM's ITL count). */
  totalGaps: count,
  /** gaps / totalGaps, 0…1 (0 when there is no gap). */
  share: z.number().min(0).max(1),
});
export type CoalescedGaps = z.output<typeof CoalescedGapsSchema>;

/** A trace replay's schedule lag (replay-lag.ts). */
const ReplaySummarySchema = z.object({
  speedup: num,
  /** Measured requests whose lag is known (they were sent). */
  requests: count,
  lagP50Ms: z.number(),
  lagP99Ms: z.number(),
  lagMaxMs: z.number(),
  boundMs: num,
  /** lagP99Ms > boundMs. */
  flagged: z.boolean(),
});
export type ReplaySummary = z.output<typeof ReplaySummarySchema>;

/**
 * The summary's statistics by metric. Every file has the first seven (since run files exist);
 * `ttfat` is absent in files written before it.
 */
const metricOrNull = MetricStatsSchema.nullable();
const StatsSchema = z.object({
  ttft: metricOrNull,
  tpot: metricOrNull,
  itl: metricOrNull,
  e2el: metricOrNull,
  itl_per_token: metricOrNull,
  client_queue_time: metricOrNull,
  first_event: metricOrNull,
  ttfat: metricOrNull.optional(),
});

const TokensSchema = z.object({
  /** Completed requests by where their output token count came from. */
  outputSource: z.object({ 'per-event': count, 'usage-total': count, estimated: count }),
  inputFromUsage: count,
  inputEstimated: count,
  /**
   * Output tokens received in requests that then failed (a stream reset mid-way): not in
   * total_output_tokens (vLLM counts successful requests only), but the server generated them.
   * Absent in run files written before it was recorded.
   */
  failedOutput: nonNeg.optional(),
  /** Prompt tokens of the requests that failed (usage, else the workload's estimate); likewise. */
  failedInput: nonNeg.optional(),
  /** Whether some of failedInput is the workload's estimate (a failed stream rarely has usage). */
  failedInputEstimated: z.boolean().optional(),
  /** The token peak spread totals over events with no per-event count (peaks.ts): said next to it. */
  peakEstimated: z.boolean().optional(),
  /** Of 'usage-total', those counted by the server's tokenizer from their text (POST /tokenize). */
  outputTokenized: count.optional(),
  /**
   * Completed requests whose usage total could not be true (past max_tokens, or more than what
   * arrived could carry: shared/stats/token-bounds.ts): counted from their events instead.
   * Absent: none (or a file written before it was checked).
   */
  usageRefused: count.optional(),
});

export const RunSummarySchema = z.object({
  /** 'tokenscope' for native runs; imports say where they came from. */
  source: z.enum(['tokenscope', 'vllm', 'sglang']),
  /**
   * Imports: measured by Tokenscope and exported in that tool's format (the file says so), not by
   * the tool's own client. Absent otherwise.
   */
  measuredBy: z.literal('tokenscope').optional(),
  /**
   * Whose per-request rules made these numbers (definitions.ts): a native run's stored summary is
   * 'tokenscope' and can be re-derived under another from its events; an import's are its tool's.
   * Absent in files written before presets (then: Tokenscope's, peak in chunks).
   */
  definitions: z.enum(DEFINITION_IDS).optional(),
  imported: z.boolean(),
  /** Recomputed from request lines of a run whose summary line is missing. */
  partial: z.boolean(),
  cancelled: z.boolean(),
  config: z.object({
    maxConcurrency: numN,
    requestRate: z.union([num, z.literal('inf')]).nullable(),
    burstiness: numN,
    numPrompts: numN,
  }),
  vllm: VllmMetricsSchema,
  stats: StatsSchema,
  tokens: TokensSchema,
  /**
   * The successful requests' reasoning and answer tokens (shared/stats/reasoning-stats.ts): present
   * only when one of them reasoned. answerTokens = total_output_tokens − reasoningTokens.
   */
  reasoning: ReasoningTotalsSchema.optional(),
  /** Multi-turn runs: TTFT and E2E by turn (absent in single-request runs). */
  byTurn: z.array(TurnRowSchema).optional(),
  /** Model-mix runs (workload models): the numbers by model (by-model.ts); absent otherwise. */
  byModel: z.array(ModelRowSchema).optional(),
  /**
   * Runs of a non-streaming dialect (embeddings, rerank): batch sizes, inputs and input tokens per
   * second (batch.ts). Present means no token stream: no TTFT, ITL or TPOT anywhere (`streamsTokens`).
   */
  batch: BatchSummarySchema.optional(),
  /** Tool calls and agentic sessions (tool-calls.ts); absent: no request offered tools. */
  tools: toolSummarySchema(MetricStatsSchema.nullable()).optional(),
  /** Per kind/code in `errors`: the first failed request's message (the server's words, 300 chars). */
  errorSamples: z.record(z.string(), z.string()).optional(),
  /** Failed requests by `kind/code`. */
  errors: z.record(z.string(), count),
  /**
   * Coalesced chunk gaps of the successful requests (left out of stats.itl / stats.itl_per_token,
   * kept in vLLM's keys). null when unknown (imports); absent in files written before it existed.
   */
  coalesced: CoalescedGapsSchema.nullable().optional(),
  /** Requests the user's cancel stopped (left out of every number above). */
  cancelledRequests: count,
  warmupRequests: count,
  slo: Slo.nullable(),
  goodRequests: count.nullable(),
  selfCheck: SelfCheckSchema.nullable(),
  /** A trace replay's schedule lag (replay-lag.ts); absent for other runs and older files. */
  replay: ReplaySummarySchema.nullable().optional(),
  /**
   * What the server's own metrics said over the measured run (its /metrics, or a Prometheus that
   * scrapes it), when the run watched them; absent for imports and runs that did not.
   */
  server: ServerSideSummarySchema.nullable().optional(),
  /** The server's phases from its spans, exact per request (shared/tracing/phase-summary.ts; run --otlp-listen). */
  serverPhases: z
    .object({
      requests: count,
      joined: count,
      sharedClock: z.boolean(),
      queueMs: MetricStatsSchema.nullable(),
      prefillMs: MetricStatsSchema.nullable(),
      decodeMs: MetricStatsSchema.nullable(),
      serverTtftMs: MetricStatsSchema.nullable(),
      serverE2eMs: MetricStatsSchema.nullable(),
      clientTtftMs: MetricStatsSchema.nullable(),
      outsideServerMs: MetricStatsSchema.nullable(),
      preQueueMs: MetricStatsSchema.nullable(),
      sendMs: MetricStatsSchema.nullable(),
      returnMs: MetricStatsSchema.nullable(),
    })
    .optional(),
  /** What the server took from its prefix cache (prefix-cache.ts); absent: nothing reported and nothing expected. */
  prefixCache: z
    .object({
      reported: count,
      hitRequests: count,
      cachedTokens: count,
      promptTokens: count,
      ratio: nonNeg,
      perRequestRatio: MetricStatsSchema.nullable(),
      ttftHit: MetricStatsSchema.nullable(),
      ttftMiss: MetricStatsSchema.nullable(),
      expected: z.object({ hitRequests: count, cachedTokens: count, ratio: nonNeg }).optional(),
    })
    .optional(),
  /** Requests with images: their bytes, write and upload times beside their TTFT (upload.ts). */
  upload: z
    .object({
      requests: count,
      images: count,
      requestBytes: MetricStatsSchema.nullable(),
      writeMs: MetricStatsSchema.nullable(),
      uploadMs: MetricStatsSchema.nullable(),
      ttftMs: MetricStatsSchema.nullable(),
    })
    .optional(),
  /** For imports: what was recomputed from per-request arrays, what was taken as reported, and other notes. */
  importInfo: z
    .object({
      recomputed: z.array(z.string()),
      reported: z.array(z.string()),
      notes: z.array(z.string()),
      metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    })
    .optional(),
});
export type RunSummary = z.output<typeof RunSummarySchema>;

// The lists the code iterates are the schema's keys, checked when compiling.
const statKeysTied: SameType<keyof z.output<typeof StatsSchema>, StatMetric> = true;
const sourceKeysTied: SameType<keyof RunSummary['tokens']['outputSource'], TokenSource> = true;
void statKeysTied;
void sourceKeysTied;
