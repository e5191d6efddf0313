/**
 * The run form's image fields (workload `images`, shared/runs/workload/images.ts) as strings, and
 * their conversions: images per request ('' = none) and the generated images' size. A loaded
 * workload's other image settings (distinct, paths) ride along; with files (`paths`) the size is
 * the files' own and the form's is not written.
 */
export interface ImageDraft {
  /** Images per request; '' = none. */
  imageCount: string;
  imageWidth: string;
  imageHeight: string;
}

export const IMAGE_DRAFT_DEFAULTS: ImageDraft = { imageCount: '', imageWidth: '512', imageHeight: '512' };

const num = (s: string): number => (s.trim() === '' ? NaN : Number(s.trim()));
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The workload's `images` from the draft (undefined: none), over what was loaded. */
export function imagesOut(d: ImageDraft, loaded: unknown): Record<string, unknown> | undefined {
  if (d.imageCount.trim() === '') return undefined;
  const prev = obj(loaded);
  const out: Record<string, unknown> = { ...prev, count: num(d.imageCount) };
  if (!Array.isArray(prev.paths)) {
    out.width = num(d.imageWidth);
    out.height = num(d.imageHeight);
  }
  return out;
}

/** A loaded workload's `images` as draft fields. */
export function imagesIn(raw: unknown): ImageDraft {
  const o = obj(raw);
  const s = (v: unknown, fallback: string): string => (typeof v === 'number' ? String(v) : fallback);
  if (raw === undefined) return { ...IMAGE_DRAFT_DEFAULTS };
  return {
    imageCount: s(o.count, '1'),
    imageWidth: s(o.width, IMAGE_DRAFT_DEFAULTS.imageWidth),
    imageHeight: s(o.height, IMAGE_DRAFT_DEFAULTS.imageHeight),
  };
}

/** The form field of an `images…` issue path, else null. */
export function imageFieldOfPath(path: string): string | null {
  if (path.startsWith('images.width')) return 'imageWidth';
  if (path.startsWith('images.height')) return 'imageHeight';
  if (path.startsWith('images')) return 'imageCount';
  return null;
}
