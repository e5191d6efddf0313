/**
 * Server profiles: which metric names mean what on each inference server (test-corpus/FORMATS.md §4–§5,
 * pitfall 10). Each concept lists alternatives in order, so renamed metrics (name drift across
 * versions) still map: the first alternative that yields a value wins.
 */
import type { MetricFamily, ParseResult } from './prom-types.ts';
import type { ProfileId, ServerProfile } from './profile-types.ts';
import { hist, mean, pick } from './profile-exprs.ts';
import { DISAGG_PREFIXES, DISAGG_PROFILES, refineSglang } from './profiles-disagg.ts';

export * from './profile-types.ts';

const VLLM_COMMON = {
  requestsRunning: [pick('vllm:num_requests_running')],
  requestsWaiting: [pick('vllm:num_requests_waiting')],
  promptTokensTotal: [pick('vllm:prompt_tokens_total')],
  generationTokensTotal: [pick('vllm:generation_tokens_total')],
  preemptionsTotal: [pick('vllm:num_preemptions_total')],
  prefixCacheHitsTotal: [pick('vllm:prefix_cache_hits_total'), pick('vllm:gpu_prefix_cache_hits_total')],
  prefixCacheQueriesTotal: [
    pick('vllm:prefix_cache_queries_total'),
    pick('vllm:gpu_prefix_cache_queries_total'),
  ],
  prefixCacheHitRate: [mean('vllm:gpu_prefix_cache_hit_rate', { validMin: 0 })],
};

