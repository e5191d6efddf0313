import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DIALECT_IDS,
  DIALECT_PATHS,
  STREAMING_DIALECT_IDS,
  type DialectId,
} from '../../../shared/dialects.ts';
import type { RequestSpec } from '../../../shared/request.ts';
import { corpusFiles, partition, readCorpus } from '../../testing/framing-corpus.ts';
import { DIALECTS, getDialect } from './index.ts';
import { CORPUS_DIALECT, NO_DIALECT, framesOf, replay, replayFrames } from '../../testing/dialect-replay.ts';
import type { DecodedEvent } from './types.ts';

const KINDS = new Set(['content', 'empty', 'meta', 'usage', 'done', 'error', 'invalid']);

describe('dialect registry', () => {
  it('has one dialect per id, with its path and framing', () => {
    expect(Object.keys(DIALECTS).sort()).toEqual([...DIALECT_IDS].sort());
    for (const id of DIALECT_IDS) {
      const d = getDialect(id);
      expect(d.id).toBe(id);
      expect(d.path).toBe(DIALECT_PATHS[id]);
      expect(d.framing).toBe(id.startsWith('ollama-') ? 'ndjson' : 'sse');
    }
  });

  it('throws on an unknown id instead of returning undefined', () => {
    expect(() => getDialect('nope' as DialectId)).toThrow(/Unknown dialect/);
    expect(() => getDialect('toString' as DialectId)).toThrow(/Unknown dialect/);
  });

  it('builds a streaming, JSON-clean body for every streaming dialect (no undefined, no extraBody)', () => {
    for (const id of STREAMING_DIALECT_IDS) {
      const spec: RequestSpec = {
        url: 'http://x',
        dialect: id,
        model: 'm',
        prompt: 'p',
        params: { maxTokens: 4 },
        extraBody: { zzz: 1 },
      };
      const body = getDialect(id).buildBody(spec);
      expect(body.stream).toBe(true);
      expect(JSON.parse(JSON.stringify(body))).toEqual(body);
      expect(body).not.toHaveProperty('zzz');
    }
  });
});

describe('every corpus body is replayed by a dialect test or explicitly out of scope', () => {
  it('maps each .sse/.ndjson file', () => {
    const files = [...corpusFiles('sse'), ...corpusFiles('ndjson')];
    const unmapped = files.filter((f) => !(f in CORPUS_DIALECT) && !NO_DIALECT.has(f));
    expect(unmapped).toEqual([]);
    for (const f of Object.keys(CORPUS_DIALECT)) expect(files).toContain(f);
  });
});

describe('decoding does not depend on how the bytes were read', () => {
  for (const [file, id] of Object.entries(CORPUS_DIALECT)) {
    it(`${file} (${id})`, () => {
      const bytes = readCorpus(file);
      const expected = JSON.stringify(replay(file, id).events);
      fc.assert(
        fc.property(fc.array(fc.nat({ max: bytes.length }), { maxLength: 64 }), (cuts) => {
          const got = replayFrames(id, framesOf(id, partition(bytes, cuts)));
          expect(JSON.stringify(got.events)).toBe(expected);
        }),
        { numRuns: 25 },
      );
    });
  }
});

/** Values shaped like the fields the decoders look at, with anything inside. */
const field = fc.constantFrom(
  'choices',
  'usage',
  'error',
  'error_type',
  'object',
  'message',
  'delta',
  'text',
  'content',
  'token',
  'index',
  'generated_text',
  'details',
  'stop',
  'stop_type',
  'tokens',
  'tokens_predicted',
  'timings',
  'response',
  'thinking',
  'done',
  'done_reason',
  'eval_count',
  'type',
  'finish_reason',
  'tool_calls',
  'reasoning',
  'output',
);
const frameData = fc.oneof(
  fc.string(),
  fc.json(),
  fc.dictionary(field, fc.anything(), { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  fc
    .array(
      fc.dictionary(fc.constantFrom('delta', 'text', 'finish_reason', 'message', 'index'), fc.anything(), {
        maxKeys: 3,
      }),
      { maxLength: 3 },
    )
    .map((choices) => JSON.stringify({ choices, usage: { prompt_tokens: 1, completion_tokens: 2 } })),
);

function wellFormed(e: DecodedEvent): void {
  expect(KINDS.has(e.kind)).toBe(true);
  expect(typeof e.text).toBe('string');
  expect(e.tokens === null || (Number.isSafeInteger(e.tokens) && e.tokens > 0)).toBe(true);
  for (const v of Object.values(e.usage ?? {}))
    expect(v === null || (Number.isSafeInteger(v) && v >= 0)).toBe(true);
  if (e.kind === 'error') expect(typeof e.error?.message).toBe('string');
  if (e.kind === 'invalid') expect(typeof e.invalidReason).toBe('string');
}

describe('decoders never throw', () => {
  for (const id of DIALECT_IDS) {
    it(`${id}: any sequence of frames gives well-formed events`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.constantFrom('message', 'error', 'response.output_text.delta'), frameData), {
            maxLength: 8,
          }),
          (frames) => {
            const d = getDialect(id).createDecoder();
            for (const [event, data] of frames) wellFormed(d.decode({ event, data }));
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});
