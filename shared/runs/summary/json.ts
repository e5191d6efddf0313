/**
 * A run's summary as one flat JSON object (`tokenscope run --json`, `merge --json`): vLLM's keys
 * first, then Tokenscope's own in the same style. The text layout is text.ts.
 */
import type { BatchSummary } from './batch.ts';
import type { MetricStats, RunSummary } from './schema.ts';
import { turnLabel } from './by-turn.ts';
import { uploadJson } from './upload.ts';
import { byModelJson } from './by-model-text.ts';

/**
 * The summary as one flat JSON object: vLLM's keys and values (`completed`, `mean_ttft_ms`,
 * `p99.9_itl_ms`, …) first, then Tokenscope's own under names in the same style.
 *
 * `underVllm`: the same run re-derived under vLLM's preset (rederive.ts). Its numbers then fill
 * vLLM's keys — TTFT at the role chunk, every `choices` gap, latency to the last `choices` chunk —
 * so they compare one to one with `vllm bench serve`'s; the run under Tokenscope's definitions
 * follows under the same names prefixed `tokenscope_` (`tokenscope_mean_itl_ms`, …), and
 * `vllm_keys_definitions` says which preset made the unprefixed keys.
 */
export function summaryJson(
  s: RunSummary,
  extra: Record<string, unknown> = {},
  underVllm?: RunSummary,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(underVllm ?? s).vllm };
  if (underVllm) for (const [k, v] of Object.entries(s.vllm)) out[`tokenscope_${k}`] = v;
  const own = (metric: string, m: MetricStats | null): void => {
    if (!m) return;
    Object.assign(out, {
      [`mean_${metric}_ms`]: m.mean,
      [`median_${metric}_ms`]: m.median,
      [`std_${metric}_ms`]: m.std,
      [`p90_${metric}_ms`]: m.p90,
      [`p95_${metric}_ms`]: m.p95,
      [`p99_${metric}_ms`]: m.p99,
      [`p99.9_${metric}_ms`]: m.p999,
      [`max_${metric}_ms`]: m.max,
    });
  };
  own('itl_per_token', s.stats.itl_per_token);
  // Tokenscope's ITL per chunk (coalesced gaps left out), beside vLLM's `…_itl_ms` (every gap).
  if (s.coalesced) own('itl_excl_coalesced', s.stats.itl);
  own('client_queue_time', s.stats.client_queue_time);
  own('first_event', s.stats.first_event);
  own('ttfat', s.stats.ttfat ?? null);
  Object.assign(out, {
    // Embeddings and rerank (batch.ts): no TTFT/ITL/TPOT keys above, these instead.
    ...(s.batch ? batchJson(s.batch) : {}),
    ...(s.reasoning
      ? {
          total_reasoning_tokens: s.reasoning.reasoningTokens,
          total_answer_tokens: s.reasoning.answerTokens,
          reasoning_requests: s.reasoning.requests,
          reasoning_estimated_requests: s.reasoning.estimatedRequests,
        }
      : {}),
    ...(s.coalesced
      ? {
          coalesced_gaps: s.coalesced.gaps,
          total_gaps: s.coalesced.totalGaps,
          coalesced_gap_share: s.coalesced.share,
        }
      : {}),
    ...(s.byTurn
      ? {
          by_turn: s.byTurn.map((r) => ({
            turn: turnLabel(r),
            requests: r.requests,
            failed: r.failed,
            mean_input_tokens: r.meanInputTokens,
            mean_ttft_ms: r.ttft?.mean ?? null,
            median_ttft_ms: r.ttft?.median ?? null,
            p99_ttft_ms: r.ttft?.p99 ?? null,
            mean_e2el_ms: r.e2e?.mean ?? null,
            median_e2el_ms: r.e2e?.median ?? null,
            p99_e2el_ms: r.e2e?.p99 ?? null,
          })),
        }
      : {}),
    ...byModelJson(s),
    ...(s.tokens.peakEstimated
      ? { [`${underVllm ? 'tokenscope_' : ''}max_output_tokens_per_s_estimated`]: true }
      : {}),
    output_token_source: s.tokens.outputSource,
    input_token_source: { usage: s.tokens.inputFromUsage, estimated: s.tokens.inputEstimated },
    errors: s.errors,
    error_samples: s.errorSamples ?? {},
    slo: s.slo,
    good_requests: s.goodRequests,
    warmup_requests: s.warmupRequests,
    cancelled_requests: s.cancelledRequests,
    partial: s.partial,
    cancelled: s.cancelled,
    self_check: s.selfCheck,
    ...(s.replay
      ? {
          replay: {
            speedup: s.replay.speedup,
            requests: s.replay.requests,
            lag_p50_ms: s.replay.lagP50Ms,
            lag_p99_ms: s.replay.lagP99Ms,
            lag_max_ms: s.replay.lagMaxMs,
            lag_bound_ms: s.replay.boundMs,
            flagged: s.replay.flagged,
          },
        }
      : {}),
    ...(s.prefixCache
      ? {
          prefix_cache: {
            reported_requests: s.prefixCache.reported,
            hit_requests: s.prefixCache.hitRequests,
            cached_tokens: s.prefixCache.cachedTokens,
            prompt_tokens: s.prefixCache.promptTokens,
            hit_ratio: s.prefixCache.ratio,
            median_ttft_hit_ms: s.prefixCache.ttftHit?.median ?? null,
            median_ttft_miss_ms: s.prefixCache.ttftMiss?.median ?? null,
            p90_ttft_hit_ms: s.prefixCache.ttftHit?.p90 ?? null,
            p90_ttft_miss_ms: s.prefixCache.ttftMiss?.p90 ?? null,
            expected_cached_tokens: s.prefixCache.expected?.cachedTokens ?? null,
            expected_hit_ratio: s.prefixCache.expected?.ratio ?? null,
            server_hit_ratio: s.server?.prefixCache?.hitRate ?? null,
            server_hit_ratio_source: s.server?.prefixCache?.source ?? null,
          },
        }
      : {}),
    ...(s.upload ? { upload: uploadJson(s.upload) } : {}),
    server: s.server ?? null,
    source: s.source,
    definitions: s.definitions ?? 'tokenscope',
    vllm_keys_definitions: (underVllm ?? s).definitions ?? 'tokenscope',
    ...extra,
  });
  return out;
}

function batchJson(b: BatchSummary): Record<string, unknown> {
  return {
    total_inputs: b.inputs,
    mean_inputs_per_request: b.meanInputs,
    max_inputs_per_request: b.maxInputs,
    input_throughput: b.inputsPerS,
    input_token_throughput: b.inputTokensPerS,
    input_tokens_from: b.inputTokensFrom,
    embedding_dimension: b.dimension,
  };
}
