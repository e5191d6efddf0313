/**
 * A comparison's rows for runs of the non-streaming dialects (embeddings, rerank), from each run's
 * `batch` (shared/runs/summary/batch.ts): batch size, inputs and input tokens per second. A run
 * that streamed tokens has no value (absent, never 0); with none on any side the rows are left
 * out. No interval (the bootstrap resamples the stream rates only), so not gated.
 */
import type { CompareRowDef } from './rows.ts';

const num = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

export const BATCH_ROWS: readonly CompareRowDef[] = [
  {
    id: 'batch-inputs-mean',
    label: 'Inputs per request (mean)',
    unit: 'count',
    better: null,
    group: 'Batches (embeddings, rerank)',
    get: (s) => num(s.batch?.meanInputs),
  },
  {
    id: 'batch-inputs-tput',
    label: 'Input throughput',
    unit: 'inputs/s',
    better: 'higher',
    failureSensitive: true,
    get: (s) => num(s.batch?.inputsPerS),
  },
  {
    id: 'batch-input-tok-tput',
    label: 'Input token throughput',
    unit: 'tok/s',
    better: 'higher',
    failureSensitive: true,
    get: (s) => num(s.batch?.inputTokensPerS),
  },
];
