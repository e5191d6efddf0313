/** The dialect registry: one module per wire format (docs/ARCHITECTURE.md "Dialects"). */
import type { DialectId } from '../../../shared/dialects.ts';
import { anthropicMessages } from './anthropic-messages.ts';
import { llamacpp } from './llamacpp.ts';
import { ollamaChat } from './ollama-chat.ts';
import { ollamaGenerate } from './ollama-generate.ts';
import { openAiChat } from './openai-chat.ts';
import { openAiCompletions } from './openai-completions.ts';
import { openAiEmbeddings } from './openai-embeddings.ts';
import { openAiResponses } from './openai-responses.ts';
import { rerank } from './rerank.ts';
import { tgi } from './tgi.ts';
import type { Dialect } from './types.ts';

/** @internal exported for its tests */
export const DIALECTS: Record<DialectId, Dialect> = {
  'openai-chat': openAiChat,
  'openai-completions': openAiCompletions,
  'openai-responses': openAiResponses,
  'anthropic-messages': anthropicMessages,
  tgi,
  llamacpp,
  'ollama-generate': ollamaGenerate,
  'ollama-chat': ollamaChat,
  'openai-embeddings': openAiEmbeddings,
  rerank,
};

/** Throws on an id that is not a DialectId: callers validate untrusted input with isDialectId first. */
export function getDialect(id: DialectId): Dialect {
  const d = Object.hasOwn(DIALECTS, id) ? DIALECTS[id] : undefined;
  if (!d) throw new Error(`Unknown dialect: ${String(id)}`);
  return d;
}

export type { Dialect } from './types.ts';
