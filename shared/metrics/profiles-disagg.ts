/**
 * Server profiles of disaggregated and routed serving (issue 28 §4): a router or gateway in front,
 * prefill and decode on different servers, the KV cache sent between them. The names are read
 * from each project's source, not its docs (the source file is named at each profile); payloads
 * written from those definitions are in shared/metrics/fixtures/ (SOURCES.md there).
 *
 * A concept a server does not have is absent (the scrape says "not exposed", never 0); where a
 * concept means something narrower than its name, the profile's note says how.
 */
import type { MetricFamily } from './prom-types.ts';
import type { ProfileId, ServerProfile } from './profile-types.ts';
import { hist, mean, pick } from './profile-exprs.ts';

/**
 * SGLang with `--disaggregation-mode prefill|decode` (sgl-project/sglang:
 * python/sglang/srt/metrics/collector.py SchedulerMetricsCollector; the labels from
 * python/sglang/srt/managers/scheduler_metrics_mixin.py: model_name, engine_type =
 * "prefill" | "decode" | "unified", tp_rank, pp_rank, moe_ep_rank). The per-stage histogram's
 * stages are python/sglang/srt/managers/schedule_batch.py / tracing RequestStage names.
 */
const SGLANG_PD: ServerProfile = {
  id: 'sglang-pd',
  label: 'SGLang (prefill/decode disaggregated)',
  modelLabel: 'model_name',
  scalars: {
    requestsRunning: [pick('sglang:num_running_reqs')],
    requestsWaiting: [pick('sglang:num_queue_reqs')],
    kvCacheUsage: [mean('sglang:token_usage')],
    promptTokensTotal: [pick('sglang:prompt_tokens_total')],
    generationTokensTotal: [pick('sglang:generation_tokens_total')],
    prefixCacheHitRate: [mean('sglang:cache_hit_rate')],
    prefixCacheHitsTotal: [pick('sglang:cached_tokens_total')],
    prefixCacheQueriesTotal: [pick('sglang:prompt_tokens_total')],
    prefillPreallocQueue: [pick('sglang:num_prefill_prealloc_queue_reqs')],
    prefillInflightQueue: [pick('sglang:num_prefill_inflight_queue_reqs')],
    decodePreallocQueue: [pick('sglang:num_decode_prealloc_queue_reqs')],
    decodeTransferQueue: [pick('sglang:num_decode_transfer_queue_reqs')],
  },
  histograms: {
    ttftHistogram: hist('sglang:time_to_first_token_seconds'),
    itlHistogram: hist('sglang:inter_token_latency_seconds', 'sglang:time_per_output_token_seconds'),
    e2eHistogram: hist('sglang:e2e_request_latency_seconds'),
    queueTimeHistogram: hist('sglang:queue_time_seconds'),
    // Decode side: transfer queue entry → KV received; prefill side: the send of the KV cache.
    kvTransferHistogram: [
      { name: 'sglang:per_stage_req_latency_seconds', scale: 1, match: { stage: 'decode_transferred' } },
      {
        name: 'sglang:per_stage_req_latency_seconds',
        scale: 1,
        match: { stage: 'prefill_transfer_kv_cache' },
      },
    ],
  },
  notes: {
    kvTransferHistogram:
      'sglang:per_stage_req_latency_seconds{stage="decode_transferred"} on a decode server (transfer-queue entry to KV received), stage="prefill_transfer_kv_cache" on a prefill server; sglang:kv_transfer_latency_ms is only the last transfer.',
    prefillPreallocQueue: 'Prefill server only: requests waiting for the decode peer (bootstrap queue).',
    prefillInflightQueue: 'Prefill server only: prefilled requests whose KV cache is being sent.',
    decodePreallocQueue: 'Decode server only: requests waiting for KV-cache space to receive into.',
    decodeTransferQueue: 'Decode server only: requests whose KV cache is arriving.',
    requestsWaiting: "The server's own waiting queue (after the transfer on a decode server).",
    kvTransferSecondsTotal: 'SGLang has a histogram, not a counter pair.',
    kvTransfersTotal: 'SGLang has a histogram, not a counter pair.',
  },
};

