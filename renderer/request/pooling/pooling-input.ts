/**
 * The composer's part for the non-streaming dialects (embeddings, rerank): the embeddings batch
 * (inputs), or a rerank's query (the form's prompt), documents and top_n — in place of messages,
 * max tokens and sampling, which these endpoints do not take. Pure, tested with fire-input.ts.
 */
import type { FireInput } from '../../../shared/api.ts';
import { isNonStreamingDialect, type DialectId } from '../../../shared/dialects.ts';

/** Inputs or documents one request carries at most (the FireInput schema's and the workload's cap). */
const MAX_POOLING_INPUTS = 4096;

export const DEFAULT_POOLING_INPUTS = [
  'Streaming latency decides how fast a chat answer feels.',
  'Prefix caching lets a server skip prefill for a prompt it has seen.',
  'A rerank model scores each document against the query.',
];

export interface PoolingForm {
  /** Embeddings: the inputs; rerank: the documents. */
  inputs: string[];
  /** Rerank's top_n ('' : every document scored). */
  topN: string;
}

export function isPoolingDialect(d: DialectId): boolean {
  return isNonStreamingDialect(d);
}

type PoolingPart = Pick<FireInput, 'prompt' | 'inputs' | 'topN'>;

/** The pooling fields of a FireInput, or the errors of the form's fields (keyed as FieldErrors). */
export function poolingPart(
  form: PoolingForm & { prompt: string },
  dialect: DialectId,
):
  | { ok: true; value: PoolingPart }
  | { ok: false; errors: { prompt?: string; inputs?: string; topN?: string } } {
  const rerank = dialect === 'rerank';
  const inputs = form.inputs.filter((s) => s.trim() !== '');
  const errors: { prompt?: string; inputs?: string; topN?: string } = {};
  if (inputs.length === 0) errors.inputs = rerank ? 'Add at least one document.' : 'Add at least one input.';
  if (inputs.length > MAX_POOLING_INPUTS) errors.inputs = `At most ${MAX_POOLING_INPUTS} per request.`;
  if (rerank && form.prompt.trim() === '') errors.prompt = 'Type a query.';
  let topN: number | undefined;
  const t = form.topN.trim();
  if (rerank && t !== '') {
    const v = Number(t);
    if (!Number.isInteger(v) || v < 1 || v > MAX_POOLING_INPUTS)
      errors.topN = `top_n must be a whole number between 1 and ${MAX_POOLING_INPUTS} (empty: all).`;
    else topN = v;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  if (!rerank) return { ok: true, value: { inputs } };
  return { ok: true, value: { prompt: form.prompt, inputs, ...(topN !== undefined ? { topN } : {}) } };
}

/** A request's pooling fields back into the form (re-run with edits). */
export function poolingFormFromInput(input: FireInput, prev: PoolingForm): PoolingForm {
  return {
    inputs: input.inputs ?? prev.inputs,
    topN: input.topN !== undefined ? String(input.topN) : input.inputs ? '' : prev.topN,
  };
}
