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
] as const;

export type DialectId = (typeof DIALECT_IDS)[number];

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
};
