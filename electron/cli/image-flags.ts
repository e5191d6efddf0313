/**
 * `tokenscope run`'s image flags (workload `images`, shared/runs/workload/images.ts; docs/load.md
 * "Images in prompts"): --images N generated PNGs a request of --image-size WxH, --image-distinct
 * of them reused in turn, or --image-file FILE (repeatable: PNG or JPEG files instead).
 */
import path from 'node:path';
import type { Command } from 'commander';
import { collect, int } from './args.ts';

export interface ImageCliOptions {
  images?: number;
  imageSize?: string;
  imageDistinct?: number;
  imageFile?: string[];
}

export function addImageOptions(cmd: Command): Command {
  return cmd
    .option(
      '--images <n>',
      'images per request (openai-chat, anthropic-messages): seeded PNGs, or --image-file files',
      int('--images'),
    )
    .option('--image-size <WxH>', "generated images' size in pixels (default 512x512)")
    .option(
      '--image-distinct <n>',
      'distinct generated images, reused in turn (default 16)',
      int('--image-distinct'),
    )
    .option(
      '--image-file <file>',
      'a PNG or JPEG file to send instead of generated images (repeatable: used in turn)',
      collect,
    );
}

type Obj = Record<string, unknown>;

/** The flags over the workload's `images`; a message when one is malformed. */
export function imageOverrides(w: Obj, o: ImageCliOptions): string | null {
  if (o.images === undefined && o.imageSize === undefined && o.imageDistinct === undefined && !o.imageFile)
    return null;
  const cur = typeof w.images === 'object' && w.images !== null ? (w.images as Obj) : {};
  const next: Obj = { ...cur };
  if (o.images !== undefined) next.count = o.images;
  if (o.imageDistinct !== undefined) next.distinct = o.imageDistinct;
  if (o.imageSize !== undefined) {
    const m = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/i.exec(o.imageSize);
    if (!m) return `--image-size must be WIDTHxHEIGHT in pixels (e.g. 512x512), got "${o.imageSize}"`;
    next.width = Number(m[1]);
    next.height = Number(m[2]);
  }
  // Files named on the command line are relative to the current folder.
  if (o.imageFile) next.paths = o.imageFile.map((f) => path.resolve(f));
  w.images = next;
  return null;
}

/** Workload fields → the flag that set them (run-flags.ts FLAG_OF_FIELD). */
export const IMAGE_FLAG_OF_FIELD: Record<string, [flag: string, key: keyof ImageCliOptions]> = {
  'images.count': ['--images', 'images'],
  'images.width': ['--image-size', 'imageSize'],
  'images.height': ['--image-size', 'imageSize'],
  'images.distinct': ['--image-distinct', 'imageDistinct'],
  'images.paths': ['--image-file', 'imageFile'],
};
