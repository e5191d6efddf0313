/**
 * The simulator's per-request spans, shaped as vLLM's: with an OTLP endpoint configured, every
 * request that finishes (stop or length) is exported as one `llm_request` span, kind SERVER,
 * starting at its arrival, with vLLM's attributes in seconds — the ones `OutputProcessor.do_tracing`
 * sets (vllm/v1/engine/output_processor.py; names from `SpanAttributes`, vllm/tracing.py). The
 * span continues the caller's W3C `traceparent`, as vLLM's `extract_trace_context` does. Sent
 * with the official OpenTelemetry JS exporter, protobuf or JSON over HTTP, so Tokenscope's receiver
 * is tested against a real OTLP client.
 *
 * The same numbers are the simulator's ground truth of the phases (`SimPhases`): the sim has no
 * preprocessing, so vLLM's queued_ts is the arrival here, scheduled_ts the step that admitted it.
 */
import { ROOT_CONTEXT, SpanKind, defaultTextMapGetter, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SimPhases } from './types.ts';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** What a finished sequence tells: its times on the sim's performance.now() clock. */
export interface FinishedSeq {
  spec: {
    requestId: string;
    promptTokens: number;
    maxTokens: number;
    arrivalMs: number;
    traceparent?: string;
    imageTokens?: number;
  };
  generated: number;
  admittedMs: number;
  firstTokenMs: number;
  lastTokenMs: number;
}

const wall = (ms: number): number => performance.timeOrigin + ms;

/** vLLM's per-request times of a sequence that ended at `nowMs` (output_processor.py `do_tracing`). */
export function simPhasesOf(seq: FinishedSeq, nowMs: number): SimPhases {
  const a = seq.spec.arrivalMs;
  return {
    requestId: seq.spec.requestId,
    traceparent: seq.spec.traceparent ?? null,
    arrivalWallMs: wall(a),
    endWallMs: wall(nowMs),
    queueMs: seq.admittedMs - a,
    prefillMs: seq.firstTokenMs - seq.admittedMs,
    decodeMs: seq.lastTokenMs - seq.firstTokenMs,
    inferenceMs: seq.lastTokenMs - seq.admittedMs,
    ttftMs: seq.firstTokenMs - a,
    e2eMs: nowMs - a,
    promptTokens: seq.spec.promptTokens,
    completionTokens: seq.generated,
    ...(seq.spec.imageTokens ? { imageTokens: seq.spec.imageTokens } : {}),
  };
}

export class SimTracer {
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;
  private readonly propagator = new W3CTraceContextPropagator();

  constructor(endpoint: string, protocol: OtlpProtocol, model: string) {
    const exporter =
      protocol === 'http/json' ? new JsonExporter({ url: endpoint }) : new ProtoExporter({ url: endpoint });
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'tokenscope-sim', 'gen_ai.response.model': model }),
      // Short delay: a run's spans arrive a moment after its last request (vLLM's SDK default is 5 s).
      spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 100, maxQueueSize: 65_536 })],
    });
    this.tracer = this.provider.getTracer('vllm.llm_engine');
  }

  /** One span for a finished request (vLLM `instrument_manual(span_name="llm_request", …)`). */
  finished(p: SimPhases, maxTokens: number): void {
    const parent = p.traceparent
      ? this.propagator.extract(ROOT_CONTEXT, { traceparent: p.traceparent }, defaultTextMapGetter)
      : ROOT_CONTEXT;
    const s = (ms: number): number => ms / 1000;
    const span = this.tracer.startSpan(
      'llm_request',
      {
        kind: SpanKind.SERVER,
        startTime: p.arrivalWallMs,
        attributes: {
          'gen_ai.latency.time_to_first_token': s(p.ttftMs),
          'gen_ai.latency.e2e': s(p.e2eMs),
          'gen_ai.latency.time_in_queue': s(p.queueMs),
          'gen_ai.usage.prompt_tokens': p.promptTokens,
          'gen_ai.usage.completion_tokens': p.completionTokens,
          'gen_ai.latency.time_in_model_prefill': s(p.prefillMs),
          'gen_ai.latency.time_in_model_decode': s(p.decodeMs),
          'gen_ai.latency.time_in_model_inference': s(p.inferenceMs),
          'gen_ai.request.id': p.requestId,
          'gen_ai.request.max_tokens': maxTokens,
        },
      },
      parent,
    );
    span.end(p.endWallMs);
  }

  /** Sends what is queued (the run's last spans) and stops. */
  async close(): Promise<void> {
    try {
      await this.provider.forceFlush();
    } finally {
      await this.provider.shutdown();
    }
  }
}
