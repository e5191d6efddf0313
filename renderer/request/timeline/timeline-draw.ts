/**
 * Imperative drawing of the token timeline on a 2D canvas, straight from the typed arrays.
 * Marks are decimated per pixel column (the tallest bar of a column wins, as uPlot does), so
 * the cost is bounded by the visible events and the width, not by the zoom level.
 */
import { EV_COALESCED, EV_CONTENT, EV_REASONING } from '../../../shared/request.ts';
import { visibleRange } from './hit-test.ts';
import { metaKind, type MetaKind } from './event-kind.ts';
import { glyph, line, marker } from './timeline-marks.ts';
import { linearScale, type Domain, type LinearScale } from '../../core/charts/scale.ts';
import type { Stall } from './stalls.ts';
import { C, FONT } from '../../core/charts/theme.ts';
import { formatTick, niceTicks } from '../../core/charts/ticks.ts';
import { barHeight, META_H, type LaneRect, type TimelineLayout } from './timeline-layout.ts';

export interface LaneModel {
  label: string;
  color: string;
  n: number;
  t: ArrayLike<number>;
  tokens: ArrayLike<number>;
  flags: ArrayLike<number>;
  firstEventMs: number | null;
  ttftMs: number | null;
  /** Time to first answer token, when the request reasoned first (else null: no marker). */
  firstAnswerMs?: number | null;
  endMs: number | null;
  errorAtMs: number | null;
  /** The user cancelled it: the end marker is neutral, not an error's red. */
  cancelled?: boolean;
  stalls: Stall[];
  maxTokens: number;
}

export interface Hover {
  lane: number;
  index: number;
}

/** Events inside the view per lane: what the timeline draws (and reports to tests). */
export function countDrawn(lanes: LaneModel[], domain: Domain): number[] {
  return lanes.map((l) => {
    const [s, e] = visibleRange(l.t, l.n, domain.min, domain.max);
    return e - s;
  });
}

export function drawTimeline(
  ctx: CanvasRenderingContext2D,
  layout: TimelineLayout,
  lanes: LaneModel[],
  domain: Domain,
  hover: Hover | null,
): number[] {
  const { width, height, left, right, axisY } = layout;
  const x = linearScale(domain, left, right);
  ctx.clearRect(0, 0, width, height);
  ctx.fillStyle = C.bg;
  ctx.fillRect(0, 0, width, height);
  ctx.font = FONT;
  const ticks = niceTicks(domain.min, domain.max, Math.max(2, Math.floor((right - left) / 90)));

  const drawn: number[] = [];
  lanes.forEach((lane, i) => {
    const r = layout.lanes[i]!;
    const hoverIndex = hover?.lane === i ? hover.index : -1;
    drawn.push(drawLane({ ctx, layout, r, lane, x, tickValues: ticks.values, domain, hoverIndex }));
  });

  // Time axis.
  ctx.strokeStyle = C.axis;
  ctx.lineWidth = 1;
  line(ctx, left, axisY + 0.5, right, axisY + 0.5);
  ctx.fillStyle = C.tick;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  for (const v of ticks.values) {
    const px = Math.round(x.toPx(v)) + 0.5;
    line(ctx, px, axisY, px, axisY + 4);
    ctx.fillText(formatTick(v, ticks.decimals), px, axisY + 16);
  }
  ctx.textAlign = 'right';
  ctx.fillStyle = C.muted;
  ctx.fillText('time since request start (ms)', right, axisY + 30);
  return drawn;
}

/** What drawing one lane needs: the canvas, where the lane sits, its data, the view and its hovered event. */
interface LaneDraw {
  ctx: CanvasRenderingContext2D;
  layout: TimelineLayout;
  r: LaneRect;
  lane: LaneModel;
  x: LinearScale;
  /** The time axis' ticks: the lane's vertical grid lines. */
  tickValues: number[];
  domain: Domain;
  /** The hovered event of this lane (-1: none). */
  hoverIndex: number;
}

