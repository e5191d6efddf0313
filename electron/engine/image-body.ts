/**
 * A request body with large images, assembled as bytes. A 256×256 image is ~260 KB of base64 in
 * the JSON; built as text for every request it was flattened into the body, scanned by
 * JSON.stringify, counted for Content-Length, copied to the I/O thread and encoded to UTF-8 there:
 * ~1 ms of the measuring thread's time a request, which at a few hundred requests a second held
 * back the schedule itself. Here the body is written as JSON with a placeholder where each large
 * image's base64 goes, and the body is the JSON's parts around the images, each image's bytes a
 * blob encoded once and held once by each thread (io/blobs.ts: the images are built before the
 * clock and shared by every request that sends them). Base64 needs no JSON escaping: the bytes
 * written are exactly those JSON.stringify would have written.
 */
import { randomBytes } from 'node:crypto';
import type { RequestImage, RequestSpec } from '../../shared/request.ts';
import type { Dialect } from './dialects/index.ts';
import { buildRequestBody } from './body.ts';
import { addBlob, dropBlob, type BodyPart } from './io/blobs.ts';

/** Images whose base64 is at least this long are spliced in as bytes; smaller ones stay text. @internal exported for its tests */
export const SPLICE_MIN_CHARS = 16 * 1024;

/** Marks a placeholder: random per process, so no prompt text can contain it by chance. */
const MARK = `~tsimg${randomBytes(8).toString('hex')}~`;

/**
 * Each image's base64 as a blob (io/blobs.ts), encoded once: keyed by the base64 string itself
 * (each request's image objects are new, their strings shared, and a shared string is found by
 * identity). At most CACHE_MAX images: a workload's images are a handful (16 generated), a
 * dataset's may be many.
 */
const encoded = new Map<string, number>();
const CACHE_MAX = 64;

function blobIdOf(im: RequestImage): number {
  let id = encoded.get(im.base64);
  if (id === undefined) {
    if (encoded.size >= CACHE_MAX) {
      const [oldest, oldId] = encoded.entries().next().value!;
      encoded.delete(oldest);
      dropBlob(oldId);
    }
    id = addBlob(Buffer.from(im.base64, 'latin1'));
    encoded.set(im.base64, id);
  }
  return id;
}

/** The JSON body of `spec` for `dialect`: text, or text parts around image blobs when it sends large images. */
export function bodyOf(dialect: Dialect, spec: RequestSpec): string | BodyPart[] {
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
  const parts: BodyPart[] = [];
  let at = 0;
  for (;;) {
    const i = json.indexOf(MARK, at);
    if (i < 0) break;
    const j = json.indexOf(MARK, i + MARK.length);
    parts.push(json.slice(at, i), blobIdOf(spliced[Number(json.slice(i + MARK.length, j))]!));
    at = j + MARK.length;
  }
  parts.push(json.slice(at));
  return parts;
}
