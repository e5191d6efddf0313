/**
 * A RequestRecord-shaped view of a live request, so the stats are computed by the one
 * definition (shared/stats/request-stats.ts) while streaming and after, never re-derived here.
 * While streaming, only what the batches carry is known: no usage, finish reason or error yet.
 */
import type { RequestRecord } from '../../shared/record.ts';
import type { LiveRequest } from './live-store.ts';

export function recordView(r: LiveRequest): RequestRecord {
  if (r.final) return { ...r.final, events: r.cols, raw: r.cols.raw };
  const s = r.summary;
  return {
    id: r.id,
    url: '',
    dialect: s?.dialect ?? 'openai-chat',
    model: s?.model ?? r.input?.model ?? '',
    startedAtWall: s?.startedAtWall ?? 0,
    phases: r.phases,
    status: r.status,
    contentType: null,
    serverRequestId: null,
    events: r.cols,
    raw: r.cols.raw,
    text: r.cols.fullText,
    reasoning: '',
    finishReason: null,
    usage: null,
    tokenSource: 'estimated',
    bytes: r.bytes,
    reads: r.reads,
    terminated: false,
    error: null,
  };
}

/** Everything but the columns: what a summary store may hold and the stats panel shows. */
export type RecordDigest = Omit<RequestRecord, 'events' | 'raw' | 'text' | 'reasoning'> & {
  events: number;
  textChars: number;
};

export function digestOf(r: RequestRecord): RecordDigest {
  const { events, raw: _raw, text, reasoning: _reasoning, ...rest } = r;
  return { ...rest, events: events.n, textChars: text.length };
}
