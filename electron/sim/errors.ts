/**
 * Error responses sent before the stream starts, in each server's own shape
 * (test-corpus/FORMATS.md §2, bodies in test-corpus/sse/*-http-*.json):
 * - vLLM / OpenAI routes: `{"error":{"message","type","param","code"}}`, compact (Starlette
 *   JSONResponse); type names as vLLM uses them (BadRequestError, NotFoundError, ...);
 * - TGI: `{"error","error_type"}` (429 = overloaded); a body that is not JSON gets axum's
 *   422 text/plain;
 * - llama.cpp: `{"error":{"code","message","type"}}`, middleware errors (404, 503) ordered
 *   message/type/code; malformed JSON is a 500 server_error;
 * - Ollama: `{"error":"…"}`;
 * - Anthropic Messages: `{"type":"error","error":{"type","message"},"request_id"}` (§2.7).
 */
import type { DialectId } from '../../shared/dialects.ts';

export interface HttpError {
  status: number;
  contentType: string;
  body: string;
}

export interface ErrorDetail {
  message?: string;
  param?: string | null;
  model?: string;
  /** The response's `x-request-id` (Anthropic bodies echo it as `request_id`). */
  requestId?: string;
}

const JSON_CT = 'application/json';

const VLLM_TYPES: Record<number, string> = {
  400: 'BadRequestError',
  404: 'NotFoundError',
  429: 'RateLimitError',
  500: 'InternalServerError',
  503: 'ServiceUnavailableError',
};

/** Default messages, realistic for each status (the vLLM ones from its serving code). */
function vllmMessage(status: number, d: ErrorDetail): string {
  switch (status) {
    case 400:
      return "This model's maximum context length is 8192 tokens. However, your request has 9000 input tokens. Please reduce the length of the input messages.";
    case 404:
      return `The model \`${d.model ?? 'gpt-4o'}\` does not exist.`;
    case 429:
      return 'Too many requests: the server is at capacity. Please retry later.';
    case 503:
      return 'The server is unavailable: the engine is sleeping or shutting down.';
    default:
      return 'EngineCore encountered an issue. See stack trace (above) for the root cause.';
  }
}

function openaiError(status: number, d: ErrorDetail): HttpError {
  const error = {
    message: d.message ?? vllmMessage(status, d),
    type: VLLM_TYPES[status] ?? 'InternalServerError',
    param: d.param ?? (d.message === undefined && status === 400 ? 'input_tokens' : null),
    code: status,
  };
  return { status, contentType: JSON_CT, body: JSON.stringify({ error }) };
}

function tgiError(status: number, d: ErrorDetail): HttpError {
  const [error, errorType] =
    status === 429 || status === 503
      ? ['Model is overloaded', 'overloaded']
      : status === 400 || status === 422
        ? [
            `Input validation error: ${d.message ?? '`inputs` tokens + `max_new_tokens` must be <= 8192. Given: 8000 `inputs` tokens and 500 `max_new_tokens`'}`,
            'validation',
          ]
        : status === 404
          ? ['Not Found', 'not_found']
          : [
              'Request failed during generation: Server error: CUDA out of memory. Tried to allocate 2.00 GiB',
              'generation',
            ];
  return { status, contentType: JSON_CT, body: JSON.stringify({ error, error_type: errorType }) };
}

function llamacppError(status: number, d: ErrorDetail): HttpError {
  let error: Record<string, unknown>;
  if (status === 404) error = { message: 'File Not Found', type: 'not_found_error', code: 404 };
  else if (status === 503) error = { message: 'Loading model', type: 'unavailable_error', code: 503 };
  else if (status === 400 && d.message === undefined) {
    error = {
      code: 400,
      message: 'request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it',
      type: 'exceed_context_size_error',
      n_prompt_tokens: 9000,
      n_ctx: 8192,
    };
  } else if (status === 400) error = { code: 400, message: d.message, type: 'invalid_request_error' };
  else if (status === 429)
    error = { code: 429, message: d.message ?? 'Too many requests', type: 'unavailable_error' };
  else error = { code: status, message: d.message ?? 'Internal server error', type: 'server_error' };
  return { status, contentType: JSON_CT, body: JSON.stringify({ error }) };
}

function ollamaError(status: number, d: ErrorDetail): HttpError {
  const messages: Record<number, string> = {
    400: 'invalid request',
    404: `model '${d.model ?? 'llama3.3'}' not found`,
    429: 'too many requests, please try again later',
    500: 'an error was encountered while running the model',
    503: 'server busy, please try again.  maximum pending requests exceeded',
  };
  return {
    status,
    contentType: JSON_CT,
    body: JSON.stringify({ error: d.message ?? messages[status] ?? 'internal error' }),
  };
}

/** Anthropic's error types and messages by status (its API's "Errors" page; 529 is overloaded). */
const ANTHROPIC_ERRORS: Record<number, [type: string, message: string]> = {
  400: ['invalid_request_error', 'prompt is too long: 9000 tokens > 8192 maximum'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of requests has exceeded your rate limit. Please try again later.'],
  500: ['api_error', 'Internal server error'],
  503: ['overloaded_error', 'Overloaded'],
  529: ['overloaded_error', 'Overloaded'],
};

function anthropicError(status: number, d: ErrorDetail): HttpError {
  const [type, dflt] =
    status === 404
      ? ['not_found_error', `model: ${d.model ?? 'claude-3-opus-99999999'}`]
      : (ANTHROPIC_ERRORS[status] ?? ['api_error', 'Internal server error']);
  const body: Record<string, unknown> = { type: 'error', error: { type, message: d.message ?? dflt } };
  if (d.requestId !== undefined) body.request_id = `req_${d.requestId}`;
  return { status, contentType: JSON_CT, body: JSON.stringify(body) };
}

/** The error response a server of this dialect sends with `status`. */
export function httpError(dialect: DialectId, status: number, detail: ErrorDetail = {}): HttpError {
  switch (dialect) {
    case 'tgi':
      return tgiError(status, detail);
    case 'llamacpp':
      return llamacppError(status, detail);
    case 'ollama-generate':
    case 'ollama-chat':
      return ollamaError(status, detail);
    case 'anthropic-messages':
      return anthropicError(status, detail);
    default:
      return openaiError(status, detail);
  }
}

/** A request body that is not JSON, answered the way each server's framework does. */
export function badJsonError(dialect: DialectId, reason: string): HttpError {
  switch (dialect) {
    case 'tgi':
      return {
        status: 422,
        contentType: 'text/plain; charset=utf-8',
        body: `Failed to parse the request body as JSON: ${reason}`,
      };
    case 'llamacpp':
      return httpError(dialect, 500, { message: `[json.exception.parse_error.101] parse error: ${reason}` });
    case 'ollama-generate':
    case 'ollama-chat':
      return httpError(dialect, 400, { message: reason });
    case 'anthropic-messages':
      return httpError(dialect, 400, { message: `There was an error parsing the body: ${reason}` });
    default:
      return httpError(dialect, 400, { message: `JSON decode error: ${reason}`, param: null });
  }
}
