/**
 * What the core sends the UI about server metrics (one message per scrape per watched target).
 * Times are epoch ms on the same axis as RequestSummary.startedAtWall (both derived from the
 * core's monotonic clock origin), so client requests and server series line up.
 */
import type { Concepts } from './metrics/concepts.ts';
import type { ProfileId } from './metrics/profile-types.ts';
import type { HistogramBucket, MetricType } from './metrics/prom-types.ts';
import type { TelemetryReading } from './metrics/telemetry.ts';
import type { SpecDecodeReading } from './metrics/spec-decode.ts';

/** One telemetry endpoint (dcgm-exporter, node_exporter) read on the server scrape's tick. */
export interface TelemetryScrape extends TelemetryReading {
  url: string;
  /** performance.now() of its response (the core's clock). */
  monoMs: number;
  /** Why this endpoint gave nothing this time (null when it answered). */
  error: string | null;
}

export interface ExplorerSeries {
  /** Family name + formatted labels: the series' identity across scrapes. */
  key: string;
  family: string;
  type: MetricType;
  labels: string;
  /** Counters, gauges, untyped: the value. Histograms: the count. */
  value: number;
  /** Histograms only (cumulative, seconds or the server's unit). */
  buckets?: HistogramBucket[];
  sum?: number;
}

export interface MetricsScrape {
  targetId: string;
  wallMs: number;
  durationMs: number;
  bytes: number;
  profile: ProfileId;
  profileName: string;
  /** Current values: gauges, counter totals, cumulative histograms (seconds). */
  concepts: Concepts;
  /** Since the previous scrape (null on the first). */
  rates: {
    promptTokensPerSec: number | null;
    generationTokensPerSec: number | null;
    preemptionsPerSec: number | null;
    prefixCacheHitRate: number | null;
  } | null;
  families: number;
  series: number;
  parseErrors: { line: number; message: string }[];
  /** Every series (capped), for the explorer. */
  explorer: ExplorerSeries[];
  explorerTruncated: boolean;
  help: Record<string, string>;
  /** The target's telemetry endpoints, read on this scrape's tick (absent when it lists none). */
  telemetry?: TelemetryScrape[];
  /** Speculative decoding's families (metrics/spec-decode.ts); null: the server has none. */
  specDecode?: SpecDecodeReading | null;
}

export interface MetricsState {
  targetId: string;
  /** What is polled: the /metrics URL, or the Prometheus server's URL. */
  url: string;
  /** Where the numbers come from: the server's own /metrics, or a Prometheus server. */
  source: 'scrape' | 'prometheus';
  /** Prometheus source: the selector of this target's servers, canonical form. */
  selector?: string;
  status: 'idle' | 'ok' | 'failing';
  lastError: { kind: string; code?: string; message: string; status?: number } | null;
  consecutiveFailures: number;
  /** ms until the next attempt (backoff), null when stopped. */
  nextAttemptInMs: number | null;
  profile: ProfileId | null;
  /** Prometheus source: its clock minus ours (ms), measured with `time()`; its points are moved by it. */
  clockSkewMs?: number | null;
}
