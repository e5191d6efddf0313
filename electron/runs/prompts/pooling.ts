/**
 * Prompt items for the non-streaming dialects (embeddings, rerank), built from the workload's own
 * source so every prompt option (synthetic lengths, datasets) applies:
 * - openai-embeddings: request i embeds the source's items i·B … i·B + B − 1 (B = `batchSize`);
 * - rerank: the source's item i is the query, scored against `documents` seeded texts of
 *   `documentLen` tokens (their own stream per request: the same seed gives the same documents).
 * The estimate of input tokens is the shared tokenizer's, counted as the simulator counts them
 * (an input: BOS + text; a rerank pair: BOS + query + SEP + document): the run labels it
 * estimated unless the server's usage says.
 */
import { isNonStreamingDialect, type DialectId } from '../../../shared/dialects.ts';
import { Rng } from '../../../shared/prng.ts';
import { countPromptTokens, countTextTokens } from '../../../shared/tokenizer.ts';
import type { PoolingWorkload } from '../../../shared/runs/workload/pooling.ts';
import { syntheticText, type PromptItem, type PromptProvider } from './items.ts';

const DEFAULTS: PoolingWorkload = { batchSize: 1, documents: 8, documentLen: 128 };

function textOf(item: PromptItem): string {
  return item.prompt ?? item.messages?.map((m) => m.content).join('\n') ?? '';
}

/** The provider as a non-streaming dialect sends it; any other dialect's unchanged. */
export function withPoolingInputs(
  p: PromptProvider,
  dialect: DialectId,
  pooling: PoolingWorkload | undefined,
  seed: number,
): PromptProvider {
  if (!isNonStreamingDialect(dialect)) return p;
  const o = pooling ?? DEFAULTS;
  if (dialect === 'openai-embeddings') {
    const b = o.batchSize;
    return {
      ...p,
      description: `${p.description}; ${b} input${b === 1 ? '' : 's'} per request`,
      at(i, stream) {
        const inputs = Array.from({ length: b }, (_, k) => textOf(p.at(i * b + k, stream)));
        const inputTokens = inputs.reduce((a, t) => a + countPromptTokens(t), 0);
        return { prompt: inputs[0], inputs, inputTokens, outputTokens: null };
      },
    };
  }
  return {
    ...p,
    description: `${p.description} as queries; ${o.documents} documents of ${o.documentLen} tokens each${o.topN ? `, top ${o.topN}` : ''}`,
    at(i, stream) {
      const query = textOf(p.at(i, stream));
      const rng = new Rng(seed, `rerank-documents:${stream ?? 'main'}:${i}`);
      const inputs = Array.from({ length: o.documents }, () => syntheticText(o.documentLen, rng));
      const q = countPromptTokens(query);
      const inputTokens = inputs.reduce((a, d) => a + q + 1 + countTextTokens(d), 0);
      return { prompt: query, inputs, inputTokens, outputTokens: null, ...(o.topN ? { topN: o.topN } : {}) };
    },
  };
}
