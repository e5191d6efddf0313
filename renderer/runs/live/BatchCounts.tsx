/**
 * The live header's counters for a run of a non-streaming dialect (embeddings, rerank) in place
 * of "output tokens": what the summary will report for it, so far — request throughput, inputs per
 * request (the batch size), inputs and input tokens per second (RunProgress `batch`: successful
 * requests only, over the measured time so far).
 */
import { fmtCompact } from '../../core/format.ts';
import type { RunProgress } from '../../../shared/runs/live/progress-types.ts';

function rate(n: number, elapsedMs: number): string {
  return elapsedMs > 0 ? fmtCompact((n * 1000) / elapsedMs) : '—';
}

export function BatchCounts({ p, batch }: { p: RunProgress; batch: NonNullable<RunProgress['batch']> }) {
  const items: [label: string, text: string, testId: string][] = [
    ['req/s', rate(p.completed, p.elapsedMs), 'run-req-rate'],
    ['inputs / request', p.completed > 0 ? (batch.inputs / p.completed).toFixed(2) : '—', 'run-batch-size'],
    ['inputs/s', rate(batch.inputs, p.elapsedMs), 'run-inputs-rate'],
    ['input tok/s', rate(batch.inputTokens, p.elapsedMs), 'run-input-tok-rate'],
  ];
  return (
    <>
      {items.map(([label, text, testId]) => (
        <div key={label} className="run-count">
          <dt>{label}</dt>
          <dd data-testid={testId}>{text}</dd>
        </div>
      ))}
    </>
  );
}
