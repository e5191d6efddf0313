/**
 * Zoom and pan of the run swimlane, as pure functions of the current view: the wheel zooms time
 * around the cursor, shift+wheel zooms lanes (rows) around it, a drag pans both, a double-click
 * resets. Time stays inside the whole run; rows never scroll past the first or last lane.
 */
import type { Domain } from '../../core/charts/scale.ts';
import type { SwimLayout } from './swimlane-draw.ts';

export interface SwimZoom {
  /** Time window; null = the whole run (or the live window). */
  domain: Domain | null;
  /** How many rows fill the height; null = all of them. */
  rowsVisible: number | null;
  rowOffset: number;
}

export const NO_ZOOM: SwimZoom = { domain: null, rowsVisible: null, rowOffset: 0 };

/** Narrowest time window (ms) and fewest rows a zoom goes to. */
const MIN_SPAN_MS = 2;
const MIN_ROWS = 4;

function clampDomain(min: number, span: number, base: Domain): Domain {
  const full = base.max - base.min;
  const s = Math.min(full, Math.max(MIN_SPAN_MS, span));
  const lo = Math.min(Math.max(base.min, min), base.max - s);
  return { min: lo, max: lo + s };
}

/** Zoom time by `factor` (< 1 in, > 1 out) keeping the time under pixel `x` in place. */
export function zoomTime(z: SwimZoom, base: Domain, L: SwimLayout, x: number, factor: number): SwimZoom {
  const d = z.domain ?? base;
  const span = d.max - d.min;
  const f = Math.min(1, Math.max(0, (x - L.left) / (L.right - L.left)));
  const at = d.min + f * span;
  const next = clampDomain(at - f * span * factor, span * factor, base);
  const whole = next.max - next.min >= base.max - base.min - 1e-9;
  return { ...z, domain: whole ? null : next };
}

/** Pan time by a drag of `dx` pixels (content follows the pointer). */
export function panTime(z: SwimZoom, base: Domain, L: SwimLayout, dx: number): SwimZoom {
  if (!z.domain) return z;
  const span = z.domain.max - z.domain.min;
  return { ...z, domain: clampDomain(z.domain.min - (dx / (L.right - L.left)) * span, span, base) };
}

/** Zoom rows by `factor` keeping the row under pixel `y` in place. */
export function zoomRows(z: SwimZoom, L: SwimLayout, y: number, factor: number): SwimZoom {
  if (L.rows <= MIN_ROWS) return z;
  const visible = (L.bottom - L.top) / L.rowH;
  const nextVisible = Math.min(L.rows, Math.max(MIN_ROWS, visible * factor));
  if (nextVisible >= L.rows) return { ...z, rowsVisible: null, rowOffset: 0 };
  const f = Math.min(1, Math.max(0, (y - L.top) / (L.bottom - L.top)));
  const at = L.rowOffset + f * visible;
  const offset = Math.min(Math.max(0, at - f * nextVisible), L.rows - nextVisible);
  return { ...z, rowsVisible: nextVisible, rowOffset: offset };
}

/** Pan rows by a drag of `dy` pixels. */
export function panRows(z: SwimZoom, L: SwimLayout, dy: number): SwimZoom {
  if (z.rowsVisible === null) return z;
  const visible = (L.bottom - L.top) / L.rowH;
  return { ...z, rowOffset: Math.min(Math.max(0, z.rowOffset - dy / L.rowH), Math.max(0, L.rows - visible)) };
}