/**
 * NVIDIA Dynamo's HTTP frontend (ai-dynamo/dynamo: lib/llm/src/http/service/metrics.rs, names
 * from lib/runtime/src/metrics/prometheus_names.rs `frontend_service`). It routes; it has no
 * engine, so no KV cache, queue-time histogram or KV transfer of its own.
 */
const DYNAMO: ServerProfile = {
  id: 'dynamo',
  label: 'NVIDIA Dynamo frontend',
  modelLabel: 'model',
  scalars: {
    requestsRunning: [pick('dynamo_frontend_inflight_requests')],
    requestsWaiting: [pick('dynamo_frontend_queued_requests')],
    promptTokensTotal: [pick('dynamo_frontend_input_sequence_tokens_sum')],
    generationTokensTotal: [pick('dynamo_frontend_output_tokens_total')],
  },
  histograms: {
    ttftHistogram: hist('dynamo_frontend_time_to_first_token_seconds'),
    itlHistogram: hist('dynamo_frontend_inter_token_latency_seconds'),
    e2eHistogram: hist('dynamo_frontend_request_duration_seconds'),
  },
  notes: {
    requestsRunning: 'Requests the frontend holds for the engines (inflight_requests), not a batch.',
    requestsWaiting:
      'Requests that have not had their first response yet (queued_requests): queue and prefill together.',
    promptTokensTotal: 'Sum of the input-sequence-length histogram.',
    kvCacheUsage: 'A frontend has no KV cache: read it on the workers.',
    queueTimeHistogram: 'The frontend exposes no queue-time histogram.',
    kvTransferHistogram: 'The frontend exposes no KV-transfer time: read it on the workers.',
  },
};

/**
 * trtllm-serve (NVIDIA/TensorRT-LLM: tensorrt_llm/metrics/collector.py MetricsCollector, labels
 * model_name and engine_type). Its Prometheus text is at `/prometheus/metrics`
 * (tensorrt_llm/serve/openai_server.py mounts it there); its `/metrics` is JSON iteration stats.
 */
const TRTLLM: ServerProfile = {
  id: 'trtllm',
  label: 'TensorRT-LLM (trtllm-serve)',
  modelLabel: 'model_name',
  scalars: {
    requestsRunning: [pick('trtllm_num_requests_running'), pick('trtllm:num_requests_running')],
    requestsWaiting: [pick('trtllm_num_requests_waiting'), pick('trtllm:num_requests_waiting')],
    kvCacheUsage: [mean('trtllm_kv_cache_utilization'), mean('trtllm:kv_cache_utilization')],
    promptTokensTotal: [pick('trtllm_prompt_tokens_total'), pick('trtllm:prompt_tokens_total')],
    generationTokensTotal: [pick('trtllm_generation_tokens_total'), pick('trtllm:generation_tokens_total')],
    prefixCacheHitRate: [mean('trtllm_kv_cache_hit_rate'), mean('trtllm:kv_cache_hit_rate')],
  },
  histograms: {
    ttftHistogram: hist('trtllm_time_to_first_token_seconds', 'trtllm:time_to_first_token_seconds'),
    itlHistogram: hist('trtllm_time_per_output_token_seconds', 'trtllm:time_per_output_token_seconds'),
    e2eHistogram: hist('trtllm_e2e_request_latency_seconds', 'trtllm:e2e_request_latency_seconds'),
    queueTimeHistogram: hist('trtllm_request_queue_time_seconds', 'trtllm:request_queue_time_seconds'),
  },
  notes: {
    itlHistogram: 'Time per output token: one observation per request (its mean), not per gap.',
    prefixCacheHitRate: 'KV-cache block hit rate (a gauge).',
    kvTransferHistogram: "trtllm-serve's collector has no KV-transfer metric.",
    prefillPreallocQueue: 'trtllm-serve exposes no disaggregation queues.',
    decodeTransferQueue: 'trtllm-serve exposes no disaggregation queues.',
  },
};

