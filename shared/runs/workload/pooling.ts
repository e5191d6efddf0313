/**
 * The workload's part for the non-streaming dialects (openai-embeddings, rerank): how large each
 * request's batch is. Embeddings: `batchSize` prompts of the workload's source per request (their
 * length is the source's: `prompts.inputLen` for synthetic ones). Rerank: the source's prompt is
 * the query, scored against `documents` seeded texts of `documentLen` tokens; `topN` asks for the
 * best N only. Caps keep one request's body and the simulator's memory bounded.
 */
import { z } from 'zod';

const POOLING_LIMITS = { inputs: 4096, documentTokens: 65_536 } as const;

const inputs = z
  .number()
  .int()
  .min(1)
  .max(POOLING_LIMITS.inputs, `at most ${POOLING_LIMITS.inputs} per request`);

export const PoolingWorkload = z
  .object({
    /** Embeddings: inputs per request (1: each request embeds one prompt). */
    batchSize: inputs.default(1),
    /** Rerank: documents per query. */
    documents: inputs.default(8),
    /** Rerank: each document's tokens (shared tokenizer). */
    documentLen: z
      .number()
      .int()
      .min(1)
      .max(POOLING_LIMITS.documentTokens, `at most ${POOLING_LIMITS.documentTokens} tokens`)
      .default(128),
    /** Rerank: the server returns the best N (absent: every document scored). */
    topN: inputs.optional(),
  })
  .strict();
export type PoolingWorkload = z.output<typeof PoolingWorkload>;
