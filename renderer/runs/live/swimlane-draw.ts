/**
 * Drawing the run swimlane on canvas from the lane store's typed arrays (one lane per request:
 * queue wait, waiting for the first token, generating with a tick per token event, errors in
 * red). Hundreds of concurrent streams, so per frame: lanes off screen are skipped, events are
 * read only from the chunks that overlap the view, ticks are deduplicated per pixel column and
 * row, and every colour is one path filled once (a few fill calls per frame, not one per rect).
 */
import { C, FONT } from '../../core/charts/theme.ts';
import { formatTick, niceTicks } from '../../core/charts/ticks.ts';
import type { Domain } from '../../core/charts/scale.ts';
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

/**
 * One frame's drawing context: the canvas, the store, the layout and domain, and what every part
 * of the drawing derives from them once (the time → x mapping, the visible rows, the bar height).
 */
interface SwimFrame {
  ctx: CanvasRenderingContext2D;
  s: LaneStore;
  L: SwimLayout;
  d: Domain;
  /** The time lanes still running are drawn to: the live clock, else the store's last time. */
  now: number;
  /** x per ms of the domain. */
  k: number;
  X: (ms: number) => number;
  /** Row r is drawn at rowTop + r·rowH: scrolled up by the zoomed view's offset. */
  rowTop: number;
  firstRow: number;
  lastRow: number;
  barH: number;
}

function swimFrame(
  ctx: CanvasRenderingContext2D,
  s: LaneStore,
  L: SwimLayout,
  d: Domain,
  nowMs: number | null,
): SwimFrame {
  const { left, right, top, bottom, rowH } = L;
  const span = d.max - d.min || 1;
  const k = (right - left) / span;
  const gap = rowH >= 4 ? 1 : 0;
  return {
    ctx,
    s,
    L,
    d,
    now: nowMs ?? s.lastMs,
    k,
    X: (ms: number): number => left + (ms - d.min) * k,
    rowTop: top - L.rowOffset * rowH,
    firstRow: Math.floor(L.rowOffset),
    lastRow: Math.ceil(L.rowOffset + (bottom - top) / rowH),
    barH: Math.max(0.6, rowH - gap),
  };
}

/** Background, plot area, the time grid with its labels (seconds) and the rows' label. */
function drawFrameAxes(f: SwimFrame): void {
  const { ctx, L, d, X, firstRow, lastRow } = f;
  const { width, height, left, right, top, bottom } = L;
  ctx.fillStyle = C.bg;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = C.plot;
  ctx.fillRect(left, top, right - left, bottom - top);

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
}

/** The lanes' bars, one path per colour, and how many lanes are in view. */
interface LanePaths {
  queue: Path2D;
  wait: Path2D;
  gen: Path2D;
  err: Path2D;
  lanes: number;
}

function laneBarPaths(f: SwimFrame): LanePaths {
  const { s, L, d, X, rowTop, firstRow, lastRow, barH, now } = f;
  const { left, right, rowH } = L;
  const qH = Math.max(0.6, barH * 0.35);
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
  return { queue, wait, gen, err, lanes };
}

function fillLaneBars(ctx: CanvasRenderingContext2D, p: LanePaths): void {
  ctx.fillStyle = C.laneQueue;
  ctx.fill(p.queue);
  ctx.fillStyle = C.laneWait;
  ctx.fill(p.wait);
  ctx.fillStyle = C.laneGen;
  ctx.fill(p.gen);
  ctx.fillStyle = C.error;
  ctx.fill(p.err);
}

let lastPx = new Int32Array(256);

/**
 * Token ticks: one per event with tokens, at most one per pixel column and row; only the chunks
 * of events that overlap the view are read.
 */
function tokenTickPath(f: SwimFrame): { path: Path2D; drawn: number } {
  const { s, L, d, k, rowTop, firstRow, lastRow, barH } = f;
  const { left, rowH } = L;
  if (lastPx.length < L.rows) lastPx = new Int32Array(L.rows * 2);
  lastPx.fill(-1, 0, L.rows);
  const path = new Path2D();
  const tickH = Math.max(1, barH);
  let drawn = 0;
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
      path.rect(px, rowTop + r * rowH, 1, tickH);
      drawn++;
    }
  }
  return { path, drawn };
}

/** The outline of the lane under the pointer. */
function strokeHoverLane(f: SwimFrame, lane: number): void {
  const { ctx, s, X, rowTop, barH, now } = f;
  const y = rowTop + s.row[lane]! * f.L.rowH;
  const x0 = X(s.arrivedMs[lane]!);
  const x1 = X(laneEnd(s, lane, now));
  ctx.strokeStyle = C.hover;
  ctx.lineWidth = 1;
  ctx.strokeRect(x0 - 0.5, y - 0.5, Math.max(2, x1 - x0) + 1, barH + 1);
}

/** The live clock: a dashed vertical line at `nowMs`. */
function strokeNowLine(f: SwimFrame, nowMs: number): void {
  const { ctx, X } = f;
  const { right, top, bottom } = f.L;
  ctx.strokeStyle = C.ttft;
  ctx.setLineDash([3, 3]);
  ctx.beginPath();
  const x = Math.round(Math.min(right, X(nowMs))) + 0.5;
  ctx.moveTo(x, top);
  ctx.lineTo(x, bottom);
  ctx.stroke();
  ctx.setLineDash([]);
}

/** Draws the swimlane; returns what it drew (tests, the bench). */
export function drawSwimlane(
  ctx: CanvasRenderingContext2D,
  s: LaneStore,
  L: SwimLayout,
  d: Domain,
  nowMs: number | null,
  hoverLane = -1,
): DrawStats {
  const f = swimFrame(ctx, s, L, d, nowMs);
  const { left, right, top, bottom } = L;
  drawFrameAxes(f);

  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, right - left, bottom - top);
  ctx.clip();
  const bars = laneBarPaths(f);
  fillLaneBars(ctx, bars);
  let drawn = 0;
  if (L.rowH >= 2) {
    const ticks = tokenTickPath(f);
    drawn = ticks.drawn;
    ctx.fillStyle = C.laneTick;
    ctx.fill(ticks.path);
  }
  if (hoverLane >= 0 && hoverLane < s.n) strokeHoverLane(f, hoverLane);
  ctx.restore();

  if (nowMs !== null && f.X(nowMs) <= right + 1) strokeNowLine(f, nowMs);
  ctx.strokeStyle = C.axis;
  ctx.strokeRect(left + 0.5, top + 0.5, right - left - 1, bottom - top - 1);
  return { lanes: bars.lanes, ticks: drawn };
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
const FOLLOW_WINDOW_MS = 60_000;

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
