/**
 * A request with large images (its body assembled as bytes, engine/image-body.ts) over loopback
 * through the stream-I/O thread, both HTTP clients: the body's buffer is transferred to the thread,
 * the simulator reads both images whole (it charges their tokens), and the shared image is intact
 * for the next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestImage, RequestSpec } from '../../../shared/request.ts';
import { fireRequest } from '../../engine/client.ts';
import { io, IoEngine, useIo } from '../../engine/io/io-engine.ts';
import { defaultEngineConfig } from '../../engine/engine-config.ts';
import { startSim, type SimServer } from '../../sim/index.ts';
import { imageTokensOf } from '../../sim/images.ts';
import { encodePng, noiseRgb } from './png.ts';

const spec = (url: string, images: RequestImage[]): RequestSpec => ({
  url,
  dialect: 'openai-chat',
  model: 'tokenscope-sim',
  messages: [{ role: 'user', content: 'was ist das? 猫 🐈' }],
  images,
  params: { maxTokens: 8, ignoreEos: true },
});

describe.each([
  ['raw HTTP/1.1 driver', 'raw'],
  ["Node's http client", 'node'],
] as const)('an image body over loopback through the I/O thread: %s', (_name, client) => {
  let sim: SimServer;
  beforeAll(async () => {
    sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
    await io().close();
    useIo(new IoEngine(defaultEngineConfig({ ioThreads: 1, httpClient: client, lowerPriority: false })));
  });
  afterAll(async () => {
    await sim.close();
    await io().close();
  });

  it('streams an answer, and the server read both images whole', async () => {
    // A real PNG (noise does not compress): the simulator reads its size and charges its tokens.
    const png = encodePng(256, 256, noiseRgb(256, 256, 7, 'image-body'));
    const im: RequestImage = { mediaType: 'image/png', base64: png.toString('base64') };
    const s = spec(sim.url, [im, im]);
    const before = im.base64;
    for (let k = 0; k < 2; k++) {
      const rec = await fireRequest(s);
      expect(rec.error).toBeNull();
      expect(rec.requestBytes).toBeGreaterThan(2 * im.base64.length);
      expect(rec.usage?.completionTokens).toBe(8);
      expect(rec.usage?.promptTokens).toBeGreaterThanOrEqual(2 * imageTokensOf(256, 256));
    }
    // The image is still whole for the next request: only each assembled body moved.
    expect(im.base64).toBe(before);
  });
});
