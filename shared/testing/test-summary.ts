/**
 * Test fixtures: a run summary with only what comparisons read (throughput, TTFT), the rest
 * left empty. Not shipped: used by the comparison tests.
 */
import type { MetricStats, RunSummary } from '../runs/summary/schema.ts';

/** Stats whose median and p99 are the given values (mean = median, p90 = p95 = p99.9 = p99). */
const metricStats = (median: number, p99: number): MetricStats => ({
  count: 10,
  mean: median,
  median,
  std: 1,
  min: 1,
  max: p99,
  p90: p99,
  p95: p99,
  p99,
  p999: p99,
});

export function summary(p: {
  tput: number;
  ttft: [number, number];
  failed?: number;
  goodput?: number | null;
}): RunSummary {
  return {
    vllm: {
      completed: 10,
      failed: p.failed ?? 0,
      duration: 5,
      total_input_tokens: 100,
      total_output_tokens: 200,
      request_throughput: 2,
      request_goodput: p.goodput ?? null,
      output_throughput: p.tput,
      total_token_throughput: p.tput + 20,
      max_output_tokens_per_s: null,
      max_concurrent_requests: 4,
    },
    stats: {
      ttft: metricStats(...p.ttft),
      tpot: null,
      itl: null,
      e2el: null,
      itl_per_token: null,
      client_queue_time: null,
      first_event: null,
      ttfat: null,
    },
  } as unknown as RunSummary;
}
