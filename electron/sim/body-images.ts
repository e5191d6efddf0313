/**
 * The base64 images of a request body, taken out of its bytes before the body becomes a string.
 *
 * A 256×256 PNG is ~260 KB of base64 in JSON. Decoded as a whole, every such body was three large
 * allocations on the simulator's one thread — the joined bytes, their UTF-8 string, and the string
 * JSON.parse made of the image — each in pages the OS had to hand over afresh: 2.7 ms a request
 * on the development VM, and at 500 requests a second the simulator's core was full (its clients'
 * sockets then backed up, and their schedule lag with them; BENCHMARKS.md). The simulator needs an
 * image's size, which is in its first bytes (images.ts), not the image as a string.
 *
 * So a large body is joined into one reused buffer, its image strings are found in the bytes (a
 * data URL under `url` or `image_url`, a base64 `data` under an Anthropic image source), and each
 * is replaced in the JSON text by a marker naming its place in the list this returns; the rest
 * (the prompt's text, a few KB) becomes the string JSON.parse reads. images.ts decodes a marked
 * image's head from the buffer. The buffer is reused by the next body: what this returns is read
 * while the request is parsed (synchronously) and never kept.
 */

/** Bodies at least this long are joined into the reused buffer and searched for images. */
const LIFT_MIN_BODY = 16 * 1024;
/** An image string shorter than this stays in the JSON (a tiny image costs nothing to parse). */
const LIFT_MIN_STRING = 1024;

/** The reused buffer grows to at most this (a few 256² images a body); larger bodies get their own. */
const SCRATCH_KEEP = 4 * 1024 * 1024;

/** What stands in a marked image's JSON string: `\u0000` cannot come from a client's data URL. */
export const IMAGE_MARK = '\u0000sim-image:';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export interface LiftedBody {
  /** The body as text, image strings replaced by markers. */
  text: string;
  /** The marked images' base64, as sent (JSON escapes such as `\/` kept), in marker order. */
  images: Buffer[];
}

let scratch = Buffer.allocUnsafe(0);

/** The position of the quote that ends the JSON string whose text starts at `from` (-1: none). */
function stringEnd(b: Buffer, from: number): number {
  let i = from;
  for (;;) {
    const q = b.indexOf(QUOTE, i);
    if (q < 0) return -1;
    let k = q - 1;
    while (k >= from && b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q; // an even run of backslashes: the quote is not escaped
    i = q + 1;
  }
}

const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The key of the member whose string value opens at `open` (the quote), or null. */
function keyBefore(b: Buffer, open: number): string | null {
  let i = open - 1;
  while (i >= 0 && isSpace(b[i])) i--;
  if (b[i] !== 0x3a) return null; // ':' — a value in an object, not an array item
  i--;
  while (i >= 0 && isSpace(b[i])) i--;
  if (b[i] !== QUOTE) return null;
  const end = i;
  const start = b.lastIndexOf(QUOTE, end - 1);
  if (start < 0 || end - start > 16) return null;
  return b.toString('latin1', start + 1, end);
}

const DATA_URL = /^data:image\/[a-z+.-]+;base64,/i;

/** Where an image string's base64 starts (after a data URL's prefix), or -1: not one to lift. */
function base64Start(b: Buffer, open: number, end: number): number {
  const key = keyBefore(b, open);
  if (key === 'url' || key === 'image_url') {
    const head = b.toString('latin1', open + 1, Math.min(end, open + 1 + 64));
    const m = DATA_URL.exec(head);
    return m ? open + 1 + m[0].length : -1;
  }
  return key === 'data' ? open + 1 : -1;
}

/** Joins `chunks` (`size` bytes) and takes its image strings out (see the file's comment). */
export function liftImages(chunks: readonly Buffer[], size: number): LiftedBody {
  if (size < LIFT_MIN_BODY) return { text: Buffer.concat(chunks, size).toString('utf8'), images: [] };
  // The buffer kept between bodies is bounded: a larger body (up to the server's 64-MB limit) gets
  // one of its own, dropped with it.
  if (scratch.length < size && size <= SCRATCH_KEEP)
    scratch = Buffer.allocUnsafe(Math.min(SCRATCH_KEEP, Math.max(size, scratch.length * 2)));
  const into = size <= scratch.length ? scratch : Buffer.allocUnsafe(size);
  let at = 0;
  for (const c of chunks) at += c.copy(into, at);
  const b = into.subarray(0, size);
  const images: Buffer[] = [];
  const parts: string[] = [];
  let kept = 0;
  let pos = 0;
  for (;;) {
    const open = b.indexOf(QUOTE, pos);
    if (open < 0) break;
    const end = stringEnd(b, open + 1);
    if (end < 0) break; // unterminated: JSON.parse says so
    if (end - open - 1 >= LIFT_MIN_STRING) {
      const from = base64Start(b, open, end);
      if (from >= 0) {
        parts.push(b.toString('utf8', kept, from), `\\u0000sim-image:${images.length}`);
        images.push(b.subarray(from, end));
        kept = end;
      }
    }
    pos = end + 1;
  }
  parts.push(b.toString('utf8', kept, size));
  return { text: parts.join(''), images };
}

/** The lifted images of parsed bodies: read by images.ts while the request is parsed. */
const lifted = new WeakMap<object, readonly Buffer[]>();

/** Hands `images` to the parse of `body` (the object JSON.parse made of the lifted text). */
export function attachImages(body: unknown, images: readonly Buffer[]): void {
  if (images.length > 0 && typeof body === 'object' && body !== null) lifted.set(body, images);
}

/** The images lifted out of `body`'s bytes (none when it had none). */
export function imagesOf(body: object): readonly Buffer[] {
  return lifted.get(body) ?? [];
}
