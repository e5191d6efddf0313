/**
 * Images in a chat request, as the simulator charges them: each image is
 * ceil(width / 28) × ceil(height / 28) prompt tokens — Qwen2-VL's and Qwen2.5-VL's rule (14-pixel
 * ViT patches merged 2×2, one token per 28×28 pixels, before its min/max-pixels resize), which
 * LLaVA-style models approximate with their own patch sizes. The tokens join the prompt: they
 * are prefilled (charged as prompt tokens by the scheduler), counted in `usage.prompt_tokens` and
 * `vllm:prompt_tokens`, never found in the prefix cache (its keys are the text), and kept in the
 * ground truth's phases (`imageTokens`). Images come as OpenAI `image_url` parts with a base64
 * data URL, or Anthropic `image` blocks with a base64 source; a URL to fetch, or bytes that are
 * not a PNG or JPEG, are refused (400), as a server that cannot load them does.
 */
import { imageSizeOf } from '../../shared/images/image-size.ts';
import { IMAGE_MARK } from './body-images.ts';

/** Pixels on a side of one image token (Qwen2-VL: 14-pixel patches, 2×2 merged). */
const IMAGE_PATCH_PX = 28;

/** @internal exported for its tests: the stated rule, one image's tokens */
export function imageTokensOf(width: number, height: number): number {
  return Math.ceil(width / IMAGE_PATCH_PX) * Math.ceil(height / IMAGE_PATCH_PX);
}

export interface PromptImages {
  images: number;
  imageTokens: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Base64 characters decoded first (64 KiB of bytes: a PNG's IHDR, a JPEG's SOF after its EXIF). */
const HEAD_CHARS = 87_384;

function tokensOfBase64(data: string, where: string, lifted: readonly Buffer[]): number | string {
  if (data.startsWith(IMAGE_MARK)) {
    const bytes = lifted[Number(data.slice(IMAGE_MARK.length))];
    if (!bytes) return `${where}: the image is not in the request`;
    return tokensOfLifted(bytes, where);
  }
  // The size is in the headers: decode the head, and the whole image only when the head lacks it.
  let dims = imageSizeOf(Buffer.from(data.slice(0, HEAD_CHARS), 'base64'));
  if (typeof dims === 'string' && data.length > HEAD_CHARS) dims = imageSizeOf(Buffer.from(data, 'base64'));
  if (typeof dims === 'string') return `${where}: the image is ${dims}`;
  return imageTokensOf(dims.width, dims.height);
}

/** Base64 as it stood in the JSON (body-images.ts): its escapes (`\/`) undone, then decoded. */
function decodeJsonBase64(b: Buffer): Buffer {
  const s = b.toString('latin1');
  return Buffer.from(s.includes('\\') ? s.replace(/\\(.)|\\$/g, '$1') : s, 'base64');
}

/** A lifted image's tokens (body-images.ts): its head decoded from the body's bytes. */
function tokensOfLifted(bytes: Buffer, where: string): number | string {
  let dims = imageSizeOf(decodeJsonBase64(bytes.subarray(0, HEAD_CHARS)));
  if (typeof dims === 'string' && bytes.length > HEAD_CHARS) dims = imageSizeOf(decodeJsonBase64(bytes));
  if (typeof dims === 'string') return `${where}: the image is ${dims}`;
  return imageTokensOf(dims.width, dims.height);
}

/** One content part's image tokens, or why it is refused (null: not an image). */
function partTokens(p: unknown, where: string, lifted: readonly Buffer[]): number | string | null {
  if (!isObj(p)) return null;
  if (p.type === 'image_url') {
    const u = isObj(p.image_url) ? p.image_url.url : p.image_url;
    const m = typeof u === 'string' ? /^data:image\/[a-z+.-]+;base64,/i.exec(u) : null;
    if (!m) return `${where}: the simulator takes images as base64 data URLs only`;
    return tokensOfBase64((u as string).slice(m[0].length), where, lifted);
  }
  if (p.type === 'image') {
    const s = isObj(p.source) ? p.source : null;
    if (!s || s.type !== 'base64' || typeof s.data !== 'string')
      return `${where}: the simulator takes image blocks with a base64 source only`;
    return tokensOfBase64(s.data, where, lifted);
  }
  return null;
}

/**
 * The images of a chat request's messages (`messages[i].content` lists), or why one is refused.
 * `lifted`: the images body-images.ts took out of the body's bytes, which its markers name.
 */
export function promptImagesOf(messages: unknown, lifted: readonly Buffer[] = []): PromptImages | string {
  const out: PromptImages = { images: 0, imageTokens: 0 };
  if (!Array.isArray(messages)) return out;
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (!isObj(m) || !Array.isArray(m.content)) continue;
    for (let j = 0; j < m.content.length; j++) {
      const t = partTokens(m.content[j], `messages[${i}].content[${j}]`, lifted);
      if (t === null) continue;
      if (typeof t === 'string') return t;
      out.images++;
      out.imageTokens += t;
    }
  }
  return out;
}
