/**
 * One row per request, for spreadsheets. Times in ms; numbers come from the same per-request
 * definitions as the summary (computeRequestStats on the line's events). RFC 4180 quoting.
 */
import { summarize } from '../../stats/summary.ts';
import { statsOfLine } from './outcome.ts';
import type { RunRequestLine } from '../file/line-schema.ts';

/** @internal exported for its tests */
export const CSV_COLUMNS = [
  'seq',
  'id',
  'warmup',
  'status',
  'scheduled_ms',
  'arrived_ms',
  'started_ms',
  'queue_ms',
  'first_event_ms',
  'ttft_ms',
  'tpot_ms',
  'e2e_ms',
  'output_tokens',
  'token_source',
  'input_tokens',
  'input_tokens_source',
  'content_events',
  'itl_mean_ms',
  'itl_max_ms',
  'itl_per_token_mean_ms',
  'finish_reason',
  'http_status',
  'error_kind',
  'error_code',
  'error_message',
  'text_length',
] as const;

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(Math.round(v * 1000) / 1000) : '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(lines: readonly RunRequestLine[]): string {
  const rows: string[] = [CSV_COLUMNS.join(',')];
  for (const l of [...lines].sort((a, b) => Number(!!b.warmup) - Number(!!a.warmup) || a.seq - b.seq)) {
    const s = statsOfLine(l);
    const itl = summarize(s.itlChunkMs);
    const itlTok = summarize(s.itlTokenMs);
    const rec: Record<(typeof CSV_COLUMNS)[number], unknown> = {
      seq: l.seq,
      id: l.id,
      warmup: l.warmup ? 1 : 0,
      status: l.status,
      scheduled_ms: l.scheduledMs,
      arrived_ms: l.arrivedMs,
      started_ms: l.startedMs,
      queue_ms: l.queueMs,
      first_event_ms: s.firstEventMs,
      ttft_ms: s.ttftMs,
      tpot_ms: s.tpotMs,
      e2e_ms: s.e2eMs,
      output_tokens: s.outputTokens,
      token_source: s.tokenSource,
      input_tokens: l.inputTokens,
      input_tokens_source: l.inputTokensSource,
      content_events: s.contentEvents,
      itl_mean_ms: itl?.mean,
      itl_max_ms: itl?.max,
      itl_per_token_mean_ms: itlTok?.mean,
      finish_reason: l.finishReason,
      http_status: l.httpStatus,
      error_kind: l.error?.kind,
      error_code: l.error?.code,
      error_message: l.error?.message,
      text_length: l.textLength,
    };
    rows.push(CSV_COLUMNS.map((c) => cell(rec[c])).join(','));
  }
  return rows.join('\r\n') + '\r\n';
}