export const PROFILES: Record<ProfileId, ServerProfile> = {
  'vllm-v1': {
    id: 'vllm-v1',
    label: 'vLLM (V1 engine)',
    modelLabel: 'model_name',
    scalars: {
      ...VLLM_COMMON,
      kvCacheUsage: [mean('vllm:kv_cache_usage_perc'), mean('vllm:gpu_cache_usage_perc')],
    },
    histograms: {
      ttftHistogram: hist('vllm:time_to_first_token_seconds'),
      itlHistogram: hist('vllm:inter_token_latency_seconds', 'vllm:time_per_output_token_seconds'),
      e2eHistogram: hist('vllm:e2e_request_latency_seconds'),
      queueTimeHistogram: hist('vllm:request_queue_time_seconds'),
    },
    notes: {
      prefixCacheHitRate: 'V1 exposes hits/queries counters (tokens): the rate is their delta ratio.',
    },
  },
  'vllm-v0': {
    id: 'vllm-v0',
    label: 'vLLM (V0 engine)',
    modelLabel: 'model_name',
    scalars: {
      ...VLLM_COMMON,
      kvCacheUsage: [mean('vllm:gpu_cache_usage_perc'), mean('vllm:kv_cache_usage_perc')],
    },
    histograms: {
      ttftHistogram: hist('vllm:time_to_first_token_seconds'),
      itlHistogram: hist('vllm:time_per_output_token_seconds', 'vllm:inter_token_latency_seconds'),
      e2eHistogram: hist('vllm:e2e_request_latency_seconds'),
      queueTimeHistogram: hist('vllm:request_queue_time_seconds'),
    },
    notes: { prefixCacheHitRate: 'GPU prefix-cache block hit rate; absent (-1) when prefix caching is off.' },
  },
  sglang: {
    id: 'sglang',
    label: 'SGLang',
    modelLabel: 'model_name',
    scalars: {
      requestsRunning: [pick('sglang:num_running_reqs')],
      requestsWaiting: [pick('sglang:num_queue_reqs')],
      kvCacheUsage: [mean('sglang:token_usage')],
      promptTokensTotal: [pick('sglang:prompt_tokens_total')],
      generationTokensTotal: [pick('sglang:generation_tokens_total')],
      preemptionsTotal: [pick('sglang:num_retractions_sum')],
      prefixCacheHitRate: [mean('sglang:cache_hit_rate')],
      prefixCacheHitsTotal: [pick('sglang:cached_tokens_total')],
      prefixCacheQueriesTotal: [pick('sglang:prompt_tokens_total')],
    },
    histograms: {
      ttftHistogram: hist('sglang:time_to_first_token_seconds'),
      itlHistogram: hist('sglang:inter_token_latency_seconds', 'sglang:time_per_output_token_seconds'),
      e2eHistogram: hist('sglang:e2e_request_latency_seconds'),
      // python/sglang/srt/metrics/collector.py (current): queue_time_seconds, the time a request
      // waited in the scheduler's queue; older versions have none (the note says so).
      queueTimeHistogram: hist('sglang:queue_time_seconds'),
    },
    notes: {
      preemptionsTotal: 'Retractions (SGLang preemption) of finished requests: sglang:num_retractions_sum.',
      itlHistogram: 'Observations are batched: one bucket increment per step, weighted by new tokens.',
      queueTimeHistogram:
        'sglang:queue_time_seconds: current SGLang only; older versions expose no queue-time histogram.',
    },
  },
  tgi: {
    id: 'tgi',
    label: 'TGI',
    modelLabel: null,
    scalars: {
      requestsRunning: [pick('tgi_batch_current_size')],
      requestsWaiting: [pick('tgi_queue_size')],
      kvCacheUsage: [
        { op: 'ratio', num: pick('tgi_batch_current_max_tokens'), den: pick('tgi_batch_max_total_tokens') },
      ],
      promptTokensTotal: [pick('tgi_request_input_length_sum')],
      generationTokensTotal: [pick('tgi_request_generated_tokens_sum')],
    },
    histograms: {
      itlHistogram: hist('tgi_request_mean_time_per_token_duration'),
      e2eHistogram: hist('tgi_request_duration'),
      queueTimeHistogram: hist('tgi_request_queue_duration'),
    },
    notes: {
      kvCacheUsage: 'Proxy: tokens reserved by the current batch / max total tokens.',
      itlHistogram: 'Per-request mean time per token, not per-gap.',
      promptTokensTotal: 'Sum of the input-length histogram: finished requests only.',
      generationTokensTotal: 'Sum of the generated-tokens histogram: finished requests only.',
      ttftHistogram: 'TGI exposes no TTFT histogram.',
    },
    countedAtEnd: ['promptTokensTotal', 'generationTokensTotal'],
  },
  llamacpp: {
    id: 'llamacpp',
    label: 'llama.cpp',
    modelLabel: null,
    scalars: {
      requestsRunning: [pick('llamacpp:requests_processing')],
      requestsWaiting: [pick('llamacpp:requests_deferred')],
      kvCacheUsage: [pick('llamacpp:kv_cache_usage_ratio')],
      promptTokensTotal: [
        {
          op: 'sum',
          parts: [pick('llamacpp:prompt_tokens_total')],
          optional: [pick('llamacpp:prompt_tokens_cached_total')],
        },
      ],
      generationTokensTotal: [pick('llamacpp:tokens_predicted_total')],
      prefixCacheHitsTotal: [pick('llamacpp:prompt_tokens_cached_total')],
      prefixCacheQueriesTotal: [
        {
          op: 'sum',
          parts: [pick('llamacpp:prompt_tokens_total'), pick('llamacpp:prompt_tokens_cached_total')],
          optional: [],
        },
      ],
    },
    histograms: {},
    notes: {
      promptTokensTotal:
        'Newest builds count cache hits separately; both are added. Counters have 6 significant digits.',
      kvCacheUsage: 'Only legacy builds (kv_cache_usage_ratio) expose it.',
      generationTokensTotal:
        'tokens_predicted_total grows when a request completes, not per token: a long stream reads 0 tok/s, then a spike.',
    },
    countedAtEnd: ['generationTokensTotal'],
  },
  triton: {
    id: 'triton',
    label: 'Triton / TensorRT-LLM',
    modelLabel: 'model',
    scalars: {
      requestsRunning: [pick('nv_trt_llm_request_metrics', { match: { request_type: 'active' } })],
      requestsWaiting: [
        pick('nv_trt_llm_request_metrics', { match: { request_type: 'waiting' } }),
        pick('nv_inference_pending_request_count'),
      ],
      kvCacheUsage: [
        mean('nv_trt_llm_kv_cache_block_metrics', { match: { kv_cache_block_type: 'fraction' } }),
        {
          op: 'ratio',
          num: pick('nv_trt_llm_kv_cache_block_metrics', { match: { kv_cache_block_type: 'used' } }),
          den: pick('nv_trt_llm_kv_cache_block_metrics', { match: { kv_cache_block_type: 'max' } }),
        },
      ],
    },
    histograms: {
      ttftHistogram: [{ name: 'nv_inference_first_response_histogram_ms', scale: 0.001 }],
    },
    notes: {
      ttftHistogram: 'Opt-in (histogram_latencies=true); milliseconds converted to seconds.',
      e2eHistogram: 'Triton exposes cumulative µs counters, not histograms.',
    },
  },
  ...DISAGG_PROFILES,
  unknown: {
    id: 'unknown',
    label: 'Unknown server',
    modelLabel: null,
    scalars: {},
    histograms: {},
    notes: {},
  },
};

