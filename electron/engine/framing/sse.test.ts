import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SseParser, type SseEvent } from './sse.ts';
import {
  corpusFiles,
  parseSse,
  partition,
  readCorpus,
  utf8,
  type SseResult,
} from '../../testing/framing-corpus.ts';

const SSE_FILES = corpusFiles('sse');
const key = (r: SseResult): string => JSON.stringify(r);
const textOf = (b: Uint8Array): string => new TextDecoder().decode(b);

/**
 * An independent, deliberately naive oracle for the corpus server bodies, which are LF-only
 * (SOURCES.md "Terms and conventions"): blocks split on a blank line, `data:`/`event:` lines.
 */
function naiveEvents(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    let event = '';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      else if (line.startsWith('event:')) event = line.slice(6).replace(/^ /, '');
    }
    if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), id: '' });
  }
  return out;
}

describe('SSE corpus replay', () => {
  it('finds the corpus', () => {
    expect(SSE_FILES.length).toBeGreaterThanOrEqual(37);
    expect(SSE_FILES).toContain('whatwg-edge-cases.sse');
  });

  for (const name of SSE_FILES) {
    describe(name, () => {
      const bytes = readCorpus(name);
      const whole = parseSse([bytes]);

      it('gives the same events, retry and end info when split at every byte boundary', () => {
        const expected = key(whole);
        for (let i = 0; i <= bytes.length; i++) {
          const got = parseSse(partition(bytes, [i]));
          if (key(got) !== expected) expect.fail(`split at byte ${i} of ${bytes.length} differs`);
        }
      });

      it('gives the same events for any partition into reads (incl. empty reads)', () => {
        const expected = key(whole);
        fc.assert(
          fc.property(fc.array(fc.nat({ max: bytes.length }), { maxLength: 200 }), (cuts) => {
            expect(key(parseSse(partition(bytes, cuts)))).toBe(expected);
          }),
          { numRuns: 60 },
        );
      });

      if (name !== 'whatwg-edge-cases.sse') {
        it('matches a naive LF-only oracle: one event per `data:` line, every event terminated', () => {
          const text = textOf(bytes);
          expect(text).not.toContain('\r');
          expect(whole.events).toEqual(naiveEvents(text));
          expect(whole.events.length).toBe((text.match(/^data:/gm) ?? []).length);
          expect(whole.end).toEqual({ discardedData: null, unterminatedLine: '' });
          expect(whole.retryMs).toBeNull();
        });
      }
    });
  }

  it('has the event counts a reader of the files expects', () => {
    const count = (f: string) => parseSse([readCorpus(f)]).events.length;
    expect(count('vllm-chat.sse')).toBe(12); // role + 9 tokens + EOS/finish + [DONE]
    expect(count('tgi-chat-keepalive.sse')).toBe(4); // the two `:` keep-alives are comments
    expect(count('tgi-generate-stream.sse')).toBe(8); // one per token, no [DONE]
    expect(count('llamacpp-legacy-error-field.sse')).toBe(1); // `error:` is an unknown field
    expect(count('openai-responses.sse')).toBe(22);
    const resp = parseSse([readCorpus('openai-responses.sse')]).events;
    expect(resp[0]!.event).toBe('response.created');
    expect(resp.at(-1)!.event).toBe('response.completed');
  });
});

describe('whatwg-edge-cases.sse (expected results from SOURCES.md "Parser test vector")', () => {
  const r = parseSse([readCorpus('whatwg-edge-cases.sse')]);

  it('dispatches exactly the four events', () => {
    expect(r.events).toEqual([
      { event: 'custom', data: 'first line\nsecond line\n third line', id: '42' },
      { event: 'message', data: '', id: '42' },
      { event: 'message', data: 'lone-CR line ending', id: '42' },
      { event: 'message', data: '{"ok":true}', id: '42' },
    ]);
  });

  it('takes retry 3000 and reports the discarded trailing event at end()', () => {
    expect(r.retryMs).toBe(3000);
    expect(r.end.discardedData).toBe('trailing event without blank line is discarded at EOF');
    expect(r.end.unterminatedLine).toBe('data: trailing event without blank line is discarded at EOF');
  });
});

