/**
 * One GET of a /metrics endpoint (engine/http-get.ts, asking for text and gzip). Never throws:
 * failures come back as values classified like every other request error, with the monotonic time
 * the response headers arrived (the best estimate of when the server rendered the body).
 */
import type { Result } from '../../shared/result.ts';
import type { RequestError } from '../../shared/errors.ts';
import { httpGet, type GetResult } from '../engine/http-get.ts';

interface FetchMetricsOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  insecureTls?: boolean;
  maxBodyBytes: number;
  signal?: AbortSignal;
}

type FetchedMetrics = GetResult;

type FetchMetricsResult = Result<FetchedMetrics, RequestError>;
export type MetricsFetcher = (url: URL, opts: FetchMetricsOptions) => Promise<FetchMetricsResult>;

/**
 * `Accept: text/plain`: prometheus_client switches to OpenMetrics only when asked, and its
 * OpenMetrics output mangles vLLM/SGLang `:` names (test-corpus/FORMATS.md §3.1, pitfall 10).
 */
const METRICS_ACCEPT = 'text/plain;version=0.0.4;q=1.0, */*;q=0.1';

export const fetchMetrics: MetricsFetcher = (url, opts) =>
  httpGet(url, {
    headers: opts.headers,
    timeoutMs: opts.timeoutMs,
    insecureTls: opts.insecureTls,
    maxBytes: opts.maxBodyBytes,
    signal: opts.signal,
    accept: METRICS_ACCEPT,
    // Prometheus client libraries gzip when asked (a large /metrics shrinks ~10×); a scrape's time
    // is not per-byte timing, so compression costs nothing here.
    decompress: true,
    noun: 'scrape',
    bodyName: '/metrics body',
  });
