/**
 * Drawing the run swimlane on canvas from the lane store's typed arrays (one lane per request:
 * queue wait, waiting for the first token, generating with a tick per token event, errors in
 * red). Hundreds of concurrent streams, so per frame: lanes off screen are skipped, events are
 * read only from the chunks that overlap the view, ticks are deduplicated per pixel column and
 * row, and every colour is one path filled once (a few fill calls per frame, not one per rect).
 */
import { C, FONT } from '../core/charts/theme.ts';
import { formatTick, niceTicks } from '../core/charts/ticks.ts';
import type { Domain } from '../core/charts/scale.ts';
import { LANE_ERROR, LANE_RUNNING, type LaneStore } from './lane-store.ts';

export interface SwimLayout {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  rowH: number;
  rows: number;
  /** First visible row (fractional) when the lanes are zoomed; 0 shows from the top. */
  rowOffset: number;
}

export const SWIM_HEIGHT = 320;
const M = { left: 46, right: 12, top: 8, bottom: 28 };
/** Tallest row (px): a handful of requests should not become fat bars. */
const MAX_ROW_H = 14;

/**
 * Layout of `rows` lanes; with `rowsVisible` < rows only that many fit the height (lanes zoomed),
 * starting at row `rowOffset` (clamped so the view never scrolls past the last row).
 */
export function swimLayout(
  width: number,
  rows: number,
  height = SWIM_HEIGHT,
  rowsVisible?: number,
  rowOffset = 0,
): SwimLayout {
  const plotH = height - M.top - M.bottom;
  const shown = rowsVisible !== undefined && rowsVisible > 0 && rowsVisible < rows ? rowsVisible : rows;
  const rowH = shown > 0 ? Math.min(MAX_ROW_H, plotH / shown) : MAX_ROW_H;
  const maxOffset = Math.max(0, rows - plotH / rowH);
  return {
    rowOffset: Math.min(Math.max(0, rowOffset), maxOffset),
    width,
    height,
    left: M.left,
    right: width - M.right,
    top: M.top,
    bottom: M.top + plotH,
    rowH,
    rows,
  };
}

/** The end of a lane for drawing: its end, or `nowMs` while it runs. */
function laneEnd(s: LaneStore, i: number, nowMs: number): number {
  const e = s.endMs[i]!;
  return Number.isNaN(e) ? Math.max(nowMs, s.startedMs[i]!) : e;
}

export interface DrawStats {
  lanes: number;
  ticks: number;
}

let lastPx = new Int32Array(256);

