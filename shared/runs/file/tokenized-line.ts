/**
 * A run file's `tokenized` line, written after the requests and before the summary when the run
 * counted output texts with the server's tokenizer (electron/runs/tokenize-outputs.ts): the counts
 * by request id, and where they came from. The request lines were written as the requests ended,
 * before the counts existed; a reader puts the counts back on them (`tokenizedOutputTokens`).
 */
import { z } from 'zod';
import type { RunRequestLine } from './types.ts';

export interface RunTokenizedLine {
  type: 'tokenized';
  /** The endpoint that counted (credentials redacted), and the request shape it took. */
  via: string;
  shape: 'vllm' | 'llamacpp';
  /** Request id → output tokens of its text. */
  counts: Record<string, number>;
}

export const TokenizedLineSchema = z.object({
  type: z.literal('tokenized'),
  via: z.string(),
  shape: z.enum(['vllm', 'llamacpp']),
  counts: z.record(z.string(), z.number().int().min(0)),
});

/** Puts the counts on the request lines they belong to. */
export function applyTokenized(requests: RunRequestLine[], t: RunTokenizedLine): void {
  for (const l of requests) {
    const n = t.counts[l.id];
    if (n !== undefined) l.tokenizedOutputTokens = n;
  }
}
