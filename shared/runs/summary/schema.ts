/**
 * The summary line of a run file, validated in full: run files are shared, hand-edited and cut
 * short, and every view and `compare` reads these fields. zod 4 numbers are finite (JSON's 1e999 is
 * Infinity, refused). A summary that fails is not trusted: the reader recomputes it from the
 * request lines and says why (shared/runs/file/parse.ts).
 */
import { DEFINITION_IDS } from './definitions.ts';
import { z } from 'zod';
import { Slo } from '../workload/workload.ts';

const num = z.number();
const nonNeg = z.number().min(0);
const count = z.number().int().min(0);
const numN = z.number().nullable();

type MetricStatsShape = {
  count: number | null;
  mean: number;
  median: number;
  std: number;
  min: number | null;
  max: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  p999: number | null;
  vllm?: MetricStatsShape;
};

// median/std: NaN in memory for imports that did not report them; JSON writes null.
const MetricStatsSchema: z.ZodType<MetricStatsShape> = z.lazy(() =>
  z.object({
    count: count.nullable(),
    mean: num,
    median: z
      .number()
      .nullable()
      .transform((v) => v ?? NaN),
    std: z
      .number()
      .nullable()
      .transform((v) => v ?? NaN),
    min: numN,
    max: numN,
    p90: numN,
    p95: numN,
    p99: numN,
    p999: numN,
    vllm: MetricStatsSchema.optional(),
  }),
) as z.ZodType<MetricStatsShape>;

const VllmSchema = z
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
    max_output_tokens_per_s: numN,
    max_concurrent_requests: numN,
  })
  .catchall(numN);

const HistStats = z
  .object({
    count: nonNeg,
    mean: numN,
    p50: numN,
    p90: numN,
    p99: numN,
    p50Bucket: z.tuple([num, numN]).nullable().optional(),
    p99Bucket: z.tuple([num, numN]).nullable().optional(),
  })
  .nullable();

const ServerSchema = z
  .object({
    source: z.enum(['scrape', 'prometheus']),
    url: z.string(),
    selector: z.string().nullable(),
    profile: z.string(),
    profileName: z.string(),
    model: z.string().nullable(),
    scrapes: count,
    failures: count,
    lastError: z.string().nullable(),
    window: z.object({ fromMs: num, toMs: num }).nullable(),
    peak: z.object({ running: numN, waiting: numN, kvCacheUsage: numN }),
    delta: z.object({ generationTokens: numN, promptTokens: numN, preemptions: numN }),
    ttft: HistStats,
    queueTime: HistStats,
    e2e: HistStats,
    itl: HistStats,
    series: z.array(z.object({ t: num, running: numN, waiting: numN, kvCacheUsage: numN })),
    energy: z
      .object({
        method: z.enum(['counter', 'integrated-power', 'mixed']),
        joules: num,
        gpus: count,
        windowMs: z.object({ fromMs: num, toMs: num }),
        meanPowerW: numN,
        outputTokens: numN,
        joulesPerToken: numN,
        peakUtilPct: numN,
        peakFbUsedMiB: numN,
      })
      .nullable()
      .optional(),
    telemetry: z.array(z.object({ url: z.string(), error: z.string().nullable() })).optional(),
  })
  .nullable();

const SelfCheckSchema = z
  .object({
    eventLoopDelayP99Ms: num,
    eventLoopDelayMaxMs: num,
    cpuMeanPct: num,
    cpuMaxPct: num,
    scheduleLagP99Ms: num,
    flagged: z.boolean(),
    reasons: z.array(z.string()),
    thresholds: z.object({ eventLoopDelayP99Ms: num, cpuMeanPct: num }),
    io: z
      .object({
        threads: count,
        loopDelayP99Ms: num,
        loopDelayMaxMs: num,
        stalls: count,
        stallMs: num,
        gcCount: count,
        gcPauseMs: num,
        gcMaxMs: num,
        cpuPct: numN,
        reads: count,
      })
      .nullable()
      .optional(),
    connections: z
      .object({ mode: z.enum(['keep-alive', 'close']), opened: count, reused: count, retried: count })
      .optional(),
  })
  .nullable();

export const RunSummarySchema = z.object({
  source: z.enum(['tokenscope', 'vllm', 'sglang']),
  measuredBy: z.literal('tokenscope').optional(),
  definitions: z.enum(DEFINITION_IDS).optional(),
  imported: z.boolean(),
  partial: z.boolean(),
  cancelled: z.boolean(),
  config: z.object({
    maxConcurrency: numN,
    requestRate: z.union([num, z.literal('inf')]).nullable(),
    burstiness: numN,
    numPrompts: numN,
  }),
  vllm: VllmSchema,
  stats: z.record(z.string(), MetricStatsSchema.nullable()),
  tokens: z.object({
    outputSource: z.record(z.string(), count),
    inputFromUsage: count,
    inputEstimated: count,
    failedOutput: nonNeg.optional(),
    failedInput: nonNeg.optional(),
    failedInputEstimated: z.boolean().optional(),
    peakEstimated: z.boolean().optional(),
    outputTokenized: count.optional(),
    usageRefused: count.optional(),
  }),
  reasoning: z
    .object({ requests: count, reasoningTokens: count, answerTokens: count, estimatedRequests: count })
    .optional(),
  byTurn: z
    .array(
      z.object({
        turn: z.number().int().min(1),
        andLater: z.boolean(),
        requests: count,
        failed: count,
        meanInputTokens: z.number().nullable(),
        ttft: MetricStatsSchema.nullable(),
        e2e: MetricStatsSchema.nullable(),
      }),
    )
    .optional(),
  errorSamples: z.record(z.string(), z.string()).optional(),
  errors: z.record(z.string(), count),
  coalesced: z
    .object({ gaps: count, totalGaps: count, share: z.number().min(0).max(1) })
    .nullable()
    .optional(),
  cancelledRequests: count,
  warmupRequests: count,
  slo: Slo.nullable(),
  goodRequests: count.nullable(),
  selfCheck: SelfCheckSchema,
  replay: z
    .object({
      speedup: num,
      requests: count,
      lagP50Ms: z.number(),
      lagP99Ms: z.number(),
      lagMaxMs: z.number(),
      boundMs: num,
      flagged: z.boolean(),
    })
    .nullable()
    .optional(),
  server: ServerSchema.optional(),
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
  importInfo: z
    .object({
      recomputed: z.array(z.string()),
      reported: z.array(z.string()),
      notes: z.array(z.string()),
      metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    })
    .optional(),
});
