import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NdjsonFramer, type NdjsonLine } from './ndjson.ts';
import {
  corpusFiles,
  parseNdjson,
  partition,
  readCorpus,
  utf8,
  type NdjsonResult,
} from '../../testing/framing-corpus.ts';

const FILES = corpusFiles('ndjson');
const key = (r: NdjsonResult): string => JSON.stringify(r);

describe('NDJSON corpus replay (Ollama /api/*, test-corpus/FORMATS.md §2.5)', () => {
  it('finds the corpus', () => {
    expect(FILES).toEqual([
      'ollama-api-chat-thinking.ndjson',
      'ollama-api-chat.ndjson',
      'ollama-api-generate-error-midstream.ndjson',
      'ollama-api-generate.ndjson',
    ]);
  });

  for (const name of FILES) {
    describe(name, () => {
      const bytes = readCorpus(name);
      const whole = parseNdjson([bytes]);

      it('gives one JSON object per non-empty line, all terminated', () => {
        const text = new TextDecoder().decode(bytes);
        const expected = text.split('\n').filter((l) => l.length > 0);
        expect(whole.lines.map((l) => l.data)).toEqual(expected);
        for (const l of whole.lines) expect(typeof JSON.parse(l.data)).toBe('object');
        expect(whole.end.unterminatedLine).toBe('');
      });

      it('gives the same lines when split at every byte boundary', () => {
        const expected = key(whole);
        for (let i = 0; i <= bytes.length; i++) {
          if (key(parseNdjson(partition(bytes, [i]))) !== expected) expect.fail(`split at byte ${i} differs`);
        }
      });

      it('gives the same lines for any partition into reads', () => {
        const expected = key(whole);
        fc.assert(
          fc.property(fc.array(fc.nat({ max: bytes.length }), { maxLength: 200 }), (cuts) => {
            expect(key(parseNdjson(partition(bytes, cuts)))).toBe(expected);
          }),
          { numRuns: 60 },
        );
      });
    });
  }

  it('has the line counts a reader of the files expects', () => {
    const count = (f: string) => parseNdjson([readCorpus(f)]).lines.length;
    expect(count('ollama-api-generate.ndjson')).toBe(8);
    expect(count('ollama-api-chat.ndjson')).toBe(10);
    expect(count('ollama-api-chat-thinking.ndjson')).toBe(7);
    expect(count('ollama-api-generate-error-midstream.ndjson')).toBe(5);
  });
});

const run = (reads: (string | number[])[]) =>
  parseNdjson(reads.map((r) => (typeof r === 'string' ? utf8(r) : new Uint8Array(r))));
const datas = (r: NdjsonResult) => r.lines.map((l) => l.data);

describe('NdjsonFramer', () => {
  it('splits on LF only, drops a CR before the LF (also when the LF comes in the next read)', () => {
    expect(datas(run(['{"a":1}\r\n{"b":2}\n']))).toEqual(['{"a":1}', '{"b":2}']);
    expect(datas(run(['{"a":1}\r', '\n{"b":2}\r', '', '\n']))).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('skips blank and whitespace-only lines', () => {
    expect(datas(run(['\n\n{"a":1}\n  \n\r\n{"b":2}\n\n']))).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('joins UTF-8 characters split across reads and strips one leading BOM', () => {
    const bytes = utf8('\uFEFF{"t":"é😀"}\n');
    for (let i = 0; i <= bytes.length; i++)
      expect(datas(parseNdjson(partition(bytes, [i])))).toEqual(['{"t":"é😀"}']);
  });

  it('turns invalid UTF-8 into U+FFFD', () => {
    expect(datas(run(['{"t":"', [0xff], '"}\n']))).toEqual(['{"t":"\uFFFD"}']);
  });

  it('returns a last line without its LF from end() as unterminated (a cut body)', () => {
    const f = new NdjsonFramer();
    const out: NdjsonLine[] = [];
    expect(f.push(utf8('{"a":1}\n{"b":'), out)).toBe(1);
    expect(f.end(out)).toEqual({ unterminatedLine: '{"b":' });
    expect(out).toEqual([{ data: '{"a":1}' }]);
    expect(run(['{"a":1}\n  ']).end.unterminatedLine).toBe('');
  });
});
