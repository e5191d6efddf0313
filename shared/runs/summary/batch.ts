/**
 * A run of a non-streaming dialect (embeddings, rerank: shared/dialects.ts
 * NON_STREAMING_DIALECT_IDS): what it measures instead of token timing. Latency is the request's
 * end-to-end time (sent → whole answer: `stats.e2el`); here the batch sizes (inputs per request:
 * embeddings' inputs, a rerank's documents), inputs per second and input tokens per second
 * (`usage.prompt_tokens`, else the shared tokenizer's estimate, said which). Its presence on a
 * summary is what every surface asks before it prints TTFT, ITL or TPOT (`streamsTokens`): a run
 * that streamed no token has no such rows, not zeros.
 */
import { z } from 'zod';
import { summarize } from '../../stats/summary.ts';
import type { RequestOutcome } from './outcome.ts';

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const nonNeg = z.number().min(0);

export const BatchSummarySchema = z.object({
  /** Successful requests. */
  requests: count,
  /** Their inputs (embeddings' inputs, rerank documents), in all. */
  inputs: count,
  /** Inputs per request over the successful requests (null: none succeeded). */
  meanInputs: z.number().nullable(),
  minInputs: count.nullable(),
  maxInputs: count.nullable(),
  /** Inputs embedded (or documents scored) per second of the run. */
  inputsPerS: nonNeg,
  /** Input tokens per second of the run (vllm.total_input_tokens / duration). */
  inputTokensPerS: nonNeg,
  /** Where the input tokens came from: the server's usage, the shared tokenizer's estimate, or both. */
  inputTokensFrom: z.enum(['usage', 'estimated', 'mixed', 'none']),
  /** Embeddings: the vectors' length when every answer gave one length; null otherwise. */
  dimension: count.nullable(),
});
export type BatchSummary = z.output<typeof BatchSummarySchema>;

/** Whether a run streamed tokens, i.e. whether TTFT, ITL and TPOT exist for it. */
export function streamsTokens(s: { batch?: BatchSummary | undefined }): boolean {
  return s.batch === undefined;
}

export function batchSummaryOf(
  ok: readonly RequestOutcome[],
  durationS: number,
  totalIn: number,
): BatchSummary {
  const sizes: number[] = [];
  let usage = 0;
  let est = 0;
  const dims = new Set<number | null>();
  for (const o of ok) {
    if (o.batch) {
      sizes.push(o.batch.inputs);
      dims.add(o.batch.dimension);
    }
    if (o.inputTokensSource === 'usage') usage++;
    else if (o.inputTokensSource === 'estimated') est++;
  }
  const s = summarize(sizes);
  const inputs = sizes.reduce((a, b) => a + b, 0);
  const dur = durationS > 0 ? durationS : 0;
  const only = dims.size === 1 ? [...dims][0]! : null;
  return {
    requests: ok.length,
    inputs,
    meanInputs: s ? s.mean : null,
    minInputs: s ? s.min : null,
    maxInputs: s ? s.max : null,
    inputsPerS: dur > 0 ? inputs / dur : 0,
    inputTokensPerS: dur > 0 ? totalIn / dur : 0,
    inputTokensFrom: usage > 0 && est > 0 ? 'mixed' : usage > 0 ? 'usage' : est > 0 ? 'estimated' : 'none',
    dimension: only,
  };
}

const f2 = (v: number | null): string => (v === null || !Number.isFinite(v) ? '—' : v.toFixed(2));

/** The text summary's section, in its 40-column label layout. */
export function batchSection(b: BatchSummary, row: (label: string, value: string) => string): string[] {
  const from = {
    usage: 'server usage',
    estimated: 'estimated: tokenizer',
    mixed: 'usage + estimated',
    none: '—',
  }[b.inputTokensFrom];
  return [
    row(
      'Inputs per request (mean/min/max):',
      `${f2(b.meanInputs)} / ${b.minInputs ?? '—'} / ${b.maxInputs ?? '—'}`,
    ),
    row('Inputs in all:', String(b.inputs)),
    row('Input throughput (inputs/s):', f2(b.inputsPerS)),
    row('Input token throughput (tok/s):', `${f2(b.inputTokensPerS)} (${from})`),
    ...(b.dimension !== null ? [row('Embedding dimension:', String(b.dimension))] : []),
  ];
}
