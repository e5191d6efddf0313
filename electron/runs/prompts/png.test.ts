/**
 * The hand-written PNG encoder makes files a decoder accepts: signature, chunks whose CRC-32 is
 * right (checked against zlib's own crc32 where Node has it, and the published check value), an
 * IHDR with the size, and an IDAT whose zlib stream inflates back to the rows with filter 0.
 * Seeded: the same seed and salt give the same bytes, another salt others.
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, encodePng, noiseRgb } from './png.ts';
import { imageSizeOf } from '../../../shared/images/image-size.ts';

function chunks(png: Buffer): { type: string; data: Buffer; crc: number }[] {
  const out = [];
  let i = 8;
  while (i < png.length) {
    const len = png.readUInt32BE(i);
    const type = png.toString('latin1', i + 4, i + 8);
    out.push({ type, data: png.subarray(i + 8, i + 8 + len), crc: png.readUInt32BE(i + 8 + len) });
    i += 12 + len;
  }
  return out;
}

describe('PNG encoder', () => {
  it('CRC-32 gives the standard check value', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('writes a PNG whose chunks check and whose pixels inflate back', () => {
    const w = 37;
    const h = 11;
    const rgb = noiseRgb(w, h, 7, 'image:0');
    const png = encodePng(w, h, rgb);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const cs = chunks(png);
    expect(cs.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    for (const c of cs) expect(c.crc).toBe(crc32(Buffer.concat([Buffer.from(c.type, 'latin1'), c.data])));
    const ihdr = cs[0]!.data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[12]]).toEqual([w, h, 8, 2, 0]);
    const raw = inflateSync(cs[1]!.data);
    expect(raw.length).toBe((w * 3 + 1) * h);
    for (let y = 0; y < h; y++) {
      expect(raw[y * (w * 3 + 1)]).toBe(0);
      expect(
        Buffer.compare(
          raw.subarray(y * (w * 3 + 1) + 1, (y + 1) * (w * 3 + 1)),
          Buffer.from(rgb.subarray(y * w * 3, (y + 1) * w * 3)),
        ),
      ).toBe(0);
    }
    expect(imageSizeOf(png)).toEqual({ format: 'png', width: w, height: h });
  });

  it('is seeded: same seed and salt, same bytes; another salt, other bytes', () => {
    const a = encodePng(16, 16, noiseRgb(16, 16, 1, 'image:0'));
    expect(encodePng(16, 16, noiseRgb(16, 16, 1, 'image:0')).equals(a)).toBe(true);
    expect(encodePng(16, 16, noiseRgb(16, 16, 1, 'image:1')).equals(a)).toBe(false);
    expect(encodePng(16, 16, noiseRgb(16, 16, 2, 'image:0')).equals(a)).toBe(false);
  });

  it('refuses pixels that do not match the size', () => {
    expect(() => encodePng(4, 4, new Uint8Array(10))).toThrow(/expected 48 bytes/);
  });
});
