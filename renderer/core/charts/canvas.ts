/**
 * Sizing a canvas for crisp drawing in CSS pixels: the backing store is `css × devicePixelRatio`
 * device pixels (resized only when that changes: resizing clears it and costs a reallocation),
 * and the context is scaled so drawing code works in CSS pixels.
 */
export interface CanvasSizing {
  /** Also set the element's CSS size (else CSS sizes it, e.g. width: 100%). */
  setStyle?: boolean;
  /** Default window.devicePixelRatio (1 where there is none). */
  dpr?: number;
}

/** Returns the scale used. The context's transform is reset to it. */
export function fitCanvas(
  canvas: HTMLCanvasElement,
  ctx: CanvasRenderingContext2D,
  cssWidth: number,
  cssHeight: number,
  opts: CanvasSizing = {},
): number {
  const dpr = opts.dpr ?? (typeof window !== 'undefined' ? window.devicePixelRatio : 1) ?? 1;
  const scale = dpr > 0 ? dpr : 1;
  const w = Math.round(cssWidth * scale);
  const h = Math.round(cssHeight * scale);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
    if (opts.setStyle) {
      canvas.style.width = `${cssWidth}px`;
      canvas.style.height = `${cssHeight}px`;
    }
  }
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  return scale;
}
