/** The latency metrics of a run: names, definitions (docs/ARCHITECTURE.md, shared/runs/summary/summary.ts), colours. */
import type { StatMetric } from '../../../shared/runs/summary/schema.ts';
import type { DistMetric } from './run-series.ts';

export interface MetricDef {
  id: DistMetric;
  name: string;
  definition: string;
  color: string;
  /** What one histogram sample is. */
  countLabel: string;
}

export const DIST_METRICS: MetricDef[] = [
  {
    id: 'ttft',
    name: 'TTFT',
    color: '#22d3ee',
    countLabel: 'requests',
    definition:
      'Time to first token: request sent → first event carrying a generated token (successful requests).',
  },
  {
    id: 'itl',
    name: 'ITL per chunk',
    color: '#5b9dff',
    countLabel: 'chunks',
    definition:
      "Inter-token latency: every gap between consecutive content events of every successful request, pooled (vLLM's definition) — but the coalesced ones: two events of one socket read are ~0 ms apart by construction, so Tokenscope leaves them out (vLLM's ITL keeps them).",
  },
  {
    id: 'itl_per_token',
    name: 'ITL per token',
    color: '#b48cff',
    countLabel: 'tokens',
    definition:
      'Each gap divided by the tokens of the later event, weighted per token: stays right when a server sends several tokens per event. The events of one socket read count as one arrival (coalesced gaps left out).',
  },
  {
    id: 'tpot',
    name: 'TPOT',
    color: '#3ecf8e',
    countLabel: 'requests',
    definition:
      'Time per output token: (E2E − TTFT) / (output tokens − 1), requests with more than one token (vLLM).',
  },
  {
    id: 'e2el',
    name: 'E2E latency',
    color: '#ffb020',
    countLabel: 'requests',
    definition: 'End-to-end latency: request sent → end of stream.',
  },
  {
    id: 'client_queue_time',
    name: 'Queue time',
    color: '#8b95a7',
    countLabel: 'requests',
    definition:
      'Waiting for a client concurrency slot before being sent (vLLM client_queue_time); not part of TTFT.',
  },
];

/** Rows of the final statistics table, in the summary's order. */
export const STAT_ROWS: { id: StatMetric; name: string }[] = [
  { id: 'ttft', name: 'TTFT' },
  // Runs with reasoning only (stats.ttfat is null otherwise, and the row is not drawn).
  { id: 'ttfat', name: 'TTFAT (first answer)' },
  { id: 'tpot', name: 'TPOT' },
  { id: 'itl', name: 'ITL per chunk' },
  { id: 'itl_per_token', name: 'ITL per token' },
  { id: 'e2el', name: 'E2E latency' },
  { id: 'client_queue_time', name: 'Queue time' },
  { id: 'first_event', name: 'First event' },
];

/** Why ITL per token says "(estimated counts)": the server sent no per-event token counts. */
export const ESTIMATED_COUNTS_DEF =
  'The server sent no per-event token counts: each gap is spread over estimated counts (the final usage total, or one per event).';
