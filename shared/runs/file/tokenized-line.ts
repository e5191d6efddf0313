/**
 * A run file's `tokenized` line, written after the requests and before the summary when the run
 * counted output texts with the server's tokenizer (electron/runs/tokenize-outputs.ts): the counts
 * by request id, and where they came from. The request lines were written as the requests ended,
 * before the counts existed; a reader puts the counts back on them (`tokenizedOutputTokens`).
 */
import { z } from 'zod';
import type { RunRequestLine } from './line-schema.ts';

export const TokenizedLineSchema = z.object({
  type: z.literal('tokenized'),
  /** The endpoint that counted (credentials redacted), and the request shape it took. */
  via: z.string(),
  shape: z.enum(['vllm', 'llamacpp']),
  /** Request id → output tokens of its text. */
  counts: z.record(z.string(), z.number().int().min(0)),
});
export type RunTokenizedLine = z.output<typeof TokenizedLineSchema>;

/** Puts the counts on the request lines they belong to. */
export function applyTokenized(requests: RunRequestLine[], t: RunTokenizedLine): void {
  for (const l of requests) {
    const n = t.counts[l.id];
    if (n !== undefined) l.tokenizedOutputTokens = n;
  }
}
