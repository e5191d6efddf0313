/**
 * Imperative drawing of the token timeline on a 2D canvas, straight from the typed arrays.
 * Marks are decimated per pixel column (the tallest bar of a column wins, as uPlot does), so
 * the cost is bounded by the visible events and the width, not by the zoom level.
 */
import { EV_COALESCED, EV_CONTENT } from '../../../shared/request.ts';
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
    const rect = layout.lanes[i]!;
    drawn.push(
      drawLane(ctx, layout, rect, lane, x, ticks.values, domain, hover?.lane === i ? hover.index : -1),
    );
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

function drawLane(
  ctx: CanvasRenderingContext2D,
  layout: TimelineLayout,
  r: LaneRect,
  lane: LaneModel,
  x: LinearScale,
  tickValues: number[],
  domain: Domain,
  hoverIndex: number,
): number {
  const { left, right } = layout;
  const plotW = right - left;
  ctx.fillStyle = C.plot;
  ctx.fillRect(left, r.top, plotW, r.bottom - r.top);

  // Y axis: tokens per event, 0 … max.
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

  ctx.save();
  ctx.beginPath();
  ctx.rect(left, r.top, plotW, r.bottom - r.top);
  ctx.clip();

  // Grid.
  ctx.strokeStyle = C.grid;
  for (const v of tickValues) {
    const px = Math.round(x.toPx(v)) + 0.5;
    line(ctx, px, r.top, px, r.bottom);
  }

  // Stalls: shaded bands between the two content events around the gap.
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

  // Baseline.
  ctx.strokeStyle = C.axis;
  line(ctx, left, r.baseline + 0.5, right, r.baseline + 0.5);

  const [s, e] = visibleRange(lane.t, lane.n, domain.min, domain.max);
  drawBars(ctx, r, lane, x, s, e, plotW);
  drawMeta(ctx, r, lane, x, s, e);

  // Markers: first event, TTFT, end, error — lines with their values.
  ctx.textBaseline = 'alphabetic';
  if (lane.endMs !== null)
    marker(ctx, x, r, lane.endMs, C.end, `end ${lane.endMs.toFixed(2)} ms`, 1, [2, 3], right);
  if (lane.firstEventMs !== null)
    marker(
      ctx,
      x,
      r,
      lane.firstEventMs,
      C.firstEvent,
      `first event ${lane.firstEventMs.toFixed(2)} ms`,
      1,
      [4, 3],
      right,
    );
  if (lane.ttftMs !== null)
    marker(ctx, x, r, lane.ttftMs, C.ttft, `TTFT ${lane.ttftMs.toFixed(2)} ms`, 2, [], right);
  if (lane.errorAtMs !== null)
    marker(
      ctx,
      x,
      r,
      lane.errorAtMs,
      lane.cancelled ? C.cancelled : C.error,
      `${lane.cancelled ? 'cancelled' : 'error'} ${lane.errorAtMs.toFixed(2)} ms`,
      2,
      lane.cancelled ? [3, 3] : [],
      right,
    );

  if (hoverIndex >= 0 && hoverIndex < lane.n) {
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
  ctx.restore();
  return e - s;
}

function drawBars(
  ctx: CanvasRenderingContext2D,
  r: LaneRect,
  lane: LaneModel,
  x: LinearScale,
  s: number,
  e: number,
  plotW: number,
): void {
  const w = Math.min(6, Math.max(1, (plotW / Math.max(1, e - s)) * 0.6));
  let curPx = NaN;
  let curH = 0;
  let curCoal = false;
  const flush = (): void => {
    if (Number.isNaN(curPx) || curH <= 0) return;
    ctx.fillStyle = curCoal ? C.coalesced : lane.color;
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
    } else {
      curH = Math.max(curH, h);
      curCoal ||= (f & EV_COALESCED) !== 0;
    }
  }
  flush();
}

const META_ORDER: MetaKind[] = ['empty', 'usage', 'terminal', 'error'];

function drawMeta(
  ctx: CanvasRenderingContext2D,
  r: LaneRect,
  lane: LaneModel,
  x: LinearScale,
  s: number,
  e: number,
): void {
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
