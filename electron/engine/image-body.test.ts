/**
 * A body with large images as text parts around shared image blobs (image-body.ts) is byte for
 * byte the JSON text the body would have been, in both dialects that send images, with small and large images mixed, a
 * prompt holding text that looks like a placeholder and non-ASCII text. Over loopback through the
 * stream-I/O thread: electron/runs/prompts/image-upload.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildRequestBody } from './body.ts';
import { getDialect } from './dialects/index.ts';
import { bodyOf, SPLICE_MIN_CHARS } from './image-body.ts';
import { blobOf, partsLength, resolveParts, type BodyPart } from './io/blobs.ts';
import type { RequestImage, RequestSpec } from '../../shared/request.ts';

const big = (n: number): RequestImage => ({
  mediaType: 'image/png',
  base64: randomBytes(n).toString('base64'),
});
const small: RequestImage = { mediaType: 'image/jpeg', base64: '/9j/4AAQ' };

const spec = (dialect: RequestSpec['dialect'], images: RequestImage[]): RequestSpec => ({
  url: 'http://127.0.0.1:1',
  dialect,
  model: 'm',
  messages: [
    { role: 'system', content: 'brief ~tsimg0~ "quoted" \\ back' },
    { role: 'user', content: 'was ist das? 猫 🐈 ~tsimg~1~' },
  ],
  images,
});

describe('image bodies as bytes', () => {
  const large = big(SPLICE_MIN_CHARS); // 4/3 of it in base64
  const larger = big(200_000);
  for (const dialect of ['openai-chat', 'anthropic-messages'] as const) {
    it(`${dialect}: the bytes are the JSON text, large images spliced, small ones in the text`, () => {
      const s = spec(dialect, [large, small, larger, large]);
      const b = bodyOf(getDialect(dialect), s);
      if (typeof b === 'string') throw new Error('expected parts');
      const text = JSON.stringify(buildRequestBody(getDialect(dialect), s));
      const bytes = Buffer.concat(
        resolveParts(b, blobOf).map((p) => (typeof p === 'string' ? Buffer.from(p) : p)),
      );
      expect(bytes.equals(Buffer.from(text))).toBe(true);
      expect(partsLength(b)).toBe(Buffer.byteLength(text));
      // Each large image is one blob, shared by the requests that send it: three blobs for four images.
      const ids = b.filter((p) => typeof p === 'number');
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(2);
      const again = bodyOf(getDialect(dialect), s) as BodyPart[];
      expect(again.filter((p) => typeof p === 'number')).toEqual(ids);
    });
  }

  it('stays text without a large image', () => {
    const s = spec('openai-chat', [small]);
    expect(bodyOf(getDialect('openai-chat'), s)).toBe(
      JSON.stringify(buildRequestBody(getDialect('openai-chat'), s)),
    );
    expect(typeof bodyOf(getDialect('openai-chat'), spec('openai-chat', []))).toBe('string');
  });
});
