/**
 * Public types of the built-in simulator (electron/sim). The simulator is both our test server
 * and the app's demo target, so its options mirror a real vLLM deployment's knobs
 * (`--max-num-seqs`, `--stream-interval`, KV capacity) plus fault and replay controls.
 */
import type { FaultSpec } from './faults.ts';
import type { SpecConfig, SpecCounts } from './spec-decode.ts';
import type { DisaggTruth } from './metrics-disagg.ts';

export interface ReplayOptions {
  /** A captured body, e.g. any file in test-corpus/sse/ (.sse, .ndjson or .json). */
  file: string;
  /** Gap between events in 'interval' timing (default 20 ms). */
  intervalMs?: number;
  /** 'original' uses timestamps found in the events (Ollama `created_at`), else the interval. */
  timing?: 'original' | 'interval';
}

export interface SimOptions {
  host?: string;
  /**
   * Host names besides loopback, IP literals and `host` that requests may carry (sim/guard.ts):
   * e.g. the name a container network gives the simulator.
   */
  allowedHosts?: string[];
  port?: number;
  model?: string;
  /** Same seed + same requests => same token text, counts and timing decisions. */
  seed?: number;
  /** Max sequences in the running batch (vLLM `--max-num-seqs`); others wait in a queue. */
  maxNumSeqs?: number;
  /** KV capacity in tokens; a request reserves prompt + max tokens while it runs. */
  kvCacheTokens?: number;
  /** Prefill cost per prompt token, added to the step that admits the request. */
  prefillMsPerToken?: number;
  /** Base decode step time. */
  decodeStepMs?: number;
  /** Added to the step time per running sequence: step time grows with the batch. */
  decodeStepPerSeqMs?: number;
  /** 0..1 relative jitter of step time (seeded). */
  jitter?: number;
  /** Tokens per chunk, like vLLM `--stream-interval` (the first token is always sent alone). */
  streamInterval?: number;
  /** max tokens when the request sets none. */
  defaultMaxTokens?: number;
  /** Fault applied to every request (per-request `x-sim-fault` wins). */
  fault?: FaultSpec | string | null;
  /** 0..1 probability (seeded) that the global fault applies to a request (default 1). */
  faultRate?: number;
  /** true: keep ground truth in memory; a string: also append JSONL to that path. */
  groundTruth?: boolean | string;
  replay?: ReplayOptions | null;
  /**
   * Behave like llama.cpp's server: advertise `Connection: keep-alive` and
   * `Keep-Alive: timeout=5, max=100`, then close the connection after every streamed response,
   * so a client that reuses the pooled socket is reset before any response byte (per request:
   * the fault `close-after-stream[:ms]`).
   */
  closeAfterStream?: boolean;
  /** How long after a stream's last byte its connection is closed (default 5 ms). */
  closeAfterStreamMs?: number;
  /**
   * Reasoning mode: every request reasons for this many tokens before its answer (default 0; per
   * request, the body field `sim_reasoning_tokens` wins), streamed in each dialect's reasoning field.
   */
  reasoningTokens?: number;
  /** Length of the vectors `/v1/embeddings` answers with (default 384; sim/pooling.ts). */
  embeddingDim?: number;
  /**
   * Of requests that offer function tools with tool_choice auto, the share answered with a tool
   * call (tool-calls.ts; default 0.8; "required" or a named tool: every one; "none": none).
   */
  toolCallShare?: number;
  /**
   * Automatic prefix caching, as vLLM's (default on): prompts' 16-token blocks are remembered (an
   * LRU as large as the KV cache) and a prompt's cached leading blocks are not prefilled again.
   */
  prefixCaching?: boolean;
  /**
   * Report the cached part of each prompt (`usage.prompt_tokens_details.cached_tokens` in the
   * OpenAI dialects, `input_tokens_details` in Responses). Default on; vLLM sends it only when
   * started with `--enable-prompt-tokens-details` (off: `prompt_tokens_details: null`, as vLLM
   * without that flag).
   */
  promptTokensDetails?: boolean;
  /**
   * The cache endpoints benchmarks call between runs (default on): vLLM's `POST
   * /reset_prefix_cache` (vLLM serves it only with VLLM_SERVER_DEV_MODE=1) and SGLang's
   * `GET|POST /flush_cache` (refused with 400 while requests run or wait, as SGLang does).
   */
  cacheEndpoints?: boolean;
  /** GPUs of the synthetic dcgm-exporter at `/gpu-metrics` (default 1; 0: no such route). */
  gpus?: number;
  /** false: its GPUs publish no energy counter (only power), as some exporters' counter sets. */
  gpuEnergyCounter?: boolean;
  /**
   * Export a vLLM-shaped span per finished request to this OTLP/HTTP traces endpoint (e.g.
   * http://127.0.0.1:4318/v1/traces; sim/tracing.ts). Default: none.
   */
  otlpEndpoint?: string | null;
  /** The export's encoding (default http/protobuf, as vLLM's exporter). */
  otlpProtocol?: 'http/protobuf' | 'http/json';
  /**
   * Speculative mode (sim/spec-decode.ts): draft tokens verified per decode step (vLLM
   * `num_speculative_tokens`; default 0: off).
   */
  specK?: number;
  /** Acceptance probability per draft position given the ones before it were accepted (the last repeats). */
  specAccept?: number[];
  /**
   * Disaggregated mode: prefill and decode as two servers, each request's KV cache sent between
   * them for this long (ms) after its first token, before it decodes; the sides' metrics at
   * `/metrics/prefill` and `/metrics/decode` (sim/metrics-disagg.ts). Default null: off.
   */
  kvTransferMs?: number | null;
  /**
   * More model names served (a model mix's target: sim/models.ts), each on an engine of its own at
   * `speedup` × the first model's speed. Default none.
   */
  extraModels?: { name: string; speedup: number }[];
  log?: (line: string) => void;
}

