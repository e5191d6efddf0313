import type { DialectId } from './dialects.ts';
import type { ToolCallMade, ToolChoice, ToolSpec } from './tool-calls.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** An assistant turn's tool calls (agentic sessions), sent back as the dialect writes them. */
  toolCalls?: ToolCallMade[];
  /** A `tool` message: the call it answers. */
  toolCallId?: string;
}

/** An image sent with the prompt (electron/engine/dialects/images.ts puts it in the last user message). */
export interface RequestImage {
  mediaType: 'image/png' | 'image/jpeg';
  /** The encoded image in base64 (shared between requests that send the same image: never copied per request). */
  base64: string;
}

/** Sampling and length parameters, mapped by each dialect to its own field names. */
export interface SamplingParams {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  ignoreEos?: boolean;
  minTokens?: number;
  stop?: string[];
}

/** Everything needed to fire one streaming request. Plain data: it crosses IPC and goes into run files (minus secrets). */
export interface RequestSpec {
  /** Base URL of the server (the dialect adds its path) or a full endpoint URL. */
  url: string;
  dialect: DialectId;
  model: string;
  /** For completion-style dialects; chat dialects wrap it as one user message when `messages` is absent. */
  prompt?: string;
  messages?: ChatMessage[];
  /** Images with the prompt (openai-chat, anthropic-messages; workload `images`). */
  images?: RequestImage[];
  /**
   * Non-streaming dialects: the embeddings batch (every input of one request; without it `prompt`
   * alone is a batch of one), or the documents a rerank scores against `prompt`, its query.
   */
  inputs?: string[];
  /** Rerank: how many of the best documents the server returns (absent: all of them). */
  topN?: number;
  params?: SamplingParams;
  /** Merged last into the request body, so it can override anything the dialect built. */
  extraBody?: Record<string, unknown>;
  /** Extra HTTP headers. Secrets go in `apiKey`, never here when the spec is stored. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer …` (anthropic-messages: `x-api-key`). Never written to run files or logs. */
  apiKey?: string;
  /** OpenAI dialects: inject `stream_options.include_usage` (default true). */
  includeUsage?: boolean;
  /** OpenAI dialects: inject `stream_options.continuous_usage_stats` (vLLM only). Default: off. */
  continuousUsage?: boolean;
  /** Whole-request timeout (ms). Default 300 000. */
  timeoutMs?: number;
  /** Fails the request when no byte arrives for this long (ms). Default: off. */
  idleTimeoutMs?: number;
  /** Skip TLS verification (explicit opt-out). */
  insecureTls?: boolean;
  /**
   * Send a fresh W3C `traceparent` (sampled) and an `x-request-id` with the request (default
   * true); headers the user set themselves win.
   */
  traceHeaders?: boolean;
  /** Function tools offered (chat, Anthropic Messages and Responses dialects) and how the model may pick. */
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
}

export interface Usage {
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  cachedTokens?: number | null;
  /**
   * Of completionTokens, the reasoning ones, when the server says (OpenAI-style
   * `completion_tokens_details.reasoning_tokens`, Responses `output_tokens_details.reasoning_tokens`).
   */
  reasoningTokens?: number | null;
}

/** Bit flags of one event in the columnar record. */
export const EV_CONTENT = 1; // carries at least one generated token (text, reasoning or tool-call delta)
export const EV_COALESCED = 2; // shared its socket read with another event, so its time is that read's
export const EV_TOKENS_EXACT = 4; // the token count of this event came from the server
export const EV_ERROR = 8; // an in-band error event
export const EV_USAGE = 16; // carries usage
export const EV_TERMINAL = 32; // the dialect's proper end marker ([DONE], done:true, stop:true, …)
export const EV_FINISH = 64; // carries a finish reason
/**
 * An OpenAI chunk with a non-empty `choices` array (role-only and finish chunks included; the
 * trailing usage chunk and error events have none): what vLLM's benchmark client counts as a
 * token chunk (shared/runs/summary/definitions.ts). Absent in files written before it existed.
 */
export const EV_CHOICES = 128;
/**
 * A content event that carried reasoning (vLLM/SGLang `reasoning`/`reasoning_content`, Ollama
 * `thinking`, Responses reasoning deltas, Anthropic `thinking_delta`) and no answer text or tool
 * call: the reasoning phase. A content event without it is part of the answer (an event carrying
 * both is the answer's first). Absent in files written before it existed: every content event
 * there counts as answer. The first flag past 8 bits: the flags column is 16-bit.
 */
export const EV_REASONING = 256;
/**
 * A content event that carried a tool-call delta (a function name or an argument fragment):
 * time to first tool-call token and the argument deltas' ITL are read from these
 * (shared/runs/summary/tool-calls.ts). Absent in files written before it existed.
 */
export const EV_TOOL = 512;

/** Kind of source of the output token count (docs/ARCHITECTURE.md "tokens per event"). Never mixed silently. */
export type TokenSource =
  /** The server said how many tokens each event carried (vLLM continuous usage, TGI, llama.cpp counters). */
  | 'per-event'
  /** The server gave only the total (final usage); per-event counts are 1 per content event, reconciled. */
  | 'usage-total'
  /** Nothing from the server: 1 token per content event. */
  | 'estimated';

/** Times of the phases of one request, ms since the request started (before connect). null = not reached. */
export interface Phases {
  /** TCP (and TLS) connection established; 0-ish for a reused socket. */
  connectedMs: number | null;
  /** The whole request body was handed to the socket. */
  requestWrittenMs: number | null;
  /** Response status line and headers parsed. */
  headersMs: number | null;
  /** First byte of the response body. */
  firstByteMs: number | null;
  /** The stream ended (cleanly or not). */
  endMs: number | null;
}
