/** The marks of the timeline canvas: event glyphs, time markers with labels, lines. */
import type { MetaKind } from './event-kind.ts';
import type { LinearScale } from '../../core/charts/scale.ts';
import { C } from '../../core/charts/theme.ts';
import type { LaneRect } from './timeline-layout.ts';

/** The glyph of a meta event (shared with the DOM legend, which draws the same shapes in CSS). */
export function glyph(ctx: CanvasRenderingContext2D, k: MetaKind, px: number, y: number): void {
  ctx.lineWidth = 1.5;
  switch (k) {
    case 'empty':
      ctx.strokeStyle = C.empty;
      ctx.beginPath();
      ctx.arc(px, y, 3, 0, Math.PI * 2);
      ctx.stroke();
      break;
    case 'usage':
      ctx.fillStyle = C.usage;
      ctx.beginPath();
      ctx.moveTo(px, y - 4);
      ctx.lineTo(px + 4, y);
      ctx.lineTo(px, y + 4);
      ctx.lineTo(px - 4, y);
      ctx.closePath();
      ctx.fill();
      break;
    case 'terminal':
      ctx.fillStyle = C.terminal;
      ctx.fillRect(px - 3, y - 3, 6, 6);
      break;
    case 'error':
      ctx.strokeStyle = C.error;
      line(ctx, px - 4, y - 4, px + 4, y + 4);
      line(ctx, px - 4, y + 4, px + 4, y - 4);
      break;
  }
  ctx.lineWidth = 1;
}

/** Where markers go: a lane's rectangle on the time scale, and the plot's right edge. */
export interface MarkerPlace {
  ctx: CanvasRenderingContext2D;
  x: LinearScale;
  r: LaneRect;
  right: number;
}

/** One marker: a time, its colour and label, which label row (1 or 2), and its dash pattern. */
export interface Marker {
  ms: number;
  color: string;
  label: string;
  row: 1 | 2;
  dash: number[];
}

/** A vertical marker at `ms` with its label on row 1 or 2 of the lane's label strip (flipped left near the edge). */
export function marker({ ctx, x, r, right }: MarkerPlace, { ms, color, label, row, dash }: Marker): void {
  const px = Math.round(x.toPx(ms)) + 0.5;
  if (px < x.r0 - 1 || px > x.r1 + 1) return;
  ctx.strokeStyle = color;
  ctx.lineWidth = dash.length ? 1 : 1.5;
  ctx.setLineDash(dash);
  line(ctx, px, r.top + (row === 1 ? 14 : 27), px, r.baseline);
  ctx.setLineDash([]);
  ctx.lineWidth = 1;
  ctx.fillStyle = color;
  const w = ctx.measureText(label).width;
  const y = r.top + (row === 1 ? 11 : 24);
  if (px + 4 + w > right) {
    ctx.textAlign = 'right';
    ctx.fillText(label, px - 4, y);
  } else {
    ctx.textAlign = 'left';
    ctx.fillText(label, px + 4, y);
  }
}

export function line(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
}