/** Draws the swimlane; returns what it drew (tests, the bench). */
export function drawSwimlane(
  ctx: CanvasRenderingContext2D,
  s: LaneStore,
  L: SwimLayout,
  d: Domain,
  nowMs: number | null,
  hoverLane = -1,
): DrawStats {
  const { width, height, left, right, bottom, rowH } = L;
  const top = L.top;
  // Row r is drawn at rowTop + r·rowH: scrolled up by the zoomed view's offset.
  const rowTop = top - L.rowOffset * rowH;
  const firstRow = Math.floor(L.rowOffset);
  const lastRow = Math.ceil(L.rowOffset + (bottom - top) / rowH);
  ctx.fillStyle = C.bg;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = C.plot;
  ctx.fillRect(left, top, right - left, bottom - top);
  const span = d.max - d.min || 1;
  const k = (right - left) / span;
  const X = (ms: number): number => left + (ms - d.min) * k;

  // Grid and time axis (seconds).
  const ticks = niceTicks(d.min / 1000, d.max / 1000, Math.max(2, Math.floor((right - left) / 90)));
  ctx.strokeStyle = C.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const v of ticks.values) {
    const x = Math.round(X(v * 1000)) + 0.5;
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
  }
  ctx.stroke();
  ctx.fillStyle = C.tick;
  ctx.font = FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const v of ticks.values) ctx.fillText(formatTick(v, ticks.decimals), X(v * 1000), bottom + 4);
  ctx.textAlign = 'right';
  ctx.fillText('time since start (s)', right, bottom + 15);
  ctx.save();
  ctx.translate(12, (top + bottom) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const zoomed = firstRow > 0 || lastRow < L.rows;
  ctx.fillText(
    L.rows === 0
      ? 'requests'
      : zoomed
        ? `rows ${firstRow + 1}–${Math.min(L.rows, lastRow)} of ${L.rows}`
        : `requests (${L.rows} rows)`,
    0,
    0,
  );
  ctx.restore();

  const now = nowMs ?? s.lastMs;
  const gap = rowH >= 4 ? 1 : 0;
  const barH = Math.max(0.6, rowH - gap);
  const qH = Math.max(0.6, barH * 0.35);

  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, right - left, bottom - top);
  ctx.clip();

  const queue = new Path2D();
  const wait = new Path2D();
  const gen = new Path2D();
  const err = new Path2D();
  let lanes = 0;
  const clampX = (x: number): number => (x < left - 2 ? left - 2 : x > right + 2 ? right + 2 : x);
  for (let i = 0; i < s.n; i++) {
    const a = s.arrivedMs[i]!;
    if (a > d.max) continue;
    const end = laneEnd(s, i, now);
    if (end < d.min) continue;
    const row = s.row[i]!;
    if (row < firstRow || row > lastRow) continue;
    lanes++;
    const y = rowTop + row * rowH;
    const st = s.startedMs[i]!;
    if (st > a) {
      const x0 = clampX(X(a));
      const x1 = clampX(X(st));
      if (x1 - x0 > 0.3) queue.rect(x0, y + (barH - qH) / 2, x1 - x0, qH);
    }
    const ttft = s.ttftMs[i]!;
    const first = Number.isNaN(ttft) ? end : Math.min(end, st + ttft);
    const xs = clampX(X(st));
    const xf = clampX(X(first));
    const xe = clampX(X(end));
    wait.rect(xs, y, Math.max(0.8, xf - xs), barH);
    if (xe > xf) (s.status[i] === LANE_ERROR ? err : gen).rect(xf, y, xe - xf, barH);
    if (s.status[i] === LANE_ERROR) err.rect(xe - 1, y, 2.5, barH);
  }
  ctx.fillStyle = C.laneQueue;
  ctx.fill(queue);
  ctx.fillStyle = C.laneWait;
  ctx.fill(wait);
  ctx.fillStyle = C.laneGen;
  ctx.fill(gen);
  ctx.fillStyle = C.error;
  ctx.fill(err);

  // Token ticks: one per event with tokens, at most one per pixel column and row.
  let drawn = 0;
  if (rowH >= 2) {
    if (lastPx.length < L.rows) lastPx = new Int32Array(L.rows * 2);
    lastPx.fill(-1, 0, L.rows);
    const tk = new Path2D();
    const tickH = Math.max(1, barH);
    for (let c = 0; c < s.cn; c++) {
      if (s.chunkMaxT[c]! < d.min || s.chunkMinT[c]! > d.max) continue;
      const from = s.chunkFrom[c]!;
      const to = c + 1 < s.cn ? s.chunkFrom[c + 1]! : s.en;
      for (let e = from; e < to; e++) {
        if (s.evTok[e] === 0) continue;
        const t = s.evT[e]!;
        if (t < d.min || t > d.max) continue;
        const lane = s.evLane[e]!;
        const r = s.row[lane]!;
        if (r < firstRow || r > lastRow) continue;
        const px = (left + (t - d.min) * k) | 0;
        if (lastPx[r] === px) continue;
        lastPx[r] = px;
        tk.rect(px, rowTop + r * rowH, 1, tickH);
        drawn++;
      }
    }
    ctx.fillStyle = C.laneTick;
    ctx.fill(tk);
  }

  if (hoverLane >= 0 && hoverLane < s.n) {
    const y = rowTop + s.row[hoverLane]! * rowH;
    const x0 = X(s.arrivedMs[hoverLane]!);
    const x1 = X(laneEnd(s, hoverLane, now));
    ctx.strokeStyle = C.hover;
    ctx.lineWidth = 1;
    ctx.strokeRect(x0 - 0.5, y - 0.5, Math.max(2, x1 - x0) + 1, barH + 1);
  }
  ctx.restore();

  if (nowMs !== null && X(nowMs) <= right + 1) {
    ctx.strokeStyle = C.ttft;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    const x = Math.round(Math.min(right, X(nowMs))) + 0.5;
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  ctx.strokeStyle = C.axis;
  ctx.strokeRect(left + 0.5, top + 0.5, right - left - 1, bottom - top - 1);
  return { lanes, ticks: drawn };
}

/** The lane under (x, y), or -1. */
export function laneAtPoint(
  s: LaneStore,
  L: SwimLayout,
  d: Domain,
  nowMs: number | null,
  x: number,
  y: number,
): number {
  if (x < L.left || x > L.right || y < L.top || y > L.bottom) return -1;
  const row = Math.floor((y - L.top) / L.rowH + L.rowOffset);
  const span = d.max - d.min || 1;
  const t = d.min + ((x - L.left) / (L.right - L.left)) * span;
  const tol = (3 / (L.right - L.left)) * span;
  const now = nowMs ?? s.lastMs;
  let best = -1;
  let bestDist = Infinity;
  for (let i = 0; i < s.n; i++) {
    if (s.row[i] !== row) continue;
    const a = s.arrivedMs[i]!;
    const e = laneEnd(s, i, now);
    const dist = t < a ? a - t : t > e ? t - e : 0;
    if (dist <= tol && dist < bestDist) {
      best = i;
      bestDist = dist;
    }
  }
  return best;
}

/** The live view: the last minute, growing from the start until then. */
export const FOLLOW_WINDOW_MS = 60_000;

export function followDomain(nowMs: number): Domain {
  const now = Math.max(nowMs, 1000);
  const min = Math.max(0, now - FOLLOW_WINDOW_MS);
  return { min, max: now + (now - min) * 0.02 };
}

export function wholeDomain(s: LaneStore): Domain {
  return { min: 0, max: Math.max(s.lastMs, 100) * 1.02 };
}

export function laneState(s: LaneStore, i: number): 'running' | 'ok' | 'error' {
  const st = s.status[i];
  return st === LANE_RUNNING ? 'running' : st === LANE_ERROR ? 'error' : 'ok';
}