/** Options with every default filled in (what the server actually runs with). */
export interface ResolvedSimOptions {
  host: string;
  allowedHosts: string[];
  port: number;
  model: string;
  /** More names served, each on its own engine (sim/models.ts). */
  extraModels: { name: string; speedup: number }[];
  seed: number;
  maxNumSeqs: number;
  kvCacheTokens: number;
  prefillMsPerToken: number;
  decodeStepMs: number;
  decodeStepPerSeqMs: number;
  jitter: number;
  streamInterval: number;
  defaultMaxTokens: number;
  fault: FaultSpec | null;
  faultRate: number;
  groundTruth: boolean | string;
  replay: Required<ReplayOptions> | null;
  closeAfterStream: boolean;
  closeAfterStreamMs: number;
  reasoningTokens: number;
  embeddingDim: number;
  toolCallShare: number;
  prefixCaching: boolean;
  promptTokensDetails: boolean;
  cacheEndpoints: boolean;
  gpus: number;
  gpuEnergyCounter: boolean;
  otlpEndpoint: string | null;
  otlpProtocol: 'http/protobuf' | 'http/json';
  /** Speculative mode; null: off. */
  spec: SpecConfig | null;
  kvTransferMs: number | null;
  log: (line: string) => void;
}

/**
 * The phases of one finished request as the simulator ran them (its ground truth, kept with
 * groundTruth on) — the numbers its vLLM-shaped span carries (sim/tracing.ts). Times in ms.
 */
export interface SimPhases {
  /** The response's x-request-id. */
  requestId: string;
  /** The traceparent the request came with, if any. */
  traceparent: string | null;
  arrivalWallMs: number;
  endWallMs: number;
  queueMs: number;
  prefillMs: number;
  decodeMs: number;
  inferenceMs: number;
  ttftMs: number;
  e2eMs: number;
  promptTokens: number;
  completionTokens: number;
  /** Of promptTokens, the images' (sim/images.ts); absent: none. */
  imageTokens?: number;
}

export type GroundTruthKind = 'chunk' | 'usage' | 'done' | 'error';

/** One socket write of a streamed response, as the simulator issued it. */
export interface GroundTruthRecord {
  /** The response's `x-request-id` header. */
  requestId: string;
  /** 0-based index of the write within its response. */
  index: number;
  /** performance.now() in the sim process when the write was issued. */
  tMs: number;
  /** performance.timeOrigin + tMs. */
  wallMs: number;
  /** Generated tokens this write delivers (an EOS token counts, as vLLM's usage does). */
  tokens: number;
  bytes: number;
  kind: GroundTruthKind;
  /** Of `tokens`, reasoning ones (reasoning mode); absent: none. */
  reasoningTokens?: number;
  /** The write that carried the request's first answer token (after any reasoning). */
  firstAnswer?: true;
  /**
   * On a response's first write: performance.now() when its request had been read whole, so
   * tMs − arrivalMs is the server-side time to that write (a client's TTFT minus it is the client's
   * own share: sending, transit, reading and stamping).
   */
  arrivalMs?: number;
}

export type FinishReason = 'stop' | 'length';
/** vLLM's `finished_reason` label values (vllm:request_success_total). */
export type EndReason = FinishReason | 'abort' | 'error';

export interface SimState {
  running: number;
  waiting: number;
  /** KV blocks in use / total blocks (vllm:kv_cache_usage_perc). */
  kvCacheUsage: number;
  /** Tokens reserved by running sequences (prompt + max tokens), the admission budget. */
  kvReservedTokens: number;
  steps: number;
  requests: number;
  finished: Record<EndReason, number>;
  promptTokens: number;
  generationTokens: number;
  /** vllm:prefix_cache_queries / _hits: prompt tokens looked up, and found cached. */
  prefixCacheQueries: number;
  prefixCacheHits: number;
  /** Open HTTP responses that are still streaming. */
  activeStreams: number;
  /** Joules every synthetic GPU has drawn since start (null without GPUs). */
  gpuEnergyJ: number | null;
  /** Speculative mode's counters as its /metrics show them (null: mode off). */
  specDecode: SpecCounts | null;
  /** Disaggregated mode's KV transfers as charged (null when off). */
  disagg: DisaggTruth | null;
  /** Embeddings/rerank forward passes run, and the requests they answered (sim/pooling.ts). */
  pooling: { passes: number; served: number };
}

export interface SimServer {
  url: string;
  port: number;
  options: ResolvedSimOptions;
  state(): SimState;
  groundTruth(): GroundTruthRecord[];
  /** In-process servers with groundTruth on: every finished request's phases. */
  groundTruthPhases?(): SimPhases[];
  close(): Promise<void>;
}

/** vLLM's KV block size (vllm:cache_config_info block_size="16"). */
export const KV_BLOCK_TOKENS = 16;
