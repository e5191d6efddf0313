/**
 * What the server's own metrics said over a run (its /metrics, or a Prometheus that scrapes it):
 * the `server` part of a run's summary (shared/runs/file/types.ts RunSummary).
 */

import type { EnergySummary } from './energy.ts';

/** A server histogram's observations over the run (delta of its buckets), in ms. */
export interface ServerHistogramStats {
  count: number;
  mean: number | null;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  /** The bucket each quantile was interpolated in, ms (lower exclusive, upper; null = +Inf): the true value is anywhere inside. */
  p50Bucket?: [number, number | null] | null;
  p99Bucket?: [number, number | null] | null;
}

/** One scrape during the run: ms since the measured run began (negative: before it). */
export interface ServerSample {
  t: number;
  running: number | null;
  waiting: number | null;
  /** 0–1. */
  kvCacheUsage: number | null;
}

/** Why a run has no server-side numbers, in words (its last error, or too few scrapes). */
export function serverGapReason(s: ServerSideSummary): string {
  if (s.lastError) return s.lastError;
  if (s.scrapes > 0)
    return s.source === 'prometheus'
      ? 'Prometheus scraped the server only once during the run (its scrape interval is longer than the run)'
      : 'only one scrape during the run';
  return 'no scrape succeeded';
}

export interface ServerSideSummary {
  source: 'scrape' | 'prometheus';
  /** What was read: the /metrics URL, or the Prometheus server and its selector (no credentials). */
  url: string;
  selector: string | null;
  /** Detected server profile ('unknown' when nothing was mapped). */
  profile: string;
  profileName: string;
  /** The model the concepts were filtered on (servers that label series by model). */
  model: string | null;
  scrapes: number;
  failures: number;
  /** The last failure, when scraping failed (a server without /metrics: its 404). */
  lastError: string | null;
  /** The two scrapes the deltas below run between: ms since the measured run began. */
  window: { fromMs: number; toMs: number } | null;
  peak: { running: number | null; waiting: number | null; kvCacheUsage: number | null };
  /** Counter increases over the window (reset-aware). */
  delta: { generationTokens: number | null; promptTokens: number | null; preemptions: number | null };
  ttft: ServerHistogramStats | null;
  queueTime: ServerHistogramStats | null;
  e2e: ServerHistogramStats | null;
  itl: ServerHistogramStats | null;
  /** Gauges over the run, about one point a second (thinned to at most 2,000 points). */
  series: ServerSample[];
  /**
   * GPU energy over the run from the target's telemetry endpoints (dcgm-exporter), with joules per
   * output token; null when they gave no two readings; absent when the target lists none.
   */
  energy?: EnergySummary | null;
  /** The telemetry endpoints read, and the last failure of each that failed. */
  telemetry?: { url: string; error: string | null }[];
}
