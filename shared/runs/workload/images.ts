/**
 * Images in prompts (workload `images`, docs/load.md "Images in prompts"): each request carries
 * `count` images, generated (seeded PNGs of `width`×`height`) or taken from files (PNG or JPEG),
 * sent as OpenAI `image_url` data URLs or Anthropic base64 image blocks. The limits below are
 * checked when the workload is loaded (field names in the errors) and again when images are
 * built or read, so a typo is a message, never a process that runs out of memory.
 */
import { z } from 'zod';

export const IMAGE_LIMITS = {
  /** Images in one request. */
  perRequest: 64,
  /** Pixels on a side (generated images). */
  side: 8192,
  /**
   * Encoded bytes of one image (a file, or a generated PNG: noise, 3 bytes a pixel): 10 MiB.
   * OpenAI takes up to 20 MB, Anthropic 5 MB: a server may refuse what passes here.
   */
  imageBytes: 10 * 1024 * 1024,
  /** Encoded bytes of one request's images together (base64 makes the body 4/3 of it): 32 MiB. */
  requestBytes: 32 * 1024 * 1024,
  /** Distinct generated images kept for reuse (their bytes together are also bounded: `poolBytes`). */
  distinct: 4096,
  /** Encoded bytes of all the distinct images kept: 256 MiB. */
  poolBytes: 256 * 1024 * 1024,
  /** Image files one workload names (each read once). */
  paths: 1024,
} as const;
const L = IMAGE_LIMITS;
const MiB = (n: number): string => `${n / (1024 * 1024)} MiB`;

/** Bytes of a generated image before compression (RGB noise barely compresses: about its PNG size). */
function rawImageBytes(width: number, height: number): number {
  return width * height * 3 + height;
}

export const ImagesSpec = z
  .object({
    /** Images per request. */
    count: z.number().int().min(1).max(L.perRequest, `at most ${L.perRequest} images per request`).default(1),
    /** Generated images' size in pixels. */
    width: z.number().int().min(1).max(L.side, `at most ${L.side} pixels`).default(512),
    height: z.number().int().min(1).max(L.side, `at most ${L.side} pixels`).default(512),
    /**
     * Generated images are PNG: no JPEG encoder ships with Tokenscope (none is among its
     * dependencies), so JPEG images come from files (`paths`).
     */
    format: z
      .literal('png', { error: 'generated images are PNG; give JPEG images as files in images.paths' })
      .default('png'),
    /**
     * Distinct generated images, reused in turn (request i's image j is number (i·count + j) mod
     * distinct): a server that caches images by content (vLLM's multimodal cache) sees a repeat
     * every distinct/count requests. Built once, before the run.
     */
    distinct: z.number().int().min(1).max(L.distinct, `at most ${L.distinct} distinct images`).default(16),
    /**
     * Image files (PNG or JPEG) instead of generated ones, relative to the workload file: request
     * i's image j is paths[(i·count + j) mod paths.length]. Read once, before the run.
     */
    paths: z.array(z.string().min(1)).min(1).max(L.paths, `at most ${L.paths} files`).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.paths) return;
    const one = rawImageBytes(s.width, s.height);
    if (one > L.imageBytes)
      ctx.addIssue({
        code: 'custom',
        path: ['width'],
        message: `a ${s.width}×${s.height} image is about ${(one / 1048576).toFixed(1)} MiB; at most ${MiB(L.imageBytes)} an image`,
      });
    else if (one * s.count > L.requestBytes)
      ctx.addIssue({
        code: 'custom',
        path: ['count'],
        message: `${s.count} images of ${s.width}×${s.height} are about ${((one * s.count) / 1048576).toFixed(1)} MiB; at most ${MiB(L.requestBytes)} a request`,
      });
    else if (one * s.distinct > L.poolBytes)
      ctx.addIssue({
        code: 'custom',
        path: ['distinct'],
        message: `${s.distinct} distinct images of ${s.width}×${s.height} would keep about ${((one * s.distinct) / 1048576).toFixed(0)} MiB; at most ${MiB(L.poolBytes)}`,
      });
  });
export type ImagesSpec = z.output<typeof ImagesSpec>;

/** The dialects that carry images: OpenAI chat (`image_url` parts) and Anthropic Messages (image blocks). */
export const IMAGE_DIALECTS = ['openai-chat', 'anthropic-messages'] as const;

/** Which image (an index into the pool or the files) request i's image j is. */
export function imageIndex(i: number, j: number, count: number, n: number): number {
  return (i * count + j) % n;
}
