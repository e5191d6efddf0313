/** The summary's server phases as text lines (`run`, `report`'s text): docs/tracing.md. */
import type { MetricStats } from '../runs/summary/schema.ts';
import type { ServerPhasesSummary } from './phase-summary.ts';

const f = (v: number | null | undefined): string =>
  (v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(2)).padStart(9);

export function serverPhasesLines(p: ServerPhasesSummary, center: (s: string) => string): string[] {
  const line = (label: string, m: MetricStats | null): string =>
    `${label.padEnd(22)}${f(m?.median)}${f(m?.p90)}${f(m?.p99)}`;
  return [
    center(`Server Phases (spans: ${p.joined}/${p.requests} requests)`),
    `${'(ms)'.padEnd(22)}${'median'.padStart(9)}${'P90'.padStart(9)}${'P99'.padStart(9)}`,
    line('Queue', p.queueMs),
    line('Prefill', p.prefillMs),
    line('Decode', p.decodeMs),
    line('Server TTFT', p.serverTtftMs),
    line('Client TTFT', p.clientTtftMs),
    line('  pre-queue (server)', p.preQueueMs),
    ...(p.sharedClock
      ? [line('  send (derived)', p.sendMs), line('  return (derived)', p.returnMs)]
      : [line('  outside the server', p.outsideServerMs), '  (no shared clock: send/return not split)']),
  ];
}
