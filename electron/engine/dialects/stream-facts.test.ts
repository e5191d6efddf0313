/**
 * What the stream decoder says about a dialect's stream (the content type it expects, the
 * terminator it waits for) is defined on the dialect, for every dialect: adding one touches its
 * own module, not the decoder.
 */
import { describe, expect, it } from 'vitest';
import { STREAMING_DIALECT_IDS } from '../../../shared/dialects.ts';
import { newRecord } from '../../../shared/record.ts';
import { StreamDecoder } from '../stream-decoder.ts';
import { getDialect } from './index.ts';

function decoderFor(id: (typeof STREAMING_DIALECT_IDS)[number]): {
  d: StreamDecoder;
  rec: ReturnType<typeof newRecord>;
} {
  const rec = newRecord({ id: 'x', url: '', dialect: id, model: 'm', startedAtWall: 0 });
  return { d: new StreamDecoder(getDialect(id), rec), rec };
}

describe('every dialect defines its stream facts', () => {
  it.each(STREAMING_DIALECT_IDS)('%s names a terminator and the content types it accepts', (id) => {
    const dialect = getDialect(id);
    expect(dialect.terminator.trim().length).toBeGreaterThan(0);
    expect(dialect.contentType.accepted.length).toBeGreaterThan(0);
    // The type named in the error is itself accepted.
    expect(dialect.contentType.accepted.some((a) => dialect.contentType.expected.includes(a))).toBe(true);
  });

  it.each(STREAMING_DIALECT_IDS)('%s: the decoder reports its own terminator and content type', (id) => {
    const dialect = getDialect(id);
    const ok = decoderFor(id);
    ok.d.checkContentType(`${dialect.contentType.expected}; charset=utf-8`, 1);
    expect(ok.rec.error).toBeNull();
    expect(ok.d.endError(2)?.message).toContain(`(${dialect.terminator})`);

    const bad = decoderFor(id);
    bad.d.checkContentType('image/png', 1);
    expect(bad.rec.error?.code).toBe('content-type');
    expect(bad.rec.error?.message).toContain(`Expected ${dialect.contentType.expected} but`);
  });

  it('keeps the accepted types per framing as before (SSE strict, NDJSON under its several labels)', () => {
    for (const id of STREAMING_DIALECT_IDS) {
      const accepted = getDialect(id).contentType.accepted;
      if (getDialect(id).framing === 'sse') expect(accepted).toEqual(['text/event-stream']);
      else expect(accepted).toEqual(['ndjson', 'application/json', 'text/plain']);
    }
  });
});
