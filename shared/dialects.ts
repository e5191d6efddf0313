/**
 * The streaming dialects Tokenscope speaks. One id per wire format; the engine has one small
 * module per id (electron/engine/dialects/). Names are the CLI's `--dialect` values.
 */
export const DIALECT_IDS = [
  'openai-chat',
  'openai-completions',
  'openai-responses',
  'anthropic-messages',
  'tgi',
  'llamacpp',
  'ollama-generate',
  'ollama-chat',
  'openai-embeddings',
  'rerank',
] as const;

export type DialectId = (typeof DIALECT_IDS)[number];

/**
 * The dialects that answer with one JSON document, not a token stream (embeddings and rerank:
 * pooling models). Their runs measure latency, request and input-token throughput and batch sizes;
 * no TTFT, ITL or TPOT exists for them (docs/numbers.md "Embeddings and rerank").
 */
const NON_STREAMING_DIALECT_IDS = ['openai-embeddings', 'rerank'] as const satisfies readonly DialectId[];

/**
 * The dialects whose answer is a token stream: every dialect but the non-streaming ones.
 * @internal exported for its tests
 */
export const STREAMING_DIALECT_IDS = DIALECT_IDS.filter(
  (d): d is Exclude<DialectId, (typeof NON_STREAMING_DIALECT_IDS)[number]> => !isNonStreamingDialect(d),
);

export function isNonStreamingDialect(d: DialectId): boolean {
  return (NON_STREAMING_DIALECT_IDS as readonly string[]).includes(d);
}

export function isDialectId(s: string): s is DialectId {
  return (DIALECT_IDS as readonly string[]).includes(s);
}

/** Path each dialect posts to when the user gives a base URL rather than a full endpoint. */
export const DIALECT_PATHS: Record<DialectId, string> = {
  'openai-chat': '/v1/chat/completions',
  'openai-completions': '/v1/completions',
  'openai-responses': '/v1/responses',
  'anthropic-messages': '/v1/messages',
  tgi: '/generate_stream',
  llamacpp: '/completion',
  'ollama-generate': '/api/generate',
  'ollama-chat': '/api/chat',
  'openai-embeddings': '/v1/embeddings',
  // vLLM serves the same at /rerank and /v2/rerank (vllm/entrypoints/openai/api_server.py).
  rerank: '/v1/rerank',
};

export const DIALECT_LABELS: Record<DialectId, string> = {
  'openai-chat': 'OpenAI chat completions',
  'openai-completions': 'OpenAI completions',
  'openai-responses': 'OpenAI Responses',
  'anthropic-messages': 'Anthropic Messages',
  tgi: 'TGI /generate_stream',
  llamacpp: 'llama.cpp /completion',
  'ollama-generate': 'Ollama /api/generate (NDJSON)',
  'ollama-chat': 'Ollama /api/chat (NDJSON)',
  'openai-embeddings': 'OpenAI embeddings (not streamed)',
  rerank: 'Rerank /v1/rerank (vLLM/Cohere, not streamed)',
};

/**
 * The Messages API version Tokenscope speaks, sent as `anthropic-version` with every
 * anthropic-messages request (Anthropic's API refuses a request without it).
 */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The header an API key travels in: Anthropic's `x-api-key`, everyone else's `Authorization`. */
export function apiKeyHeader(dialect: DialectId): 'x-api-key' | 'authorization' {
  return dialect === 'anthropic-messages' ? 'x-api-key' : 'authorization';
}

/**
 * The headers a dialect adds to the user's own (`given`), for the stream and for `GET /v1/models`
 * alike: the API key (`x-api-key: <key>` for Anthropic, else `Authorization: Bearer <key>`) and
 * Anthropic's `anthropic-version`, unless the user already sets that header (in any case).
 */
export function dialectHeaders(
  dialect: DialectId,
  apiKey: string | undefined,
  given: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  const keyHeader = apiKeyHeader(dialect);
  if (apiKey) out[keyHeader] = keyHeader === 'authorization' ? `Bearer ${apiKey}` : apiKey;
  const givenNames = Object.keys(given).map((k) => k.toLowerCase());
  if (dialect === 'anthropic-messages' && !givenNames.includes('anthropic-version'))
    out['anthropic-version'] = ANTHROPIC_VERSION;
  return out;
}
