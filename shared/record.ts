import type { DialectId } from './dialects.ts';
import type { RequestError } from './errors.ts';
import { EventColumns, type EventColumnsData } from './event-columns.ts';
import type { Phases, TokenSource, Usage } from './request.ts';
import type { ToolCallRecord } from './tool-calls.ts';
import type { PooledAnswer } from './pooled-answer.ts';

/**
 * Everything the engine measured about one request. Times are ms since the request started
 * (taken before connect) on a monotonic clock; `startedAtWall` only labels it.
 * Secrets never appear here: `url` has no credentials and headers are not kept.
 */
export interface RequestRecord {
  id: string;
  /** The endpoint actually requested (credentials stripped). */
  url: string;
  dialect: DialectId;
  model: string;
  startedAtWall: number;
  phases: Phases;
  status: number | null;
  contentType: string | null;
  /**
   * The model the response named (first one seen), when it named one. A server that serves what it
   * has loaded whatever was asked (llama.cpp) answers with another name than `model`.
   */
  responseModel?: string;
  /** The server's request id header (x-request-id), if it sent one. */
  serverRequestId: string | null;
  /** The response's own id in the stream (OpenAI chunks' `id`), first one seen. */
  responseId?: string;
  /** The trace context this request was sent with (absent: trace headers off). */
  trace?: TraceContext;
  events: EventColumnsData;
  /** Raw data of each event (same index as events), when kept. */
  raw: string[] | null;
  text: string;
  reasoning: string;
  finishReason: string | null;
  usage: Usage | null;
  tokenSource: TokenSource;
  /**
   * max_tokens the request asked for (absent or null: none): what a server's token counts are
   * checked against (shared/stats/token-bounds.ts).
   */
  maxTokens?: number | null;
  bytes: number;
  /** The request body's bytes, kept for requests that carried images (absent otherwise). */
  requestBytes?: number;
  reads: number;
  /** The stream ended with the dialect's proper terminator. */
  terminated: boolean;
  error: RequestError | null;
  /**
   * performance.now() of the measuring process when the request was started on its connection:
   * the zero of every time above (absent in records rebuilt from files or imports).
   */
  startMono?: number;
  /** How its connection went (absent where not known). */
  connection?: ConnectionInfo;
  /**
   * The record reached its per-request size limit for kept text: raw event data and output text
   * past it were not kept (every event's time and tokens still were). Absent: everything kept.
   */
  textCapped?: boolean;
  /**
   * A non-streaming answer (embeddings, rerank): how many inputs the request carried and what came
   * back (electron/engine/dialects/pooling.ts). Absent for streams.
   */
  batch?: BatchInfo;
  /** The answer's tool calls, put together from their deltas (absent: none). */
  toolCalls?: ToolCallRecord[];
  /** A non-streamed answer's readable digest, for the debugger (kept with raw data only). */
  answer?: PooledAnswer;
}

/** One embeddings or rerank request's batch: inputs sent, results received. */
interface BatchInfo {
  /** Inputs in the request: embeddings' `input` items, a rerank's documents. */
  inputs: number;
  /** Results in the answer: embeddings, or scored documents (top_n may ask for fewer). */
  results: number;
  /** Embeddings: the length of the vectors (null when they came base64-encoded or not at all). */
  dimension?: number | null;
}

/**
 * What a request carried for correlation: a W3C `traceparent` (version 00, this trace and the
 * client's span, sampled) and an `x-request-id` (https://www.w3.org/TR/trace-context/).
 */
export interface TraceContext {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** The client's span id, the server span's parent: 16 lowercase hex digits. */
  spanId: string;
  /** The `x-request-id` sent. */
  requestId: string;
}

interface ConnectionInfo {
  /** It was sent on a pooled connection that an earlier request had used. */
  reused: boolean;
  /**
   * Sent again on a new connection because the reused one failed before any response byte (the
   * server had closed it): 0 or 1. The first attempt's failure is in `retryReason`.
   */
  retries: number;
  retryReason: string | null;
}

/**
 * A record before anything arrived: no phases, no status, no events, no error. `p` names the
 * request and overrides any field (the engine's start, a replay's, a failure before start).
 */
export function newRecord(
  p: Pick<RequestRecord, 'id' | 'url' | 'dialect' | 'model' | 'startedAtWall'> & Partial<RequestRecord>,
): RequestRecord {
  return {
    phases: { connectedMs: null, requestWrittenMs: null, headersMs: null, firstByteMs: null, endMs: null },
    status: null,
    contentType: null,
    serverRequestId: null,
    events: p.events ?? new EventColumns(),
    raw: null,
    text: '',
    reasoning: '',
    finishReason: null,
    usage: null,
    tokenSource: 'estimated',
    bytes: 0,
    reads: 0,
    terminated: false,
    error: null,
    ...p,
  };
}