/** One lane, back to front: frame and axes, then (clipped to the plot) grid, stalls, bars, glyphs, markers, hover. */
function drawLane(d: LaneDraw): number {
  const { ctx, layout, r, lane, domain } = d;
  const { left, right } = layout;
  ctx.fillStyle = C.plot;
  ctx.fillRect(left, r.top, right - left, r.bottom - r.top);
  drawLaneAxis(d);

  ctx.save();
  ctx.beginPath();
  ctx.rect(left, r.top, right - left, r.bottom - r.top);
  ctx.clip();

  // Grid.
  ctx.strokeStyle = C.grid;
  for (const v of d.tickValues) {
    const px = Math.round(d.x.toPx(v)) + 0.5;
    line(ctx, px, r.top, px, r.bottom);
  }
  drawStalls(d);

  // Baseline.
  ctx.strokeStyle = C.axis;
  line(ctx, left, r.baseline + 0.5, right, r.baseline + 0.5);

  const [s, e] = visibleRange(lane.t, lane.n, domain.min, domain.max);
  drawBars(d, s, e);
  drawMeta(d, s, e);
  drawMarkers(d);
  drawHover(d);
  ctx.restore();
  return e - s;
}

/** The lane's y axis (tokens per event, 0 … max) with its title, and the lane's label when comparing. */
function drawLaneAxis({ ctx, layout, r, lane }: LaneDraw): void {
  const { left, right } = layout;
  ctx.fillStyle = C.tick;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  const maxT = Math.max(1, lane.maxTokens);
  const yTicks = maxT >= 4 ? [0, Math.round(maxT / 2), maxT] : maxT > 1 ? [0, maxT] : [0, 1];
  ctx.strokeStyle = C.grid;
  for (const v of yTicks) {
    const y = Math.round(r.baseline - barHeight(v, maxT, r.barH) * (v > 0 ? 1 : 0)) + 0.5;
    ctx.fillText(String(v), left - 6, y);
    if (v > 0) line(ctx, left, y, right, y);
  }
  ctx.save();
  ctx.translate(12, (r.baseline + r.top + 30) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.fillStyle = C.muted;
  ctx.fillText('tokens/event', 0, 0);
  ctx.restore();
  if (lane.label) {
    ctx.font = `600 ${FONT}`;
    ctx.fillStyle = lane.color;
    ctx.textAlign = 'left';
    ctx.fillText(lane.label, 4, r.top + 10);
    ctx.font = FONT;
  }
}

/** Stalls: shaded bands between the two content events around the gap. */
function drawStalls({ ctx, layout, r, lane, x, domain }: LaneDraw): void {
  const { left, right } = layout;
  for (const s of lane.stalls) {
    if (s.toMs < domain.min || s.fromMs > domain.max) continue;
    const x0 = x.toPx(s.fromMs);
    const x1 = x.toPx(s.toMs);
    ctx.fillStyle = C.stall;
    ctx.fillRect(x0, r.top + 30, x1 - x0, r.baseline - r.top - 30);
    ctx.strokeStyle = C.stallEdge;
    line(ctx, Math.round(x0) + 0.5, r.top + 30, Math.round(x0) + 0.5, r.baseline);
    line(ctx, Math.round(x1) + 0.5, r.top + 30, Math.round(x1) + 0.5, r.baseline);
    const label = `stall ${s.gapMs.toFixed(0)} ms`;
    if (x1 - x0 > ctx.measureText(label).width + 8) {
      ctx.fillStyle = C.error;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(label, (Math.max(x0, left) + Math.min(x1, right)) / 2, (r.top + 30 + r.baseline) / 2);
    }
  }
}

/** Markers: first event, TTFT, end, error — lines with their values. */
function drawMarkers({ ctx, layout, r, lane, x }: LaneDraw): void {
  const place = { ctx, x, r, right: layout.right };
  const mark = (ms: number, color: string, name: string, row: 1 | 2, dash: number[]): void =>
    marker(place, { ms, color, label: `${name} ${ms.toFixed(2)} ms`, row, dash });
  ctx.textBaseline = 'alphabetic';
  if (lane.endMs !== null) mark(lane.endMs, C.end, 'end', 1, [2, 3]);
  if (lane.firstEventMs !== null) mark(lane.firstEventMs, C.firstEvent, 'first event', 1, [4, 3]);
  if (lane.ttftMs !== null) mark(lane.ttftMs, C.ttft, 'TTFT', 2, []);
  if (lane.firstAnswerMs != null) mark(lane.firstAnswerMs, C.ttfat, 'TTFAT', 1, []);
  if (lane.errorAtMs !== null)
    mark(
      lane.errorAtMs,
      lane.cancelled ? C.cancelled : C.error,
      lane.cancelled ? 'cancelled' : 'error',
      2,
      lane.cancelled ? [3, 3] : [],
    );
}

/** The hovered event: a dashed line through it and a ring on its bar (or its glyph). */
function drawHover({ ctx, r, lane, x, hoverIndex }: LaneDraw): void {
  if (hoverIndex < 0 || hoverIndex >= lane.n) return;
  const px = Math.round(x.toPx(lane.t[hoverIndex]!)) + 0.5;
  ctx.strokeStyle = C.hover;
  ctx.setLineDash([2, 2]);
  line(ctx, px, r.top + 30, px, r.bottom);
  ctx.setLineDash([]);
  const f = lane.flags[hoverIndex]!;
  const y =
    f & EV_CONTENT
      ? r.baseline - barHeight(lane.tokens[hoverIndex]!, lane.maxTokens, r.barH)
      : r.metaTop + META_H / 2;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(px, y, 5, 0, Math.PI * 2);
  ctx.stroke();
  ctx.lineWidth = 1;
}

/**
 * Content events [s, e) as bars, one per pixel column (the tallest wins; coalesced if any was, else
 * answer if any was — a column of reasoning events only is drawn in the reasoning colour).
 */
function drawBars({ ctx, layout, r, lane, x }: LaneDraw, s: number, e: number): void {
  const plotW = layout.right - layout.left;
  const w = Math.min(6, Math.max(1, (plotW / Math.max(1, e - s)) * 0.6));
  let curPx = NaN;
  let curH = 0;
  let curCoal = false;
  let curReasoning = true;
  const flush = (): void => {
    if (Number.isNaN(curPx) || curH <= 0) return;
    ctx.fillStyle = curCoal ? C.coalesced : curReasoning ? C.reasoning : lane.color;
    ctx.fillRect(curPx - w / 2, r.baseline - curH, w, curH);
  };
  for (let i = s; i < e; i++) {
    const f = lane.flags[i]!;
    if (!(f & EV_CONTENT)) continue;
    const px = Math.round(x.toPx(lane.t[i]!));
    const h = barHeight(Math.max(1, lane.tokens[i]!), lane.maxTokens, r.barH);
    if (px !== curPx) {
      flush();
      curPx = px;
      curH = h;
      curCoal = (f & EV_COALESCED) !== 0;
      curReasoning = (f & EV_REASONING) !== 0;
    } else {
      curH = Math.max(curH, h);
      curCoal ||= (f & EV_COALESCED) !== 0;
      curReasoning &&= (f & EV_REASONING) !== 0;
    }
  }
  flush();
}

const META_ORDER: MetaKind[] = ['empty', 'usage', 'terminal', 'error'];

/** Meta events [s, e) as glyphs in the lane's meta strip, one per kind and pixel column. */
function drawMeta({ ctx, r, lane, x }: LaneDraw, s: number, e: number): void {
  const y = r.metaTop + META_H / 2;
  const last = [NaN, NaN, NaN, NaN];
  for (let i = s; i < e; i++) {
    const k = metaKind(lane.flags[i]!);
    if (!k) continue;
    const ki = META_ORDER.indexOf(k);
    const px = Math.round(x.toPx(lane.t[i]!));
    if (last[ki] === px) continue;
    last[ki] = px;
    glyph(ctx, k, px, y);
  }
}
