/**
 * A PNG encoder for generated images (no maintained encoder is among the dependencies): 8-bit
 * RGB, filter type 0 on every row, one zlib stream in one IDAT chunk (PNG spec, W3C 2003:
 * §5.2 signature, §5.3 chunk layout with its CRC-32 over type and data, §11.2.2 IHDR, §10 zlib).
 * The pixels are seeded noise: the same (seed, salt, size) gives the same bytes on any machine,
 * and noise barely compresses, so an image weighs about 3 bytes a pixel — what a photo sent as
 * PNG weighs, and the worst case for an upload.
 */
import { deflateSync } from 'node:zlib';
import { hash32 } from '../../../shared/prng.ts';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/**
 * CRC-32 (ISO 3309, the one PNG and zlib's gzip use) of bytes.
 * @internal exported for its tests
 */
export function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A PNG of `rgb` (width × height × 3 bytes, rows top to bottom). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const stride = width * 3;
  if (rgb.length !== stride * height)
    throw new RangeError(`expected ${stride * height} bytes of RGB, got ${rgb.length}`);
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour (RGB)
  // compression 0 (deflate), filter method 0, interlace 0: already zero.
  // Level 1: noise does not compress at any level, and 1 is the fastest.
  const idat = deflateSync(raw, { level: 1 });
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Seeded RGB noise (xorshift32 from hash32 of the seed and salt): 4 bytes per step. */
export function noiseRgb(width: number, height: number, seed: number, salt: string): Uint8Array {
  const n = width * height * 3;
  const words = new Uint32Array(Math.ceil(n / 4));
  let x = hash32(salt, seed) || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return new Uint8Array(words.buffer, 0, n);
}
