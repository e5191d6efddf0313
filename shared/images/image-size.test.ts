/** Image sizes from headers: PNG IHDR, JPEG's first SOF after other segments; refusals say why. */
import { describe, expect, it } from 'vitest';
import { imageSizeOf } from './image-size.ts';

/** A JPEG's headers: SOI, an APP0 segment, a DQT-like segment, SOF (baseline or progressive), SOS. */
function jpeg(sof: number, width: number, height: number): Uint8Array {
  const app0 = [
    0xff,
    0xe0,
    0x00,
    0x10,
    ...'JFIF\0'.split('').map((c) => c.charCodeAt(0)),
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
  ];
  const dqt = [0xff, 0xdb, 0x00, 0x04, 0x00, 0x01];
  const frame = [
    0xff,
    sof,
    0x00,
    0x11,
    8,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ];
  return new Uint8Array([0xff, 0xd8, ...app0, ...dqt, ...frame, 0xff, 0xda, 0x00, 0x02]);
}

describe('imageSizeOf', () => {
  it('reads a JPEG frame header after other segments (baseline and progressive)', () => {
    expect(imageSizeOf(jpeg(0xc0, 640, 480))).toEqual({ format: 'jpeg', width: 640, height: 480 });
    expect(imageSizeOf(jpeg(0xc2, 4032, 3024))).toEqual({ format: 'jpeg', width: 4032, height: 3024 });
  });

  it('says why it has no size', () => {
    expect(imageSizeOf(new TextEncoder().encode('GIF89a....'))).toBe('not a PNG or JPEG image');
    expect(imageSizeOf(jpeg(0xc0, 640, 480).subarray(0, 30))).toMatch(/JPEG/);
    expect(imageSizeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toMatch(
      /IHDR/,
    );
    expect(imageSizeOf(jpeg(0xc0, 0, 480))).toMatch(/0×480/);
  });
});
