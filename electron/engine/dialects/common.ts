/**
 * Helpers shared by every dialect: JSON parsing that never throws, the in-band error shapes of
 * all servers (test-corpus/FORMATS.md §6.3), and prompt/message conversion for request bodies.
 */
import type { ChatMessage, RequestSpec, Usage } from '../../../shared/request.ts';
import type { DecodedEvent, StreamContentType } from './types.ts';
import { errorMessage } from '../../../shared/result.ts';

export type Obj = Record<string, unknown>;

/** What an SSE stream's Content-Type must contain. */
export const SSE_CONTENT_TYPE: StreamContentType = {
  expected: 'text/event-stream',
  accepted: ['text/event-stream'],
};

/** NDJSON streams (Ollama) come labelled several ways, all accepted. */
export const NDJSON_CONTENT_TYPE: StreamContentType = {
  expected: 'application/x-ndjson',
  accepted: ['ndjson', 'application/json', 'text/plain'],
};

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A token count: a non-negative integer, or null (absent, null, or nonsense in a malformed chunk). */
export function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

/** A string, or '' (absent or null: many servers send `"content":null`). */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function invalid(reason: string): DecodedEvent {
  return { kind: 'invalid', text: '', tokens: null, invalidReason: reason };
}

/** `[DONE]` is a plain data payload, not JSON (test-corpus/FORMATS.md §1 "practical additions"); TGI writes `data:[DONE]`. */
export function isDone(data: string): boolean {
  return data.trim() === '[DONE]';
}

/** The frame's JSON object, or the reason it is not one (for an 'invalid' event). */
export function parseObject(data: string): Obj | string {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch (e) {
    return `bad JSON (${errorMessage(e)}): ${clip(data)}`;
  }
  return isObj(v) ? v : `expected a JSON object: ${clip(data)}`;
}

function clip(s: string): string {
  return s.length > 120 ? s.slice(0, 120) + '…' : s;
}

/**
 * An in-band error in any of the shapes servers use (test-corpus/FORMATS.md §6.3), or null:
 * - `{"error":{"message","type","param","code"}}` — vLLM, SGLang, OpenAI, llama.cpp (`code,message,type`)
 * - `{"error":{"object":"error","message",…}}` — vLLM ≤0.6 and SGLang, the flat object wrapped
 * - `{"error":{"message","http_status_code":422}}` — TGI chat
 * - `{"error":"…","error_type":"…"}` — TGI native; `{"error":"…"}` — Ollama
 * - `{"object":"error","message",…}` — the unwrapped flat object (vLLM ≤0.6 HTTP body shape)
 */
export function errorOf(o: Obj): DecodedEvent | null {
  const e = o.error;
  if (typeof e === 'string') {
    const type = typeof o.error_type === 'string' ? o.error_type : undefined;
    return errorEvent(e, type, undefined);
  }
  if (isObj(e)) {
    const message = typeof e.message === 'string' ? e.message : JSON.stringify(e);
    const type =
      typeof e.type === 'string' ? e.type : typeof e.error_type === 'string' ? e.error_type : undefined;
    return errorEvent(message, type, codeOf(e.code) ?? codeOf(e.http_status_code));
  }
  if (o.object === 'error' && typeof o.message === 'string') {
    return errorEvent(o.message, typeof o.type === 'string' ? o.type : undefined, codeOf(o.code));
  }
  return null;
}

function codeOf(v: unknown): string | number | undefined {
  return typeof v === 'string' || typeof v === 'number' ? v : undefined;
}

export function errorEvent(
  message: string,
  type: string | undefined,
  code: string | number | undefined,
): DecodedEvent {
  const error: NonNullable<DecodedEvent['error']> = { message };
  if (type !== undefined) error.type = type;
  if (code !== undefined) error.code = code;
  return { kind: 'error', text: '', tokens: null, error };
}

/** Sum of two counts when both are known. */
export function total(a: number | null, b: number | null): number | null {
  return a !== null && b !== null ? a + b : null;
}

export function usageOf(
  prompt: number | null,
  completion: number | null,
  totalTokens: number | null,
  cached?: number | null,
): Usage {
  const u: Usage = {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: totalTokens ?? total(prompt, completion),
  };
  if (cached !== undefined && cached !== null) u.cachedTokens = cached;
  return u;
}

/** Chat dialects: the spec's messages, or its prompt as one user message. */
export function chatMessages(spec: RequestSpec): ChatMessage[] {
  if (spec.messages && spec.messages.length > 0)
    return spec.messages.map((m) => ({ role: m.role, content: m.content }));
  return [{ role: 'user', content: spec.prompt ?? '' }];
}

/**
 * Completion dialects: the spec's prompt, or its messages' contents joined by blank lines (no
 * chat template: the server's raw completion endpoint sees exactly this text).
 */
export function promptText(spec: RequestSpec): string {
  if (spec.prompt !== undefined) return spec.prompt;
  return (spec.messages ?? []).map((m) => m.content).join('\n\n');
}

/** Copies the defined entries only, so absent params never reach the wire as `null`. */
export function defined(entries: Record<string, unknown>): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(entries)) if (v !== undefined) out[k] = v;
  return out;
}

/** Stop sequences, when any were given (an empty list is the same as none). */
export function stopList(spec: RequestSpec): string[] | undefined {
  const s = spec.params?.stop;
  return s && s.length > 0 ? [...s] : undefined;
}