function run(reads: (string | number[])[]): SseResult {
  return parseSse(reads.map((r) => (typeof r === 'string' ? utf8(r) : new Uint8Array(r))));
}
const datas = (r: SseResult) => r.events.map((e) => e.data);

describe('line endings', () => {
  it('joins a CR at the end of one read with the LF at the start of the next (one line end, not two)', () => {
    expect(datas(run(['data: a\r', '\ndata: b\r\n\r\n']))).toEqual(['a\nb']);
    expect(datas(run(['data: a\r\n\r', '\ndata: b\r\n\r\n']))).toEqual(['a', 'b']);
  });

  it('keeps waiting for that LF across zero-length reads', () => {
    expect(datas(run(['data: a\r', '', '\ndata: b\r\n\r\n']))).toEqual(['a\nb']);
    expect(datas(run(['data: a\r', [], [], '\n\r', [], '\n']))).toEqual(['a']);
  });

  it('treats a lone CR as a line end, also at the end of a read', () => {
    expect(datas(run(['data: a\r\rdata: b\r\r']))).toEqual(['a', 'b']);
    expect(datas(run(['data: a\r', '\r', 'data: b\r', '\r']))).toEqual(['a', 'b']);
    expect(datas(run(['data: a\r', 'data: b\r\r']))).toEqual(['a\nb']);
  });

  it('accepts LF, CRLF and CR mixed in one stream', () => {
    expect(datas(run(['data: 1\n\ndata: 2\r\n\r\ndata: 3\r\rdata: 4\n\r\n']))).toEqual(['1', '2', '3', '4']);
  });
});

describe('UTF-8 decoding', () => {
  const s = 'data: héllo € 世界 😀 end\n\n';
  const bytes = utf8(s);

  it('joins multi-byte characters (2, 3 and 4 bytes) split across reads', () => {
    for (let i = 0; i <= bytes.length; i++) {
      expect(datas(parseSse(partition(bytes, [i])))).toEqual(['héllo € 世界 😀 end']);
    }
    const oneByteReads = Array.from(bytes, (b) => new Uint8Array([b]));
    expect(datas(parseSse(oneByteReads))).toEqual(['héllo € 世界 😀 end']);
  });

  it('splits a 4-byte emoji at each of its inner boundaries', () => {
    const at = bytes.indexOf(0xf0);
    for (const k of [1, 2, 3])
      expect(datas(parseSse(partition(bytes, [at + k])))).toEqual(['héllo € 世界 😀 end']);
    expect(datas(parseSse(partition(bytes, [at + 1, at + 2, at + 3])))).toEqual(['héllo € 世界 😀 end']);
  });

  it('turns invalid bytes into U+FFFD', () => {
    expect(datas(run(['data: a', [0xff], 'b\n\n']))).toEqual(['a\uFFFDb']);
    expect(datas(run(['data: a', [0xe2, 0x82], '\n\n']))).toEqual(['a\uFFFD']); // truncated 3-byte sequence
    expect(datas(run(['data: ', [0xed, 0xa0, 0x80], '\n\n']))).toEqual(['\uFFFD\uFFFD\uFFFD']); // surrogate
  });

  it('flushes an incomplete sequence at EOF as U+FFFD in the unterminated line', () => {
    expect(run(['data: x', [0xf0, 0x9f]]).end.unterminatedLine).toBe('data: x\uFFFD');
  });
});

