/**
 * A linear scale between a time domain (ms since request start) and a pixel range, plus the
 * zoom/pan arithmetic of the timeline. Pure: the canvas shell owns the state, these functions
 * only compute the next domain.
 */
export interface Domain {
  /** Left edge, ms. */
  min: number;
  /** Right edge, ms (> min). */
  max: number;
}

export interface LinearScale {
  readonly domain: Domain;
  readonly r0: number;
  readonly r1: number;
  /** ms → px. */
  toPx(ms: number): number;
  /** px → ms. */
  toMs(px: number): number;
}

export function linearScale(domain: Domain, r0: number, r1: number): LinearScale {
  const span = domain.max - domain.min || 1;
  const k = (r1 - r0) / span;
  return {
    domain,
    r0,
    r1,
    toPx: (ms) => r0 + (ms - domain.min) * k,
    toMs: (px) => domain.min + (px - r0) / (k || 1),
  };
}

/** Smallest span the user can zoom into (ms): below this, sub-microsecond noise is all there is. @internal exported for its tests */
export const MIN_SPAN_MS = 0.05;

/**
 * The auto-fit domain: from 0 to just past the last thing that happened (end of stream, last
 * event, or error), with a 2 % margin so the last mark is not cut by the edge.
 */
export function autoDomain(lastMs: number): Domain {
  const max = Number.isFinite(lastMs) && lastMs > 0 ? lastMs * 1.02 : 100;
  return { min: 0, max };
}

/**
 * Zoom around `centerMs` by `factor` (< 1 zooms in, > 1 out), keeping the point under the cursor
 * fixed, limited to [MIN_SPAN_MS, bounds span] and kept inside `bounds` where possible.
 */
export function zoomDomain(d: Domain, centerMs: number, factor: number, bounds: Domain): Domain {
  const span = d.max - d.min;
  const boundSpan = bounds.max - bounds.min;
  const next = Math.min(Math.max(span * factor, MIN_SPAN_MS), Math.max(boundSpan, MIN_SPAN_MS));
  const frac = span > 0 ? (centerMs - d.min) / span : 0.5;
  const min = centerMs - frac * next;
  return clampDomain({ min, max: min + next }, bounds);
}

/** Shift by `deltaMs` (positive moves the view right, towards later times), kept inside `bounds`. */
export function panDomain(d: Domain, deltaMs: number, bounds: Domain): Domain {
  return clampDomain({ min: d.min + deltaMs, max: d.max + deltaMs }, bounds);
}

/** Slide `d` (keeping its span) so it lies inside `bounds`; if it is wider, it becomes `bounds`. @internal exported for its tests */
export function clampDomain(d: Domain, bounds: Domain): Domain {
  const span = d.max - d.min;
  if (span >= bounds.max - bounds.min) return { ...bounds };
  if (d.min < bounds.min) return { min: bounds.min, max: bounds.min + span };
  if (d.max > bounds.max) return { min: bounds.max - span, max: bounds.max };
  return d;
}
