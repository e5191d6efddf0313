/**
 * The result card's rows for a run of a non-streaming dialect (embeddings, rerank: the summary's
 * `batch`, shared/runs/summary/batch.ts) in place of the output-token rows: batch sizes, inputs and
 * input tokens per second, the embeddings' dimension. The text summary prints the same
 * (`batchSection`).
 */
import type { BatchSummary } from '../../../shared/runs/summary/batch.ts';
import { f2, int } from './summary-format.ts';

interface BatchRow {
  label: string;
  value: string;
  unit?: string;
  testId: string;
  title?: string;
}

const FROM: Record<BatchSummary['inputTokensFrom'], string> = {
  usage: 'server usage',
  estimated: 'estimated: tokenizer',
  mixed: 'usage + estimated',
  none: 'none counted',
};

export function batchRows(b: BatchSummary): BatchRow[] {
  const rows: BatchRow[] = [
    {
      label: 'Batch size (mean/min/max)',
      value: b.meanInputs === null ? '—' : `${f2(b.meanInputs)} / ${int(b.minInputs)} / ${int(b.maxInputs)}`,
      testId: 'sum-batch-size',
      title:
        "Inputs per successful request, mean / min / max: an embeddings request's inputs, a rerank query's documents",
    },
    { label: 'Inputs in all', value: int(b.inputs), testId: 'sum-batch-inputs' },
    {
      label: 'Input throughput',
      value: f2(b.inputsPerS),
      unit: 'inputs/s',
      testId: 'sum-inputs-tput',
      title: 'Inputs embedded (documents scored) per second of the run',
    },
    {
      label: 'Input token throughput',
      value: f2(b.inputTokensPerS),
      unit: 'tok/s',
      testId: 'sum-input-tput',
      title: `Input tokens per second of the run, counted from ${FROM[b.inputTokensFrom]} (the server's usage.prompt_tokens, else Tokenscope's tokenizer)`,
    },
  ];
  if (b.dimension !== null)
    rows.push({ label: 'Embedding dimension', value: int(b.dimension), testId: 'sum-embedding-dim' });
  return rows;
}