describe('BOM', () => {
  const BOM = [0xef, 0xbb, 0xbf];
  it('strips one leading BOM, also when split across reads', () => {
    expect(datas(run([BOM, 'data: x\n\n']))).toEqual(['x']);
    expect(datas(run([[0xef], [0xbb, 0xbf, 0x64], 'ata: x\n\n']))).toEqual(['x']);
  });

  it('strips only the first: a second BOM makes the field name "\\uFEFFdata", which is ignored', () => {
    expect(run([[...BOM, ...BOM], 'data: x\n\n']).events).toEqual([]);
    expect(datas(run(['data: a\n\n', BOM, 'data: b\n\n']))).toEqual(['a']);
    expect(datas(run(['data: a\uFEFFb\n\n']))).toEqual(['a\uFEFFb']);
  });
});

describe('fields', () => {
  it('a `data` line without colon appends an empty line', () => {
    expect(datas(run(['data\n\n']))).toEqual(['']);
    expect(datas(run(['data\ndata\n\n']))).toEqual(['\n']);
    expect(datas(run(['data: a\ndata\n\n']))).toEqual(['a\n']);
  });

  it('strips exactly one space after the colon', () => {
    expect(datas(run(['data:x\n\ndata: x\n\ndata:  x\n\n']))).toEqual(['x', 'x', ' x']);
  });

  it('ignores comments, including the empty keep-alive comment', () => {
    expect(run([':\n\n: hello\n\n:data: x\n\n']).events).toEqual([]);
    expect(datas(run(['data: a\n: inside\ndata: b\n\n']))).toEqual(['a\nb']);
  });

  it('ignores an id containing NUL, keeps the last good one; a bare `id` resets it', () => {
    const r = run(['id: 1\ndata: a\n\nid: 2\u00003\ndata: b\n\nid\ndata: c\n\n']);
    expect(r.events.map((e) => e.id)).toEqual(['1', '1', '']);
  });

  it('accepts retry only as ASCII digits', () => {
    for (const bad of ['retry: 12a', 'retry: -5', 'retry: 1.5', 'retry:', 'retry', 'retry:  7', 'retry: ٣']) {
      expect(run([bad + '\n\n']).retryMs).toBeNull();
    }
    expect(run(['retry: 500\n\n']).retryMs).toBe(500);
    expect(run(['retry:0\n\n']).retryMs).toBe(0);
    expect(run(['retry: 500\nretry: x\n\n']).retryMs).toBe(500);
  });

  it('sets and resets the event type; an event-only block fires nothing and does not leak its type', () => {
    const r = run(['event: a\ndata: 1\n\nevent: no-data\n\ndata: 2\n\nevent:\ndata: 3\n\n']);
    expect(r.events.map((e) => [e.event, e.data])).toEqual([
      ['a', '1'],
      ['message', '2'],
      ['message', '3'],
    ]);
  });

  it('treats field names case-sensitively and ignores unknown ones (llama.cpp `error:`)', () => {
    expect(run(['Data: x\n\nerror: {"a":1}\n\nDATA: y\n\n']).events).toEqual([]);
  });
});

describe('push() return value and pushText()', () => {
  it('returns how many events each read completed', () => {
    const p = new SseParser();
    const out: SseEvent[] = [];
    expect(p.push(utf8('data: a\n\ndata: b\n'), out)).toBe(1);
    expect(p.push(utf8('\ndata: c\n\n'), out)).toBe(2);
    expect(p.end(out)).toEqual({ discardedData: null, unterminatedLine: '' });
  });

  it('pushText gives the same events as push', () => {
    const text = textOf(readCorpus('tgi-chat-keepalive.sse'));
    const p = new SseParser();
    const out: SseEvent[] = [];
    p.pushText(text, out);
    expect(out).toEqual(parseSse([readCorpus('tgi-chat-keepalive.sse')]).events);
  });

  it('reports an event left without its blank line', () => {
    expect(run(['data: a\n']).end).toEqual({ discardedData: 'a', unterminatedLine: '' });
    expect(run(['data: a\ndata: b']).end).toEqual({ discardedData: 'a\nb', unterminatedLine: 'data: b' });
    expect(run(['retry: 9']).retryMs).toBeNull(); // an unterminated line is never applied
  });
});
