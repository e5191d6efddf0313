/**
 * A request body with large images, assembled as bytes. A 256×256 image is ~260 KB of base64 in
 * the JSON; built as text for every request it was flattened into the body, scanned by
 * JSON.stringify, counted for Content-Length, copied to the I/O thread and encoded to UTF-8 there:
 * ~1 ms of the measuring thread's time a request, which at a few hundred requests a second held
 * back the schedule itself. Here the body is written as JSON with a placeholder where each large
 * image's base64 goes, and the bytes are the JSON's parts around the images' bytes, each image
 * encoded once (the images are built before the clock and shared by every request that sends
 * them). The result owns its buffer, so it can be transferred to the I/O thread (io-engine.ts).
 * Base64 needs no JSON escaping: the bytes are exactly those JSON.stringify would have written.
 */
import { randomBytes } from 'node:crypto';
import type { RequestImage, RequestSpec } from '../../shared/request.ts';
import type { Dialect } from './dialects/index.ts';
import { buildRequestBody } from './body.ts';

/** Images whose base64 is at least this long are spliced in as bytes; smaller ones stay text. @internal exported for its tests */
export const SPLICE_MIN_CHARS = 16 * 1024;

/** Marks a placeholder: random per process, so no prompt text can contain it by chance. */
const MARK = `~tsimg${randomBytes(8).toString('hex')}~`;

/**
 * Each image's base64 as bytes, encoded once: keyed by the base64 string itself (each request's
 * image objects are new, their strings shared, and a shared string is found by identity). At most
 * CACHE_MAX images: a workload's images are a handful (16 generated), a dataset's may be many.
 */
const encoded = new Map<string, Buffer>();
const CACHE_MAX = 64;

function bytesOf(im: RequestImage): Buffer {
  let b = encoded.get(im.base64);
  if (!b) {
    if (encoded.size >= CACHE_MAX) encoded.delete(encoded.keys().next().value!);
    b = Buffer.from(im.base64, 'latin1');
    encoded.set(im.base64, b);
  }
  return b;
}

/** The JSON body of `spec` for `dialect`: text, or bytes when it sends large images. */
export function bodyOf(dialect: Dialect, spec: RequestSpec): string | Uint8Array {
  const images = spec.images;
  if (!images || !images.some((im) => im.base64.length >= SPLICE_MIN_CHARS))
    return JSON.stringify(buildRequestBody(dialect, spec));
  const spliced: RequestImage[] = [];
  const withMarks = images.map((im) => {
    if (im.base64.length < SPLICE_MIN_CHARS) return im;
    spliced.push(im);
    return { ...im, base64: `${MARK}${spliced.length - 1}${MARK}` };
  });
  const json = JSON.stringify(buildRequestBody(dialect, { ...spec, images: withMarks }));
  const parts: (string | Buffer)[] = [];
  let at = 0;
  for (;;) {
    const i = json.indexOf(MARK, at);
    if (i < 0) break;
    const j = json.indexOf(MARK, i + MARK.length);
    parts.push(json.slice(at, i), bytesOf(spliced[Number(json.slice(i + MARK.length, j))]!));
    at = j + MARK.length;
  }
  parts.push(json.slice(at));
  let total = 0;
  for (const p of parts) total += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  // Its own buffer (not the shared pool's): transferable to the I/O thread as it is.
  const out = Buffer.allocUnsafeSlow(total);
  let w = 0;
  for (const p of parts) w += typeof p === 'string' ? out.write(p, w) : p.copy(out, w);
  return out;
}
