/**
 * What the server's own metrics said over a run (its /metrics, or a Prometheus that scrapes it):
 * the `server` part of a run's summary (schema.ts), GPU energy included (energy.ts computes it).
 * The schemas are the types.
 */
import { z } from 'zod';
import { SpecDecodeSummarySchema } from './spec-decode-schema.ts';
import { METRICS_ROLES } from '../../metrics/roles.ts';

const num = z.number();
const numN = z.number().nullable();
const count = z.number().int().min(0);

/** A server histogram's observations over the run (delta of its buckets), in ms. */
const ServerHistogramStatsSchema = z.object({
  count: z.number().min(0),
  mean: numN,
  p50: numN,
  p90: numN,
  p99: numN,
  /** The bucket each quantile was interpolated in, ms (lower exclusive, upper; null = +Inf): the true value is anywhere inside. */
  p50Bucket: z.tuple([num, numN]).nullable().optional(),
  p99Bucket: z.tuple([num, numN]).nullable().optional(),
});
export type ServerHistogramStats = z.output<typeof ServerHistogramStatsSchema>;

/** One scrape during the run: ms since the measured run began (negative: before it). */
const ServerSampleSchema = z.object({
  t: num,
  running: numN,
  waiting: numN,
  /** 0–1. */
  kvCacheUsage: numN,
});
export type ServerSample = z.output<typeof ServerSampleSchema>;

const EnergySummarySchema = z.object({
  /** 'counter': every GPU's energy counter; 'integrated-power': power x time; 'mixed': some of each. */
  method: z.enum(['counter', 'integrated-power', 'mixed']),
  /** Joules of every GPU over the window. */
  joules: num,
  gpus: count,
  /** The scrapes the energy runs between: ms since the measured run began. */
  windowMs: z.object({ fromMs: num, toMs: num }),
  /** Mean power of all GPUs together over the window (W). */
  meanPowerW: numN,
  /** The output tokens it is divided by (total_output_tokens, the successful requests'). */
  outputTokens: numN,
  /** joules / outputTokens; null without tokens. */
  joulesPerToken: numN,
  peakUtilPct: numN,
  peakFbUsedMiB: numN,
});
export type EnergySummary = z.output<typeof EnergySummarySchema>;

/** A queue's length over the run, from the scrapes taken during it (about one a second). */
const QueueStatsSchema = z.object({ mean: num, max: num, samples: count });
export type QueueStats = z.output<typeof QueueStatsSchema>;

/**
 * KV-transfer time per request over the run (ms): from the server's histogram (quantiles within
 * its buckets) or, from a counter pair, only the mean.
 */
const KvTransferStatsSchema = ServerHistogramStatsSchema.extend({
  source: z.enum(['histogram', 'counters']),
});
export type KvTransferStats = z.output<typeof KvTransferStatsSchema>;

/**
 * One metrics endpoint of a disaggregated or routed deployment (its role: prefill, decode, router,
 * server) over the run: its queues and its KV-transfer time. Null: the server does not expose it.
 */
const RoleSideSummarySchema = z.object({
  role: z.enum(METRICS_ROLES),
  url: z.string(),
  profile: z.string(),
  profileName: z.string(),
  scrapes: count,
  failures: count,
  lastError: z.string().nullable(),
  window: z.object({ fromMs: num, toMs: num }).nullable(),
  queues: z.object({
    /** The server's waiting queue (requestsWaiting). */
    waiting: QueueStatsSchema.nullable(),
    prefillPrealloc: QueueStatsSchema.nullable(),
    prefillInflight: QueueStatsSchema.nullable(),
    decodePrealloc: QueueStatsSchema.nullable(),
    decodeTransfer: QueueStatsSchema.nullable(),
  }),
  kvTransfer: KvTransferStatsSchema.nullable(),
});
export type RoleSideSummary = z.output<typeof RoleSideSummarySchema>;
export type RoleQueueKey = keyof RoleSideSummary['queues'];

export const ServerSideSummarySchema = z.object({
  source: z.enum(['scrape', 'prometheus']),
  /** What was read: the /metrics URL, or the Prometheus server and its selector (no credentials). */
  url: z.string(),
  selector: z.string().nullable(),
  /** Detected server profile ('unknown' when nothing was mapped). */
  profile: z.string(),
  profileName: z.string(),
  /** The model the concepts were filtered on (servers that label series by model). */
  model: z.string().nullable(),
  scrapes: count,
  failures: count,
  /** The last failure, when scraping failed (a server without /metrics: its 404). */
  lastError: z.string().nullable(),
  /** The two scrapes the deltas below run between: ms since the measured run began. */
  window: z.object({ fromMs: num, toMs: num }).nullable(),
  peak: z.object({ running: numN, waiting: numN, kvCacheUsage: numN }),
  /** Counter increases over the window (reset-aware). */
  delta: z.object({ generationTokens: numN, promptTokens: numN, preemptions: numN }),
  /**
   * The server's own prefix-cache hit rate over the window: hit ÷ queried prompt tokens from its
   * counters, or (`source: 'gauge'`) its hit-rate gauge's last value, which is not over the run
   * alone. Null when it exposes neither; absent in files written before it was read.
   */
  prefixCache: z
    .object({
      hitTokens: numN,
      queryTokens: numN,
      hitRate: z.number().min(0).max(1),
      source: z.enum(['counters', 'gauge']),
    })
    .nullable()
    .optional(),
  ttft: ServerHistogramStatsSchema.nullable(),
  queueTime: ServerHistogramStatsSchema.nullable(),
  e2e: ServerHistogramStatsSchema.nullable(),
  itl: ServerHistogramStatsSchema.nullable(),
  /** Gauges over the run, about one point a second (thinned to at most 2,000 points). */
  series: z.array(ServerSampleSchema),
  /**
   * GPU energy over the run from the target's telemetry endpoints (dcgm-exporter), with joules per
   * output token; null when they gave no two readings; absent when the target lists none.
   */
  energy: EnergySummarySchema.nullable().optional(),
  /** The telemetry endpoints read, and the last failure of each that failed. */
  telemetry: z.array(z.object({ url: z.string(), error: z.string().nullable() })).optional(),
  /**
   * Speculative decoding over the window (vLLM's spec_decode counters, SGLang's accept-length
   * gauges); null: the server exposes none; absent: an older file.
   */
  specDecode: SpecDecodeSummarySchema.nullable().optional(),
  /**
   * Per role (the target's metrics endpoints, and the server's own when it is a disaggregated
   * one): queues and KV-transfer time. Absent when the target lists none and the server is not.
   */
  roles: z.array(RoleSideSummarySchema).optional(),
});
export type ServerSideSummary = z.output<typeof ServerSideSummarySchema>;

/** Why a run has no server-side numbers, in words (its last error, or too few scrapes). */
export function serverGapReason(s: ServerSideSummary): string {
  if (s.lastError) return s.lastError;
  if (s.scrapes > 0)
    return s.source === 'prometheus'
      ? 'Prometheus scraped the server only once during the run (its scrape interval is longer than the run)'
      : 'only one scrape during the run';
  return 'no scrape succeeded';
}
