/**
 * Two embeddings or rerank requests side by side: what a non-streamed answer has — its phases,
 * sizes, the server's usage and batch — in place of TTFT, ITL, TPOT and chunks, which it has not.
 * Pure, so the rows are tested without a DOM; CompareView draws them with the same B − A colours.
 */
import type { RecordDigest } from '../record-view.ts';

export interface PoolingMetric {
  label: string;
  unit: 'ms' | '';
  lowerBetter: boolean | null;
  get: (d: RecordDigest) => number | null;
}

const between = (a: number | null, b: number | null): number | null =>
  a !== null && b !== null ? b - a : null;

export const POOLING_METRICS: PoolingMetric[] = [
  { label: 'E2E', unit: 'ms', lowerBetter: true, get: (d) => d.phases.endMs },
  { label: 'First byte', unit: 'ms', lowerBetter: true, get: (d) => d.phases.firstByteMs },
  {
    label: 'Upload + server',
    unit: 'ms',
    lowerBetter: true,
    get: (d) => between(d.phases.requestWrittenMs, d.phases.firstByteMs),
  },
  {
    label: 'Response',
    unit: 'ms',
    lowerBetter: true,
    get: (d) => between(d.phases.firstByteMs, d.phases.endMs),
  },
  { label: 'Request body (bytes)', unit: '', lowerBetter: null, get: (d) => d.requestBytes ?? null },
  { label: 'Response body (bytes)', unit: '', lowerBetter: null, get: (d) => d.bytes },
  { label: 'Prompt tokens', unit: '', lowerBetter: null, get: (d) => d.usage?.promptTokens ?? null },
  { label: 'Inputs', unit: '', lowerBetter: null, get: (d) => d.batch?.inputs ?? null },
  { label: 'Results', unit: '', lowerBetter: null, get: (d) => d.batch?.results ?? null },
  { label: 'Dimension', unit: '', lowerBetter: null, get: (d) => d.batch?.dimension ?? null },
];
