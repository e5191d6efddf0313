/**
 * What one request may hold, whatever a server sends (docs/security.md, docs/ARCHITECTURE.md
 * "Dialects and errors"). The stream decoder enforces them as it frames and decodes.
 */
import type { RequestError } from '../../shared/errors.ts';
import type { RequestRecord } from '../../shared/record.ts';
import { overMaxTokensLimit } from '../../shared/stats/token-bounds.ts';
import { DEFAULT_LIMITS } from './engine-config.ts';
import { pooledAnswerChars } from '../../shared/pooled-answer.ts';

/**
 * The limits come from the engine configuration (engine-config.ts, DEFAULT_LIMITS), passed to each
 * request's decoder. An event (or NDJSON line) that grows past `maxEventChars` without ending fails
 * its request as protocol/event-too-large: memory stays bounded whatever a server sends (a real
 * event is a few KB; 8 MiB, TOKENSCOPE_MAX_EVENT_MB raises it).
 *
 * A request's record is bounded whatever a server sends (an endless fast stream grew ~33 MB/s):
 * - text kept (raw event data, output text, each event's text) stops at `maxRecordTextChars`
 *   (64 Mi characters; TOKENSCOPE_MAX_RECORD_MB): `rec.textCapped`, timing of every event still
 *   kept. A read whose event is kept is charged whole (an event's raw text keeps its read's string);
 * - framed units stop at `maxRecordEvents` (2 M; TOKENSCOPE_MAX_EVENTS): events, and what frames
 *   nothing (comments, keep-alive blank lines, `event:`-only blocks) as well. The request is stopped
 *   as client/record-limit at the read that reached it, at most that many events kept, what
 *   arrived before kept.
 * So a finished record holds at most RECORD_BYTES_PER_EVENT per event of its limit plus two bytes
 * per character of its text limit (recordBoundBytes): ≈ 390 MB at the defaults.
 */

/**
 * What one kept event costs at most beyond its text: the columns (22 bytes), the row's text and raw
 * slots (16), the strings' headers (raw, text, the output text's join: ~32 each), rounded up.
 */
const RECORD_BYTES_PER_EVENT = 128;

export interface RecordLimits {
  maxTokens?: number | null;
  maxEvents?: number;
  maxTextChars?: number;
  maxEventChars?: number;
}

/** The most a finished record of these limits holds, bytes (the bound docs/security.md states). @internal exported for its tests */
export function recordBoundBytes(l: RecordLimits = {}): number {
  const events = l.maxEvents ?? DEFAULT_LIMITS.maxRecordEvents;
  const chars = l.maxTextChars ?? DEFAULT_LIMITS.maxRecordTextChars;
  return events * RECORD_BYTES_PER_EVENT + chars * 2;
}

/** Past max_tokens by this margin the request is stopped as protocol/over-max-tokens (one rule, shared). */
export { overMaxTokensLimit };

export function recordLimitError(units: number, events: number, atMs: number): RequestError {
  const n = (x: number): string => x.toLocaleString('en-US');
  const what =
    units > events
      ? `${n(units)} framed units (${n(events)} events; comments and keep-alives count too)`
      : `${n(events)} events`;
  return {
    kind: 'client',
    code: 'record-limit',
    message: `The stream reached ${what}, the most one request takes (TOKENSCOPE_MAX_EVENTS); Tokenscope stopped it there, everything before kept.`,
    atMs,
  };
}

export function eventTooLargeError(atMs: number, maxEventChars: number): RequestError {
  return {
    kind: 'protocol',
    code: 'event-too-large',
    message: `An event grew past ${Math.round(maxEventChars / 1048576)} MiB without ending; the stream was stopped there (what arrived before it is kept).`,
    atMs,
  };
}

/** What a finished record holds, estimated (the columns, the strings, their headers), bytes. */
export function recordFootprintBytes(
  rec: Pick<RequestRecord, 'events' | 'raw' | 'text' | 'reasoning' | 'answer'>,
): number {
  let chars = rec.text.length + rec.reasoning.length;
  if (rec.answer) chars += pooledAnswerChars(rec.answer);
  const e = rec.events;
  for (let i = 0; i < e.n; i++) chars += e.text[i]?.length ?? 0;
  if (rec.raw) for (const r of rec.raw) chars += r.length;
  return e.n * RECORD_BYTES_PER_EVENT + chars * 2;
}
