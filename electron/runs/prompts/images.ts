/**
 * The images a run sends (workload `images`, shared/runs/workload/images.ts): generated PNGs or
 * image files, encoded to base64 once before the run and shared by every request that sends
 * them, so preparing 10k requests with images costs no more per request than without (each
 * request holds references; the body is assembled when it is sent, as for any prompt).
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { RequestImage } from '../../../shared/request.ts';
import { imageSizeOf, type ImageSize } from '../../../shared/images/image-size.ts';
import { IMAGE_LIMITS, imageIndex, type ImagesSpec } from '../../../shared/runs/workload/images.ts';
import { errorMessage } from '../../../shared/result.ts';
import { PromptFileError } from './files.ts';
import type { PromptProvider } from './items.ts';
import { encodePng, noiseRgb } from './png.ts';

export interface LoadedImage extends RequestImage, ImageSize {
  /** Encoded bytes (before base64). */
  bytes: number;
}

const KiB = (n: number): string => `${(n / 1024).toFixed(0)} KiB`;

/** Builds the distinct generated images, yielding between them (a large pool takes a while). */
async function generateImages(spec: ImagesSpec, seed: number): Promise<LoadedImage[]> {
  const out: LoadedImage[] = [];
  let total = 0;
  for (let k = 0; k < spec.distinct; k++) {
    const png = encodePng(spec.width, spec.height, noiseRgb(spec.width, spec.height, seed, `image:${k}`));
    if (png.length > IMAGE_LIMITS.imageBytes)
      throw new PromptFileError(
        `images: a generated image is ${KiB(png.length)}, over the ${KiB(IMAGE_LIMITS.imageBytes)} limit`,
      );
    total += png.length;
    if (total > IMAGE_LIMITS.poolBytes)
      throw new PromptFileError(`images.distinct: the images would keep over ${KiB(IMAGE_LIMITS.poolBytes)}`);
    out.push({
      mediaType: 'image/png',
      base64: png.toString('base64'),
      format: 'png',
      width: spec.width,
      height: spec.height,
      bytes: png.length,
    });
    if (k % 8 === 7) await new Promise((r) => setImmediate(r));
  }
  return out;
}

/**
 * One image file, checked: at most IMAGE_LIMITS.imageBytes (its size is read before its bytes, so
 * a huge file is refused unread), a PNG or JPEG with a size. `field` names it in errors.
 */
export async function readImageFile(file: string, field: string): Promise<LoadedImage> {
  let h;
  try {
    h = await open(file, 'r');
  } catch (e) {
    throw new PromptFileError(
      `${field}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`,
    );
  }
  try {
    const { size } = await h.stat();
    if (size > IMAGE_LIMITS.imageBytes)
      throw new PromptFileError(
        `${field}: ${file} is ${size} bytes, over the limit of ${IMAGE_LIMITS.imageBytes} bytes (10 MiB) an image`,
      );
    const buf = Buffer.alloc(size);
    const { bytesRead } = await h.read(buf, 0, size, 0);
    const bytes = buf.subarray(0, bytesRead);
    const dims = imageSizeOf(bytes);
    if (typeof dims === 'string') throw new PromptFileError(`${field}: ${file} is ${dims}`);
    return {
      mediaType: dims.format === 'png' ? 'image/png' : 'image/jpeg',
      base64: bytes.toString('base64'),
      ...dims,
      bytes: bytes.length,
    };
  } finally {
    await h.close();
  }
}

/** Reads distinct files once (the same path twice is one read), in order. */
async function readImageFiles(
  files: readonly string[],
  field: (k: number) => string,
): Promise<LoadedImage[]> {
  const seen = new Map<string, LoadedImage>();
  const out: LoadedImage[] = [];
  for (let k = 0; k < files.length; k++) {
    const f = files[k]!;
    let img = seen.get(f);
    if (!img) {
      img = await readImageFile(f, field(k));
      seen.set(f, img);
    }
    out.push(img);
  }
  return out;
}

/** The images of the workload's `images` field, generated or read (paths relative to `baseDir`). */
export async function loadWorkloadImages(
  spec: ImagesSpec,
  seed: number,
  baseDir: string,
): Promise<LoadedImage[]> {
  if (!spec.paths) return generateImages(spec, seed);
  const imgs = await readImageFiles(
    spec.paths.map((p) => path.resolve(baseDir, p)),
    (k) => `images.paths[${k}]`,
  );
  // The largest `count` of them together is the heaviest request: refused here, not at the server.
  const heaviest = [...imgs]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, spec.count)
    .reduce((s, x) => s + x.bytes, 0);
  if (heaviest > IMAGE_LIMITS.requestBytes)
    throw new PromptFileError(
      `images.count: ${spec.count} of these files weigh up to ${KiB(heaviest)} a request, over the ${KiB(IMAGE_LIMITS.requestBytes)} limit`,
    );
  return imgs;
}

/** What the images are, for the run's description. */
function describeImages(spec: ImagesSpec, imgs: readonly LoadedImage[]): string {
  const mean = imgs.reduce((s, x) => s + x.bytes, 0) / Math.max(1, imgs.length);
  const what = spec.paths
    ? `from ${new Set(spec.paths).size} file(s)`
    : `PNG ${spec.width}×${spec.height}, ${imgs.length} distinct`;
  return `${spec.count} image${spec.count === 1 ? '' : 's'} a request (${what}, ~${KiB(mean)} each)`;
}

/**
 * The provider's items with `count` images each from `imgs` (request i's image j: imgs[(i·count
 * + j) mod n]); an item that has its own images (a JSONL row's) keeps them and gets these after.
 */
export function withImages(
  p: PromptProvider,
  spec: ImagesSpec,
  imgs: readonly LoadedImage[],
): PromptProvider {
  const pick = (i: number): RequestImage[] => {
    const out: RequestImage[] = [];
    for (let j = 0; j < spec.count; j++) {
      const im = imgs[imageIndex(i, j, spec.count, imgs.length)]!;
      out.push({ mediaType: im.mediaType, base64: im.base64 });
    }
    return out;
  };
  return {
    ...p,
    description: `${p.description}; ${describeImages(spec, imgs)}`,
    at(i, stream) {
      const item = p.at(i, stream);
      return { ...item, images: [...(item.images ?? []), ...pick(i)] };
    },
  };
}
