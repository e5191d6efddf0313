/** What the composer shows for each dialect. */
import type { DialectId } from '../../shared/dialects.ts';

/** Dialects whose request carries a list of chat messages (else one prompt string). */
export function isChatDialect(d: DialectId): boolean {
  return d === 'openai-chat' || d === 'ollama-chat' || d === 'openai-responses' || d === 'anthropic-messages';
}

/** OpenAI-style `stream_options` (include_usage, continuous_usage_stats) exist for these. */
export function hasStreamOptions(d: DialectId): boolean {
  return d === 'openai-chat' || d === 'openai-completions';
}