/**
 * The Gateway API Inference Extension's endpoint picker, llm-d's inference scheduler
 * (kubernetes-sigs/gateway-api-inference-extension: pkg/epp/metrics/metrics.go; the
 * `inference_model_*` names of earlier releases are the alternatives;
 * llm-d/llm-d-inference-scheduler: pkg/metrics/disagg_metrics.go adds
 * llm_d_inference_scheduler_disagg_decision_total). It sees requests pass, not the engines.
 */
const LLM_D_EPP: ServerProfile = {
  id: 'llm-d-epp',
  label: 'llm-d inference scheduler (Gateway API Inference Extension EPP)',
  modelLabel: 'model_name',
  scalars: {
    requestsRunning: [pick('inference_objective_running_requests'), pick('inference_model_running_requests')],
    requestsWaiting: [mean('inference_pool_average_queue_size')],
    kvCacheUsage: [mean('inference_pool_average_kv_cache_utilization')],
    promptTokensTotal: [
      pick('inference_objective_input_tokens_sum'),
      pick('inference_model_input_tokens_sum'),
    ],
    generationTokensTotal: [
      pick('inference_objective_output_tokens_sum'),
      pick('inference_model_output_tokens_sum'),
    ],
  },
  histograms: {
    e2eHistogram: hist(
      'inference_objective_request_duration_seconds',
      'inference_model_request_duration_seconds',
    ),
  },
  notes: {
    requestsRunning: 'Requests the gateway holds for the model (running_requests), not an engine batch.',
    requestsWaiting: "Mean of the pool's model servers' waiting queues (average_queue_size), not a sum.",
    kvCacheUsage: "Mean of the pool's model servers' KV-cache utilization.",
    promptTokensTotal: "Sum of the input-token histogram: recorded from each response's usage, at its end.",
    generationTokensTotal:
      "Sum of the output-token histogram: recorded from each response's usage, at its end.",
    e2eHistogram: 'Gateway request duration: from the request at the gateway to its response complete.',
    ttftHistogram: 'The endpoint picker exposes no TTFT histogram.',
    queueTimeHistogram: 'The endpoint picker exposes no queue-time histogram (only the pool mean queue).',
    itlHistogram: 'The endpoint picker exposes no inter-token histogram.',
    kvTransferHistogram: 'The endpoint picker routes prefill and decode; it does not see the transfer.',
  },
  countedAtEnd: ['promptTokensTotal', 'generationTokensTotal'],
};

export const DISAGG_PROFILES = {
  'sglang-pd': SGLANG_PD,
  dynamo: DYNAMO,
  trtllm: TRTLLM,
  'llm-d-epp': LLM_D_EPP,
} as const satisfies Partial<Record<ProfileId, ServerProfile>>;

/** Family-name prefixes of the servers above (most families wins, as for the others). */
export const DISAGG_PREFIXES: readonly (readonly [string, ProfileId])[] = [
  ['dynamo_frontend_', 'dynamo'],
  ['trtllm_', 'trtllm'],
  ['trtllm:', 'trtllm'], // as Dynamo's workers re-export them
  ['inference_objective_', 'llm-d-epp'],
  ['inference_model_', 'llm-d-epp'],
  ['inference_pool_', 'llm-d-epp'],
  ['inference_extension_', 'llm-d-epp'],
  ['llm_d_inference_scheduler_', 'llm-d-epp'],
  ['llm_d_epp_', 'llm-d-epp'], // the llm-d router's own subsystem in newer releases
];

/** SGLang names its role in `engine_type`: "prefill" or "decode" is a disaggregated server. */
export function refineSglang(families: readonly MetricFamily[]): ProfileId {
  for (const f of families) {
    if (!f.name.startsWith('sglang')) continue;
    for (const s of f.samples) {
      const role = s.labels['engine_type'];
      if (role === 'prefill' || role === 'decode') return 'sglang-pd';
    }
  }
  return 'sglang';
}
