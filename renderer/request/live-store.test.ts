import { describe, expect, it } from 'vitest';
import type { RequestBatch, RequestSnapshot, RequestSummary } from '../../shared/api.ts';
import { EV_CONTENT, EV_TERMINAL, EV_TOKENS_EXACT } from '../../shared/request.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { LiveStore } from './live-store.ts';
import { recordView } from './record-view.ts';

const phases = { connectedMs: 1, requestWrittenMs: 1.5, headersMs: 5, firstByteMs: 6, endMs: null };

function summary(id: string): RequestSummary {
  return {
    id,
    targetId: 't',
    targetName: 'sim',
    model: 'm',
    dialect: 'openai-chat',
    startedAtWall: 0,
    state: 'running',
    ttftMs: null,
    e2eMs: null,
    outputTokens: 0,
    errorKind: null,
    promptPreview: '',
  };
}

function batch(id: string, from: number, times: number[], flags: number[]): RequestBatch {
  return {
    requestId: id,
    from,
    t: Float64Array.from(times),
    tokens: Uint32Array.from(flags.map((f) => (f & EV_CONTENT ? 1 : 0))),
    read: Uint32Array.from(times.map((_, i) => from + i)),
    flags: Uint16Array.from(flags),
    size: Uint32Array.from(times.map(() => 10)),
    text: flags.map((f) => (f & EV_CONTENT ? 'x' : '')),
    raw: times.map(() => '{}'),
    phases,
    status: 200,
    bytes: 100 + from,
    reads: from + times.length,
  };
}

describe('LiveStore', () => {
  it('appends batches per request and notifies subscribers with the id', () => {
    const s = new LiveStore();
    const seen: string[] = [];
    s.subscribe((id) => seen.push(id));
    s.started(summary('a'));
    s.batch(batch('a', 0, [6, 20], [EV_CONTENT, EV_CONTENT]));
    s.batch(batch('b', 0, [3], [EV_CONTENT]));
    s.batch(batch('a', 2, [40], [EV_CONTENT]));
    expect(seen).toEqual(['a', 'a', 'b', 'a']);
    expect(s.get('a')!.cols.n).toBe(3);
    expect(s.get('b')!.cols.n).toBe(1);
    expect(s.get('a')!.status).toBe(200);
    expect(s.get('a')!.bytes).toBe(102);
  });

  it('feeds computeRequestStats through a record-shaped view while streaming', () => {
    const s = new LiveStore();
    s.batch(batch('a', 0, [5, 6, 26, 46], [0, EV_CONTENT, EV_CONTENT, EV_CONTENT]));
    const st = computeRequestStats(recordView(s.get('a')!));
    expect(st.firstEventMs).toBe(5);
    expect(st.ttftMs).toBe(6);
    expect(st.itlChunkMs).toEqual([20, 20]);
    expect(st.outputTokens).toBe(3);
    expect(st.tokenSource).toBe('estimated');
    expect(st.e2eMs).toBeNull();
  });

  it('replaces the batches with the final snapshot and ignores late batches', () => {
    const s = new LiveStore();
    s.batch(batch('a', 0, [6], [EV_CONTENT]));
    const snap: RequestSnapshot = {
      summary: { ...summary('a'), state: 'done', ttftMs: 6 },
      input: { targetId: 't', model: 'm', prompt: 'hi' },
      record: {
        id: 'a',
        url: 'http://x/v1/chat/completions',
        dialect: 'openai-chat',
        model: 'm',
        startedAtWall: 0,
        phases: { ...phases, endMs: 50 },
        status: 200,
        contentType: 'text/event-stream',
        serverRequestId: null,
        events: {
          n: 3,
          t: Float64Array.from([6, 26, 48]),
          tokens: Uint32Array.from([1, 2, 0]),
          read: Uint32Array.from([0, 1, 2]),
          flags: Uint16Array.from([EV_CONTENT | EV_TOKENS_EXACT, EV_CONTENT | EV_TOKENS_EXACT, EV_TERMINAL]),
          size: Uint32Array.from([1, 1, 1]),
          text: ['a', 'bc', ''],
        },
        raw: ['1', '2', '[DONE]'],
        text: 'abc',
        reasoning: '',
        finishReason: 'length',
        usage: null,
        tokenSource: 'per-event',
        bytes: 300,
        reads: 3,
        terminated: true,
        error: null,
      },
    };
    s.finished(snap);
    s.batch(batch('a', 1, [99], [EV_CONTENT]));
    const r = s.get('a')!;
    expect(r.cols.n).toBe(3);
    expect(r.cols.fullText).toBe('abc');
    const st = computeRequestStats(recordView(r));
    expect(st.e2eMs).toBe(50);
    expect(st.outputTokens).toBe(3);
    expect(st.tokenSource).toBe('per-event');
    expect(recordView(r).finishReason).toBe('length');
  });

  it('evicts the oldest requests beyond its cap but never pinned ones', () => {
    const s = new LiveStore(3);
    s.ensure('keep');
    s.pinned.add('keep');
    for (const id of ['a', 'b', 'c', 'd']) s.ensure(id);
    expect(s.size).toBe(3);
    expect(s.get('keep')).toBeDefined();
    expect(s.get('d')).toBeDefined();
    expect(s.get('a')).toBeUndefined();
  });
});
