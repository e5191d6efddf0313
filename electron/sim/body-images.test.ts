/**
 * body-images.ts takes a request's base64 images out of its bytes before the body becomes a
 * string. What it must keep: the body means what it meant (every other value as JSON.parse reads
 * the whole body, for any JSON — escapes, non-ASCII text, a data URL written as text), each image
 * counted as before, and its images found in every shape a client sends them. And over HTTP: two
 * large image requests interleaved on the simulator are each charged their own image.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachImages, IMAGE_MARK, imagesOf, liftImages } from './body-images.ts';
import { promptImagesOf } from './images.ts';
import { startSim, type SimServer } from './index.ts';

/** A PNG's signature and IHDR (what the simulator reads), then `pad` bytes of "pixels". */
function png(width: number, height: number, pad: number): Buffer {
  const b = Buffer.alloc(33 + pad, 0xff); // 0xff: "/" in base64, which some encoders escape
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

const dataUrl = (img: Buffer): string => `data:image/png;base64,${img.toString('base64')}`;

/** The body split into reads of `size` bytes, as the server's 'data' events hand it over. */
function reads(body: string, size = 65_536): { chunks: Buffer[]; size: number } {
  const all = Buffer.from(body, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < all.length; i += size) chunks.push(all.subarray(i, i + size));
  return { chunks, size: all.length };
}

/** Parses a lifted body and puts each image's base64 back where its marker stands. */
function restored(text: string, images: readonly Buffer[], prefixes = true): unknown {
  return JSON.parse(text, (_k, v: unknown) => {
    if (typeof v !== 'string') return v;
    const at = v.indexOf(IMAGE_MARK);
    if (at < 0) return v;
    const i = Number(v.slice(at + IMAGE_MARK.length));
    const b64 = JSON.parse(`"${images[i]!.toString('latin1')}"`) as string;
    return prefixes ? v.slice(0, at) + b64 : b64;
  });
}

/** Image tokens of a body, parsed the way the simulator parses it (lifted, then attached). */
function tokensLifted(body: string): ReturnType<typeof promptImagesOf> {
  const { chunks, size } = reads(body);
  const lifted = liftImages(chunks, size);
  const parsed = JSON.parse(lifted.text) as { messages: unknown };
  attachImages(parsed, lifted.images);
  return promptImagesOf(parsed.messages, imagesOf(parsed));
}

describe('liftImages', () => {
  const big = png(256, 256, 190_000); // ~253 KB of base64: 10 × 10 image tokens

  it('takes an OpenAI data URL out of the bytes; the tokens are those of the whole body', () => {
    const body = JSON.stringify({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            // One escaped quote: a walk that took it for the string's end would be out of step after it.
            { type: 'text', text: 'What is on this 6" shelf? ' + 'word '.repeat(4000) },
            { type: 'image_url', image_url: { url: dataUrl(big) } },
          ],
        },
      ],
      stream: true,
    });
    const { chunks, size } = reads(body);
    const lifted = liftImages(chunks, size);
    expect(lifted.images).toHaveLength(1);
    expect(lifted.images[0]!.toString('latin1')).toBe(big.toString('base64'));
    expect(lifted.text.length).toBeLessThan(25_000); // the prompt's text, not the image
    expect(restored(lifted.text, lifted.images)).toEqual(JSON.parse(body));
    expect(tokensLifted(body)).toEqual({ images: 1, imageTokens: 100 });
    expect(promptImagesOf((JSON.parse(body) as { messages: unknown }).messages)).toEqual({
      images: 1,
      imageTokens: 100,
    });
  });

  it('finds Anthropic base64 sources and Responses-style image_url strings, with escaped slashes', () => {
    const b64 = png(300, 100, 50_000).toString('base64');
    // Some encoders (PHP's json_encode) write every "/" as "\/".
    const escaped = b64.replaceAll('/', '\\/');
    expect(escaped).not.toBe(b64);
    const body =
      '{"model":"m","messages":[{"role":"user","content":[' +
      `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${escaped}"}},` +
      `{"type":"image_url","image_url":"data:image/png;base64,${b64}"},` +
      '{"type":"text","text":"two images"}]}]}';
    const { chunks, size } = reads(body, 1000);
    const lifted = liftImages(chunks, size);
    expect(lifted.images).toHaveLength(2);
    expect(restored(lifted.text, lifted.images)).toEqual(JSON.parse(body));
    // 300 × 100 px: ceil(300/28) × ceil(100/28) = 11 × 4 tokens each.
    expect(tokensLifted(body)).toEqual({ images: 2, imageTokens: 88 });
  });

  it('leaves text alone: a data URL written as text, a long text, and small images', () => {
    const asText = `see ${dataUrl(big)} here`;
    const small = dataUrl(png(28, 28, 100)); // under the lifting bound: stays in the JSON
    const body = JSON.stringify({
      messages: [
        { role: 'user', content: [{ type: 'text', text: asText }] },
        { role: 'user', content: [{ type: 'text', text: 'x'.repeat(50_000) }] },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: small } }] },
        { role: 'user', content: [{ type: 'text', url: 'ünïcødé "quoted" \\ '.repeat(200) }] },
      ],
    });
    const { chunks, size } = reads(body, 4096);
    const lifted = liftImages(chunks, size);
    expect(lifted.images).toHaveLength(0);
    expect(JSON.parse(lifted.text)).toEqual(JSON.parse(body));
    expect(tokensLifted(body)).toEqual({ images: 1, imageTokens: 1 });
  });

  it('reads a body larger than the reused buffer keeps (a one-off buffer), then a small one again', () => {
    const huge = JSON.stringify({
      messages: [
        {
          role: 'user',
          content: [{ type: 'image_url', image_url: { url: dataUrl(png(2800, 280, 4_500_000)) } }],
        },
      ],
    });
    expect(huge.length).toBeGreaterThan(6_000_000);
    expect(tokensLifted(huge)).toEqual({ images: 1, imageTokens: 1000 });
    const small = JSON.stringify({
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: dataUrl(png(56, 56, 30_000)) } }] },
      ],
    });
    expect(tokensLifted(small)).toEqual({ images: 1, imageTokens: 4 });
  });

  it('refuses bytes that are not an image, as before', () => {
    const body = JSON.stringify({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: `data:image/png;base64,${'QUJD'.repeat(2000)}` } },
          ],
        },
      ],
      pad: 'p'.repeat(20_000),
    });
    expect(tokensLifted(body)).toBe('messages[0].content[0]: the image is not a PNG or JPEG image');
  });

  it('keeps what any JSON body means, with images anywhere in it (property)', () => {
    const image = fc
      .tuple(
        fc.integer({ min: 1, max: 4000 }),
        fc.integer({ min: 1, max: 4000 }),
        fc.integer({ min: 700, max: 3000 }),
      )
      .map(([w, h, pad]) => png(w, h, pad).toString('base64'));
    const imagePart = fc.oneof(
      image.map((d) => ({ type: 'image_url', image_url: { url: `data:image/png;base64,${d}` } })),
      image.map((d) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: d } })),
    );
    const text = fc.string({ unit: 'binary', maxLength: 3000 });
    const body = fc.record({
      messages: fc.array(
        fc.record({
          role: text,
          content: fc.array(
            fc.oneof(
              imagePart,
              text.map((t) => ({ type: 'text', text: t })),
            ),
            { maxLength: 4 },
          ),
        }),
        { maxLength: 4 },
      ),
      extra: fc.jsonValue({ maxDepth: 3 }),
      pad: fc.string({ minLength: 0, maxLength: 20_000 }),
    });
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 70_000 }), fc.boolean(), (b, readSize, spaced) => {
        const json = JSON.stringify(b, null, spaced ? 1 : undefined);
        const { chunks, size } = reads(json, readSize);
        const lifted = liftImages(chunks, size);
        expect(restored(lifted.text, lifted.images)).toEqual(JSON.parse(json));
        const parsed = JSON.parse(lifted.text) as { messages: unknown };
        attachImages(parsed, lifted.images);
        expect(promptImagesOf(parsed.messages, imagesOf(parsed))).toEqual(promptImagesOf(b.messages));
      }),
      { numRuns: 150 },
    );
  });
});

describe('the simulator with lifted images', () => {
  let sim: SimServer;
  beforeAll(async () => {
    sim = await startSim({ port: 0, decodeStepMs: 1, prefillMsPerToken: 0 });
  });
  afterAll(() => sim.close());

  /** The prompt tokens the simulator charges for one user message of these content parts. */
  async function promptTokens(content: unknown[]): Promise<number> {
    const r = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tokenscope-sim', max_tokens: 2, messages: [{ role: 'user', content }] }),
    });
    expect(r.status).toBe(200);
    return ((await r.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
  }

  it('charges each of several large image requests its own image, their bodies interleaved', async () => {
    const sizes: [number, number][] = [
      [256, 256],
      [560, 280],
      [28, 1000],
      [1000, 1000],
    ];
    const answers = await Promise.all(
      sizes.map(([w, h]) =>
        promptTokens([{ type: 'image_url', image_url: { url: dataUrl(png(w, h, 200_000)) } }]),
      ),
    );
    const base = await promptTokens([]);
    const tokens = (w: number, h: number): number => Math.ceil(w / 28) * Math.ceil(h / 28);
    expect(answers).toEqual(sizes.map(([w, h]) => base + tokens(w, h)));
  });
});
