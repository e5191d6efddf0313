/** One-line progress for terminals and logs: bar, counts, ETA, and the live TTFT/ITL medians. */
import type { RunTestRequest } from '../file/line-schema.ts';
import type { RunProgress } from './progress-types.ts';

function dur(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  const s = Math.round(ms / 1000);
  if (s >= 172_800) return `${(s / 86_400).toFixed(1)}d`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function progressLine(p: RunProgress, width = 24): string {
  if (p.phase === 'test') return 'test request…';
  if (p.phase === 'warmup') return `warm-up ${p.warmupDone}/${p.warmupTotal}`;
  const filled = Math.max(0, Math.min(width, Math.round(p.fraction * width)));
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
  const total = p.total !== null ? `/${p.total}` : '';
  const parts = [
    `${bar} ${String(Math.round(p.fraction * 100)).padStart(3)}%`,
    `${p.completed + p.failed}${total} done`,
    ...(p.sessions ? [`${p.sessions.done}/${p.sessions.total} sessions`] : []),
    `${p.failed} failed`,
    `${p.inFlight} in flight`,
  ];
  if (p.queued > 0) parts.push(`${p.queued} queued`);
  // Draining: only in-flight requests are left (none waits for a slot any more). Sessions still
  // send their next steps then: their ETA says more.
  parts.push(p.phase === 'draining' && p.queued === 0 && !p.sessions ? 'draining' : `ETA ${dur(p.etaMs)}`);
  const ttft = p.live.ttft;
  const itl = p.live.itl;
  if (ttft) parts.push(`TTFT p50 ${ttft.p50.toFixed(1)} ms`);
  if (itl) parts.push(`ITL p50 ${itl.p50.toFixed(1)} ms`);
  return parts.join(' · ');
}

/** The test request's line ("test request: ok · TTFT 41.2 ms · 128 tokens in 1.31 s"). */
export function testRequestLine(t: RunTestRequest): string {
  const parts = ['test request: ok'];
  if (t.attempts > 1) parts[0] += ` on attempt ${t.attempts}`;
  if (t.ttftMs !== null) parts.push(`TTFT ${t.ttftMs.toFixed(1)} ms`);
  if (t.e2eMs !== null) parts.push(`${t.outputTokens} tokens in ${(t.e2eMs / 1000).toFixed(2)} s`);
  return parts.join(' · ');
}
