/**
 * The server's own account of one request, read from the span a vLLM-shaped server exports for
 * it. vLLM (V1) builds that span in `OutputProcessor.do_tracing` (vllm/v1/engine/output_processor.py)
 * with the attribute names of `SpanAttributes` (vllm/tracing.py), every latency in seconds:
 *   time_in_queue = scheduled_ts − queued_ts;   time_in_model_prefill = first_token_ts − scheduled_ts
 *   time_in_model_decode = last_token_ts − first_token_ts;   time_in_model_inference = last − scheduled
 *   time_to_first_token = first_token_ts − arrival_time;   e2e = finish − arrival_time
 * The span is `llm_request`, kind SERVER, starting at the request's arrival. Here in milliseconds.
 */
import { z } from 'zod';
import type { OtlpSpan } from './spans.ts';

/** vLLM's span attribute names (vllm/tracing.py `SpanAttributes`). */
const VLLM_SPAN = {
  name: 'llm_request',
  queue: 'gen_ai.latency.time_in_queue',
  ttft: 'gen_ai.latency.time_to_first_token',
  e2e: 'gen_ai.latency.e2e',
  prefill: 'gen_ai.latency.time_in_model_prefill',
  decode: 'gen_ai.latency.time_in_model_decode',
  inference: 'gen_ai.latency.time_in_model_inference',
  promptTokens: 'gen_ai.usage.prompt_tokens',
  completionTokens: 'gen_ai.usage.completion_tokens',
  requestId: 'gen_ai.request.id',
} as const;

const msN = z.number().min(0).max(1e10).nullable();

export const ServerPhasesSchema = z.object({
  spanId: z.string().max(64),
  /** The span's start (vLLM: the request's arrival at the server), wall ms since the epoch. */
  startWallMs: z.number(),
  endWallMs: z.number(),
  queueMs: msN,
  prefillMs: msN,
  decodeMs: msN,
  inferenceMs: msN,
  /** The server's TTFT: arrival → first token produced. */
  ttftMs: msN,
  e2eMs: msN,
  promptTokens: z.number().int().min(0).nullable(),
  completionTokens: z.number().int().min(0).nullable(),
  /** The server's request id (`gen_ai.request.id`). */
  requestId: z.string().max(1000).nullable(),
});
export type ServerPhases = z.infer<typeof ServerPhasesSchema>;

const secondsToMs = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v < 1e7 ? v * 1000 : null;
const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;

/** Whether a span carries any of vLLM's per-request latencies (other spans of a trace do not). */
export function isRequestSpan(s: OtlpSpan): boolean {
  return s.attributes[VLLM_SPAN.e2e] !== undefined || s.attributes[VLLM_SPAN.ttft] !== undefined;
}

export function serverPhasesOf(s: OtlpSpan): ServerPhases {
  const a = s.attributes;
  return {
    spanId: s.spanId,
    startWallMs: s.startWallMs,
    endWallMs: s.endWallMs,
    queueMs: secondsToMs(a[VLLM_SPAN.queue]),
    prefillMs: secondsToMs(a[VLLM_SPAN.prefill]),
    decodeMs: secondsToMs(a[VLLM_SPAN.decode]),
    inferenceMs: secondsToMs(a[VLLM_SPAN.inference]),
    ttftMs: secondsToMs(a[VLLM_SPAN.ttft]),
    e2eMs: secondsToMs(a[VLLM_SPAN.e2e]),
    promptTokens: count(a[VLLM_SPAN.promptTokens]),
    completionTokens: count(a[VLLM_SPAN.completionTokens]),
    requestId:
      typeof a[VLLM_SPAN.requestId] === 'string' ? (a[VLLM_SPAN.requestId] as string).slice(0, 1000) : null,
  };
}