const PREFIXES: readonly (readonly [string, ProfileId])[] = [
  ['vllm:', 'vllm-v1'],
  ['vllm_', 'vllm-v1'], // OpenMetrics output of prometheus_client 0.26 mangles ':' (test-corpus/FORMATS.md §3.2)
  ['sglang:', 'sglang'],
  ['sglang_', 'sglang'],
  ['tgi_', 'tgi'],
  ['llamacpp:', 'llamacpp'],
  ['nv_inference_', 'triton'],
  ['nv_trt_llm_', 'triton'],
  ...DISAGG_PREFIXES,
];
const V1_MARKERS = [
  'kv_cache_usage_perc',
  'inter_token_latency_seconds',
  'prefix_cache_queries',
  'iteration_tokens_total',
];
const V0_MARKERS = [
  'num_requests_swapped',
  'cpu_cache_usage_perc',
  'avg_prompt_throughput_toks_per_s',
  'cpu_prefix_cache_hit_rate',
];

/** The server behind a /metrics body, from the prefixes of its family names (most families wins). */
export function detectProfileId(parsed: ParseResult | readonly MetricFamily[]): ProfileId {
  const families = 'families' in parsed ? parsed.families : parsed;
  const score = new Map<ProfileId, number>();
  for (const f of families) {
    for (const [prefix, id] of PREFIXES)
      if (f.name.startsWith(prefix)) score.set(id, (score.get(id) ?? 0) + 1);
  }
  let best: ProfileId = 'unknown';
  let bestScore = 0;
  for (const [id, n] of score) if (n > bestScore) [best, bestScore] = [id, n];
  if (best === 'sglang') return refineSglang(families);
  if (best !== 'vllm-v1') return best;
  // V1 vs V0: V1-only names (or an `engine` label) beat V0-only names; ambiguous means current (V1).
  const vllm = families.filter((f) => f.name.startsWith('vllm:') || f.name.startsWith('vllm_'));
  const names = vllm.map((f) => f.name.slice(5));
  const hasEngine = vllm.some((f) => f.samples.some((s) => 'engine' in s.labels));
  if (hasEngine || names.some((n) => V1_MARKERS.some((m) => n.startsWith(m)))) return 'vllm-v1';
  if (names.some((n) => V0_MARKERS.includes(n))) return 'vllm-v0';
  return 'vllm-v1';
}

export function detectProfile(parsed: ParseResult | readonly MetricFamily[]): ServerProfile {
  return PROFILES[detectProfileId(parsed)];
}
