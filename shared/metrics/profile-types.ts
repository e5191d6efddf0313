/** Types of the server profiles (see profiles.ts): concepts, expressions, the profile shape. */
import type { Labels } from './prom-types.ts';

export type ProfileId =
  | 'vllm-v1'
  | 'vllm-v0'
  | 'sglang'
  | 'tgi'
  | 'llamacpp'
  | 'triton'
  // Disaggregated and routed serving (profiles-disagg.ts).
  | 'sglang-pd'
  | 'dynamo'
  | 'trtllm'
  | 'llm-d-epp'
  | 'unknown';

export type ScalarConcept =
  | 'requestsRunning'
  | 'requestsWaiting'
  /** 0–1. */
  | 'kvCacheUsage'
  | 'promptTokensTotal'
  | 'generationTokensTotal'
  | 'preemptionsTotal'
  /** 0–1, from a server-side gauge; for counter-based servers derive it from hits/queries deltas. */
  | 'prefixCacheHitRate'
  | 'prefixCacheHitsTotal'
  | 'prefixCacheQueriesTotal'
  | DisaggScalarConcept;

/**
 * Disaggregated serving (prefill and decode on different servers, the KV cache sent between them):
 * the queues a request passes on each side and the KV-transfer time. One block, see profiles-disagg.ts.
 */
export type DisaggScalarConcept =
  /** Prefill side: requests waiting for their decode peer's bootstrap/preallocation. */
  | 'prefillPreallocQueue'
  /** Prefill side: requests prefilled, their KV cache being sent. */
  | 'prefillInflightQueue'
  /** Decode side: requests waiting for KV-cache space to receive into. */
  | 'decodePreallocQueue'
  /** Decode side: requests whose KV cache is arriving. */
  | 'decodeTransferQueue'
  /** Counter pair for servers that count KV-transfer seconds and transfers instead of a histogram. */
  | 'kvTransferSecondsTotal'
  | 'kvTransfersTotal';
export const DISAGG_SCALAR_CONCEPTS: readonly DisaggScalarConcept[] = [
  'prefillPreallocQueue',
  'prefillInflightQueue',
  'decodePreallocQueue',
  'decodeTransferQueue',
  'kvTransferSecondsTotal',
  'kvTransfersTotal',
];
/** KV-transfer time per request, seconds. */
export type DisaggHistogramConcept = 'kvTransferHistogram';
const DISAGG_HISTOGRAM_CONCEPTS: readonly DisaggHistogramConcept[] = ['kvTransferHistogram'];

/** Histograms in seconds. */
export type HistogramConcept =
  'ttftHistogram' | 'itlHistogram' | 'e2eHistogram' | 'queueTimeHistogram' | DisaggHistogramConcept;
export type Concept = ScalarConcept | HistogramConcept;

export const SCALAR_CONCEPTS: readonly ScalarConcept[] = [
  'requestsRunning',
  'requestsWaiting',
  'kvCacheUsage',
  'promptTokensTotal',
  'generationTokensTotal',
  'preemptionsTotal',
  'prefixCacheHitRate',
  'prefixCacheHitsTotal',
  'prefixCacheQueriesTotal',
  ...DISAGG_SCALAR_CONCEPTS,
];
export const HISTOGRAM_CONCEPTS: readonly HistogramConcept[] = [
  'ttftHistogram',
  'itlHistogram',
  'e2eHistogram',
  'queueTimeHistogram',
  ...DISAGG_HISTOGRAM_CONCEPTS,
];

/** How a scalar is computed from samples (looked up by sample name, e.g. `x_total`, `x_sum`). */
export type Expr =
  | {
      op: 'pick';
      name: string;
      /** Only samples with these label values (e.g. Triton's request_type="active"). */
      match?: Labels;
      /** Across label sets (engines, models, GPUs): counts add up, fractions average. */
      agg: 'sum' | 'mean';
      /** Unit normalisation factor (µs → s is 1e-6). */
      scale: number;
      /** Values below this mean "disabled" (vLLM V0's prefix hit rate is -1 when off). */
      validMin?: number;
    }
  /** Sum of `parts` (all required) plus `optional` ones where present. */
  | { op: 'sum'; parts: readonly Expr[]; optional: readonly Expr[] }
  | { op: 'ratio'; num: Expr; den: Expr };

export interface HistogramSource {
  /** Family name (without `_bucket`). */
  name: string;
  /** Factor to seconds (ms → 0.001). */
  scale: number;
  /** Only series with these label values (SGLang's per-stage histogram: `stage`). */
  match?: Labels;
}

export interface ServerProfile {
  id: ProfileId;
  label: string;
  /** The label that names the model, for the model filter. */
  modelLabel: string | null;
  scalars: Partial<Record<ScalarConcept, readonly Expr[]>>;
  histograms: Partial<Record<HistogramConcept, readonly HistogramSource[]>>;
  /** Where a concept means something narrower than its name says. */
  notes: Partial<Record<Concept, string>>;
  /**
   * Counters the server adds a request's share to only when the request completes (llama.cpp's
   * tokens_predicted_total): their rate is 0 during a long stream, then a spike at its end.
   */
  countedAtEnd?: readonly ScalarConcept[];
}
