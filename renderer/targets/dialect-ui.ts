/** What the composer and the target editor show for each dialect. */
import { ANTHROPIC_VERSION, apiKeyHeader, type DialectId } from '../../shared/dialects.ts';

/** Dialects whose request carries a list of chat messages (else one prompt string). */
export function isChatDialect(d: DialectId): boolean {
  return d === 'openai-chat' || d === 'ollama-chat' || d === 'openai-responses' || d === 'anthropic-messages';
}

/** OpenAI-style `stream_options` (include_usage, continuous_usage_stats) exist for these. */
export function hasStreamOptions(d: DialectId): boolean {
  return d === 'openai-chat' || d === 'openai-completions';
}

/** How the API key travels for this dialect, for the key field's hint. */
export function apiKeyHint(d: DialectId): string {
  return apiKeyHeader(d) === 'x-api-key'
    ? `Sent as “x-api-key: …” (with “anthropic-version: ${ANTHROPIC_VERSION}”).`
    : 'Sent as “Authorization: Bearer …”.';
}
