/**
 * A body with large images assembled as bytes (image-body.ts) is byte for byte the JSON text the
 * body would have been, in both dialects that send images, with small and large images mixed, a
 * prompt holding text that looks like a placeholder and non-ASCII text. Over loopback through the
 * stream-I/O thread: electron/runs/prompts/image-upload.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildRequestBody } from './body.ts';
import { getDialect } from './dialects/index.ts';
import { bodyOf, SPLICE_MIN_CHARS } from './image-body.ts';
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
      expect(typeof b).not.toBe('string');
      const text = JSON.stringify(buildRequestBody(getDialect(dialect), s));
      expect(Buffer.from(b as Uint8Array).equals(Buffer.from(text))).toBe(true);
      // Its own buffer: transferable.
      expect((b as Uint8Array).buffer.byteLength).toBe((b as Uint8Array).byteLength);
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
