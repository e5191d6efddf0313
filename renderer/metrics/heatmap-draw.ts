/**
 * Draws a histogram heatmap on a canvas (dense per-step cells: canvas, not SVG): x = time on the
 * panel's axis, y = bucket (one row per bucket, labelled with its range), colour = observations
 * in that bucket during that step, on a square-root scale so a few observations stay visible
 * next to thousands (the legend says so).
 */
import { C, FONT } from '../core/charts/theme.ts';
import { linearScale } from '../core/charts/scale.ts';
import { rowLabel, type Heatmap } from './heatmap-bins.ts';
import { clockLabel, timeTicks } from './time-axis.ts';

export interface HeatmapLayout {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export function heatmapLayout(width: number, height: number): HeatmapLayout {
  return { width, height, left: 92, right: width - 10, top: 6, bottom: height - 22 };
}

const RAMP: [number, number, number][] = [
  [20, 34, 64],
  [37, 99, 200],
  [91, 157, 255],
  [255, 176, 32],
  [255, 240, 200],
];

/** Colour of a cell at fraction f ∈ [0, 1] of the colour scale (dark blue → blue → amber → pale). */
export function heatColor(f: number): string {
  const x = Math.min(1, Math.max(0, f)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const k = x - i;
  const a = RAMP[i]!;
  const b = RAMP[i + 1]!;
  const c = (j: number) => Math.round(a[j]! + (b[j]! - a[j]!) * k);
  return `rgb(${c(0)},${c(1)},${c(2)})`;
}

/** Fraction of the colour scale for a count (square root of count / max). @internal exported for its tests */
export function heatFraction(count: number, max: number): number {
  return max > 0 && count > 0 ? Math.sqrt(count / max) : 0;
}

export interface HeatCell {
  col: number;
  row: number;
}

/** The cell under (px, py), or null. */
export function heatmapHit(
  m: Heatmap,
  rows: { from: number; to: number },
  domain: [number, number],
  l: HeatmapLayout,
  px: number,
  py: number,
): HeatCell | null {
  if (px < l.left || px > l.right || py < l.top || py > l.bottom) return null;
  const x = linearScale({ min: domain[0], max: domain[1] }, l.left, l.right);
  const t = x.toMs(px);
  const col = m.cols.findIndex((c) => t > c.t0 && t <= c.t1);
  if (col < 0) return null;
  const n = rows.to - rows.from + 1;
  const rowH = (l.bottom - l.top) / n;
  const row = rows.to - Math.floor((py - l.top) / rowH);
  return row >= rows.from && row <= rows.to ? { col, row } : null;
}

export function drawHeatmap(
  ctx: CanvasRenderingContext2D,
  l: HeatmapLayout,
  m: Heatmap,
  rows: { from: number; to: number },
  domain: [number, number],
  seconds: boolean,
  hover: HeatCell | null,
): void {
  ctx.clearRect(0, 0, l.width, l.height);
  ctx.fillStyle = C.plot;
  ctx.fillRect(l.left, l.top, l.right - l.left, l.bottom - l.top);
  const x = linearScale({ min: domain[0], max: domain[1] }, l.left, l.right);
  const n = rows.to - rows.from + 1;
  const rowH = (l.bottom - l.top) / n;
  const yOf = (row: number) => l.top + (rows.to - row) * rowH;
  const w = m.les.length;
  ctx.save();
  ctx.beginPath();
  ctx.rect(l.left, l.top, l.right - l.left, l.bottom - l.top);
  ctx.clip();
  for (let c = 0; c < m.cols.length; c++) {
    const col = m.cols[c]!;
    const x0 = x.toPx(col.t0);
    const x1 = x.toPx(col.t1);
    if (x1 < l.left || x0 > l.right) continue;
    for (let r = rows.from; r <= rows.to; r++) {
      const count = m.counts[c * w + r]!;
      if (!(count > 0)) continue;
      ctx.fillStyle = heatColor(heatFraction(count, m.max));
      ctx.fillRect(x0, yOf(r), Math.max(1, x1 - x0), Math.max(1, rowH - 1));
    }
  }
  if (hover) {
    const col = m.cols[hover.col];
    if (col) {
      ctx.strokeStyle = C.hover;
      ctx.lineWidth = 1;
      ctx.strokeRect(
        x.toPx(col.t0) + 0.5,
        yOf(hover.row) + 0.5,
        Math.max(1, x.toPx(col.t1) - x.toPx(col.t0)) - 1,
        rowH - 2,
      );
    }
  }
  ctx.restore();
  // Row labels: every row when there is room, else every k-th.
  ctx.font = FONT;
  ctx.fillStyle = C.tick;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  const every = Math.max(1, Math.ceil(13 / rowH));
  for (let r = rows.from; r <= rows.to; r++) {
    if ((rows.to - r) % every !== 0) continue;
    ctx.fillText(rowLabel(m.les, r, seconds), l.left - 6, yOf(r) + rowH / 2);
  }
  // Time axis.
  ctx.strokeStyle = C.axis;
  ctx.beginPath();
  ctx.moveTo(l.left, l.bottom + 0.5);
  ctx.lineTo(l.right, l.bottom + 0.5);
  ctx.stroke();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of timeTicks(domain[0], domain[1], Math.max(2, Math.floor((l.right - l.left) / 90)))) {
    const px = x.toPx(t);
    ctx.beginPath();
    ctx.moveTo(px + 0.5, l.bottom);
    ctx.lineTo(px + 0.5, l.bottom + 4);
    ctx.stroke();
    ctx.fillText(clockLabel(t), px, l.bottom + 6);
  }
}
