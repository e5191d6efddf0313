/**
 * A JSONL prompt file's images (`{"prompt": …, "images": ["a.png", …]}`): each distinct file read
 * once (electron/runs/prompts/images.ts checks size and format), paths relative to the JSONL
 * file, and each row's images together under IMAGE_LIMITS.requestBytes. Errors name the line.
 */
import path from 'node:path';
import { IMAGE_LIMITS } from '../../../shared/runs/workload/images.ts';
import type { PromptItem } from './items.ts';
import { readImageFile, type LoadedImage } from './images.ts';
import { PromptFileError } from './files.ts';

interface Row {
  item: Omit<PromptItem, 'outputTokens'>;
  images?: string[];
  line?: number;
}

/** Puts each row's images on its item; true when any row had some. */
export async function attachRowImages(rows: Row[], dir: string, file: string): Promise<boolean> {
  const read = new Map<string, LoadedImage>();
  let any = false;
  for (const row of rows) {
    if (!row.images) continue;
    any = true;
    let bytes = 0;
    const imgs = [];
    for (let j = 0; j < row.images.length; j++) {
      const f = path.resolve(dir, row.images[j]!);
      let img = read.get(f);
      if (!img) {
        if (read.size >= IMAGE_LIMITS.paths)
          throw new PromptFileError(
            `${file}: line ${row.line}: images: over ${IMAGE_LIMITS.paths} distinct image files`,
          );
        img = await readImageFile(f, `${file}: line ${row.line}: images[${j}]`);
        read.set(f, img);
      }
      bytes += img.bytes;
      imgs.push({ mediaType: img.mediaType, base64: img.base64 });
    }
    if (bytes > IMAGE_LIMITS.requestBytes)
      throw new PromptFileError(
        `${file}: line ${row.line}: images: ${(bytes / 1048576).toFixed(1)} MiB together, over the ${IMAGE_LIMITS.requestBytes / 1048576} MiB limit a request`,
      );
    row.item.images = imgs;
  }
  return any;
}
