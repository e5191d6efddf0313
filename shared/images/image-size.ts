/**
 * The pixel size of a PNG or JPEG from its bytes, read from the headers only: PNG's IHDR chunk
 * (PNG spec §11.2.2: width and height, 4 bytes each, big-endian, right after the signature and
 * "IHDR"), JPEG's first start-of-frame marker (ITU T.81 §B.2.2: SOF0–SOF15 but DHT/JPG/DAC,
 * then length, precision, height, width). Used where an image is loaded (the workload's files)
 * and where one is received (the simulator's tokens per image). No Buffer: plain bytes, so the
 * renderer could use it too.
 */
type ImageFormat = 'png' | 'jpeg';

export interface ImageSize {
  format: ImageFormat;
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16 = (b: Uint8Array, i: number): number => (b[i]! << 8) | b[i + 1]!;
const u32 = (b: Uint8Array, i: number): number =>
  ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;

/** Which format the bytes start as, or null. */
function imageFormatOf(b: Uint8Array): ImageFormat | null {
  if (b.length >= 8 && PNG_SIGNATURE.every((v, i) => b[i] === v)) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  return null;
}

/** The image's size, or why it has none (not PNG or JPEG, or cut before its size). */
export function imageSizeOf(b: Uint8Array): ImageSize | string {
  const format = imageFormatOf(b);
  if (format === 'png') {
    // Signature (8), chunk length (4), "IHDR" (4), width (4), height (4).
    if (b.length < 24 || String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!) !== 'IHDR')
      return 'a PNG without its IHDR header';
    return sized(format, u32(b, 16), u32(b, 20));
  }
  if (format === 'jpeg') return jpegSize(b);
  return 'not a PNG or JPEG image';
}

function sized(format: ImageFormat, width: number, height: number): ImageSize | string {
  return width > 0 && height > 0
    ? { format, width, height }
    : `a ${format.toUpperCase()} of ${width}×${height} pixels`;
}

/** Walks the markers from SOI to the first SOF (segments carry their length; SOS ends the headers). */
function jpegSize(b: Uint8Array): ImageSize | string {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return 'a JPEG whose markers are broken';
    const m = b[i + 1]!;
    if (m === 0xff) {
      i++; // fill byte
      continue;
    }
    const isSof = m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
    if (isSof)
      return i + 9 <= b.length
        ? sized('jpeg', u16(b, i + 7), u16(b, i + 5))
        : 'a JPEG cut in its frame header';
    if (m === 0xda) break; // start of scan: no frame header before it
    i += 2 + u16(b, i + 2);
  }
  return 'a JPEG without a frame header (SOF) before its data';
}
