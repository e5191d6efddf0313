import type { DialectId } from '../../../shared/dialects.ts';
import type { RequestError } from '../../../shared/errors.ts';
import type { RequestRecord } from '../../../shared/record.ts';
import type { RequestSpec, Usage } from '../../../shared/request.ts';

/** One framed event, as the framer produced it: SSE event type + data, or one NDJSON line. */
export interface Frame {
  /** SSE `event:` type ('message' by default); 'message' for NDJSON lines. */
  event: string;
  data: string;
}

/**
 * What one frame means, decoded by a dialect. Decoders never throw: bad JSON becomes
 * `{ kind: 'invalid' }` with a reason, and the engine classifies it as a protocol error.
 */
export interface DecodedEvent {
  /**
   * - content: carries generated output (text, reasoning or tool-call deltas; at least one token)
   * - empty: a well-formed event with no generated token (role-only first chunk, empty text, TGI keep-alive data)
   * - meta: lifecycle events with no output (Responses `response.created`, …)
   * - usage: a usage-only event (OpenAI `choices: []` chunk)
   * - done: a terminator with no payload (`[DONE]`)
   * - error: an in-band error event (server error)
   * - invalid: the frame could not be decoded (bad JSON, wrong shape)
   */
  kind: 'content' | 'empty' | 'meta' | 'usage' | 'done' | 'error' | 'invalid';
  /** Generated text delta ('' when none). For cumulative formats (SGLang native) already delta-ized. */
  text: string;
  /** Reasoning/thinking delta, kept apart from `text` (still counts as generated output). */
  reasoning?: string;
  /**
   * Tool-call delta (function name and/or argument fragment), kept apart from `text` so the
   * answer text stays clean; still generated output, so the event is 'content'.
   */
  toolCall?: string;
  /**
   * The same tool-call deltas, by call: which call (`index`: OpenAI's `tool_calls[].index`,
   * Anthropic's content block, Responses' output item), its id and name when this delta names
   * them, and its argument fragment. The engine concatenates the fragments per call. Lifecycle
   * events that open a call (Anthropic `content_block_start` tool_use, Responses
   * `output_item.added` function_call) carry one with empty `args` and stay 'meta'.
   */
  toolDeltas?: ToolDelta[];
  /**
   * Tokens in this event when the server says exactly (TGI: 1 per event; llama.cpp `tokens`
   * / `tokens_predicted` delta; vLLM continuous usage delta; SGLang `completion_tokens` delta);
   * null when unknown (the engine then estimates 1 per content event).
   */
  tokens: number | null;
  /** finish reason if this event carries one ("stop", "length", "eos_token", …). */
  finishReason?: string | null;
  /** Usage if this event carries it (final usage chunk, continuous usage, Ollama final counts). */
  usage?: Usage;
  /** OpenAI chunks: the chunk had a non-empty `choices` array (EV_CHOICES). */
  choices?: boolean;
  /** True when this event is the dialect's proper end of stream ([DONE], done:true, stop:true, response.completed…). */
  terminal?: boolean;
  /** For kind 'error': the server's message and type/code as given. */
  error?: { message: string; type?: string; code?: string | number };
  /** For kind 'invalid': why. */
  invalidReason?: string;
  /** The model the response names (OpenAI chunks' and Ollama lines' `model`, Anthropic's message_start). */
  model?: string;
  /** The response's own id (OpenAI chunks' `id`, e.g. vLLM's `chatcmpl-<request id>`). */
  responseId?: string;
}

export interface ToolDelta {
  index: number;
  id?: string;
  name?: string;
  args: string;
}

/** Stateful per-request decoder (some formats are cumulative or counted). */
export interface EventDecoder {
  decode(frame: Frame): DecodedEvent;
}

/**
 * The response content types a dialect's stream may carry: a 200 whose Content-Type contains none
 * of `accepted` (lower-case substrings) is kept going (some proxies relabel) but reported, naming
 * `expected`.
 */
export interface StreamContentType {
  expected: string;
  accepted: readonly string[];
}

export interface Dialect {
  id: DialectId;
  framing: 'sse' | 'ndjson';
  contentType: StreamContentType;
  /** The proper end of the stream in words, for the error when a stream ends without it. */
  terminator: string;
  /** Path appended to a base URL. */
  path: string;
  /** Build the JSON request body (without extraBody; the engine merges that last). */
  buildBody(spec: RequestSpec): Record<string, unknown>;
  createDecoder(): EventDecoder;
  /**
   * Set for a dialect whose answer is one JSON document, not a stream (embeddings, rerank): the
   * engine collects the 2xx body whole (bounded) and hands it here at its end. It fills the
   * record (usage, batch, model) and answers the error when the body is not what the dialect
   * promises, or null. Only the end-to-end time is measured: there is no token to time.
   */
  readResponse?(rec: RequestRecord, spec: RequestSpec, body: NonStreamedBody): RequestError | null;
}

/** A non-streamed answer's body as the engine collected it. */
export interface NonStreamedBody {
  text: string;
  /** Bytes the server sent: more than `text` holds when the body was past the engine's cap. */
  size: number;
  /** When the body ended, ms since the request started. */
  atMs: number;
}
