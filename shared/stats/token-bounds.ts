/**
 * How many tokens a count may claim before it is not believed. Counts come from servers (per-event
 * counts, usage) and from files, and none of them may size an allocation or be taken as exact when
 * it cannot be true (docs/ARCHITECTURE.md "Counts from outside"):
 * - a column holds a count in a Uint32Array: past MAX_TOKEN_COUNT it would wrap;
 * - one event (or one request) carrying more than max_tokens allows (overMaxTokensLimit) was not
 *   generated for this request;
 * - the visible output cannot hold more tokens than bytes arrived, times a generous factor (a token
 *   is at least one byte of text in the stream, and a server's summarised reasoning can be shorter
 *   than what it counts); reasoning the server reports as hidden (`reasoning_tokens`) is left out.
 */

/** The token column's type is Uint32Array (shared/event-columns.ts). */
export const MAX_TOKEN_COUNT = 0xffff_ffff;

/**
 * One event's count past this, whatever max_tokens was, is refused: no server streams a million
 * tokens in one event (vLLM's stream interval and speculative decoding send a handful).
 */
const MAX_EVENT_TOKENS = 1 << 20;

/** Usage beyond the bytes that arrived × this (+ the slack below) did not arrive. */
const BYTES_FACTOR = 8;
const BYTES_SLACK = 1024;

/**
 * A server that ignores max_tokens streams on forever: past max_tokens by this margin (tokens
 * counted per event may differ a little from the server's own count: reasoning, a final chunk),
 * the request is stopped as protocol/over-max-tokens, and a count past it is not believed.
 */
export function overMaxTokensLimit(maxTokens: number): number {
  return maxTokens + Math.max(16, Math.ceil(maxTokens * 0.1));
}

/** The most one content event may carry (max_tokens known or not, within the column's range). @internal exported for its tests */
export function eventTokensLimit(maxTokens: number | null | undefined): number {
  return maxTokens != null && maxTokens > 0
    ? Math.min(MAX_EVENT_TOKENS, overMaxTokensLimit(maxTokens))
    : MAX_EVENT_TOKENS;
}

/** Why a per-event count is not believed, or null. */
export function eventTokensDoubt(k: number, maxTokens: number | null | undefined): string | null {
  if (!Number.isSafeInteger(k) || k < 0) return `a token count of ${k} is not a count`;
  const limit = eventTokensLimit(maxTokens);
  if (k <= limit) return null;
  return maxTokens != null && maxTokens > 0 && limit < MAX_EVENT_TOKENS
    ? `one event claimed ${k} tokens, more than max_tokens=${maxTokens} allows`
    : `one event claimed ${k} tokens (at most ${MAX_EVENT_TOKENS} are believed)`;
}

/** What a request's output token total is checked against. */
export interface TokenEvidence {
  /** max_tokens asked for (null: not asked). */
  maxTokens: number | null | undefined;
  /** Body bytes that arrived (0: not known, e.g. a record rebuilt without them). */
  bytes: number;
  /** Of the total, reasoning the server says it kept hidden or summarised. */
  hiddenTokens?: number | null;
}

/** Why a total the server reported (usage) is not believed, or null. */
export function usageTokensDoubt(total: number, e: TokenEvidence): string | null {
  if (!Number.isSafeInteger(total) || total < 0) return `usage says ${total} output tokens: not a count`;
  if (e.maxTokens != null && e.maxTokens > 0 && total > overMaxTokensLimit(e.maxTokens))
    return `usage says ${total} output tokens, more than max_tokens=${e.maxTokens} allows`;
  const hidden = Math.max(0, Math.min(total, e.hiddenTokens ?? 0));
  if (e.bytes > 0 && total - hidden > e.bytes * BYTES_FACTOR + BYTES_SLACK)
    return `usage says ${total} output tokens, more than the ${e.bytes} bytes that arrived could carry`;
  return null;
}
