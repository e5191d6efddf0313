// The request history is bounded by bytes as well as entries: records decoded from a real flood
// (data after the end marker, test-corpus bytes) fill it up to its byte bound, never past it, the
// newest kept first; and a record stopped at its limits stays within the stated bound.
import { describe, expect, it } from 'vitest';
import type { RequestSnapshot } from '../../shared/api.ts';
import { newRecord, type RequestRecord } from '../../shared/record.ts';
import { StreamDecoder } from '../engine/stream-decoder.ts';
import { getDialect } from '../engine/dialects/index.ts';
import { recordBoundBytes, recordFootprintBytes, type RecordLimits } from '../engine/record-limits.ts';
import { floodOf } from '../testing/hostile-server.ts';
import { RequestHistory } from './request-history.ts';

/** A record as the engine leaves it after an after-done flood of openai-chat chunks. */
function flooded(id: string, limits: RecordLimits): RequestRecord {
  const rec = newRecord({ id, url: '', dialect: 'openai-chat', model: 'm', startedAtWall: 0, raw: [] });
  const d = new StreamDecoder(getDialect('openai-chat'), rec, limits);
  const f = floodOf('openai-chat', 'after-done');
  const enc = new TextEncoder();
  d.pushRead(enc.encode(f.head), 0, 0);
  const block = enc.encode(f.unit.repeat(50));
  for (let i = 1; !d.stop && i < 1_000_000; i++) {
    d.pushRead(block, i, i);
    d.flush();
  }
  d.finalize();
  return rec;
}

function snap(id: string, rec: RequestRecord): RequestSnapshot {
  return {
    summary: {
      id,
      targetId: 't',
      targetName: 't',
      model: 'm',
      dialect: 'openai-chat',
      startedAtWall: 0,
      state: 'error',
      ttftMs: null,
      e2eMs: null,
      outputTokens: 0,
      errorKind: 'client',
      promptPreview: '',
    },
    input: { targetId: 't', model: 'm', prompt: 'x' },
    record: rec,
  };
}

describe('the request history', () => {
  const limits = { maxEvents: 5_000, maxTextChars: 200_000 };

  it('a record stopped at its limits stays within the stated bound', () => {
    const rec = flooded('a', limits);
    expect(rec.error).toMatchObject({ code: 'record-limit' });
    expect(rec.events.n).toBe(5_000);
    const bytes = recordFootprintBytes(rec);
    expect(bytes).toBeGreaterThan(5_000 * 100);
    expect(bytes).toBeLessThanOrEqual(recordBoundBytes(limits));
  });

  it('keeps the newest requests up to its byte bound, never past it', () => {
    const one = recordFootprintBytes(flooded('x', limits));
    const h = new RequestHistory(50, Math.floor(3.5 * one));
    for (let i = 0; i < 10; i++) h.add(snap(`r${i}`, flooded(`r${i}`, limits)));
    expect(h.size).toBe(3);
    expect(h.bytes).toBeLessThanOrEqual(3.5 * one);
    expect(h.summaries().map((s) => s.id)).toEqual(['r9', 'r8', 'r7']);
    expect(h.get('r9')?.record.events.n).toBe(5_000);
    expect(h.get('r6')).toBeNull();
  });

  it('keeps the newest even when it alone is over the bound, and still at most its entries', () => {
    const h = new RequestHistory(50, 1024);
    h.add(snap('big', flooded('big', limits)));
    expect(h.size).toBe(1);
    expect(h.get('big')).not.toBeNull();
    const small = new RequestHistory(4, 1 << 30);
    for (let i = 0; i < 6; i++) small.add(snap(`s${i}`, flooded(`s${i}`, { maxEvents: 50 })));
    expect(small.summaries().map((s) => s.id)).toEqual(['s5', 's4', 's3', 's2']);
  });
});
