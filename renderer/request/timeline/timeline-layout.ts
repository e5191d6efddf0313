/**
 * Geometry of the timeline canvas: one lane per request (stacked when comparing), a shared time
 * axis at the bottom. Pure, so hit-testing by lane and the drawing agree on every pixel.
 */

export interface LaneRect {
  top: number;
  /** Baseline of the token bars (bars grow upwards from here). */
  baseline: number;
  /** Height available to the tallest bar. */
  barH: number;
  /** Top of the meta strip (glyphs of empty / usage / end / error events). */
  metaTop: number;
  bottom: number;
}

export interface TimelineLayout {
  width: number;
  height: number;
  /** Plot area, x. */
  left: number;
  right: number;
  /** Top of the first lane; marker labels live above the bars inside each lane. */
  top: number;
  /** y of the time axis line. */
  axisY: number;
  lanes: LaneRect[];
}

const LANE_H = 150;
const LANE_GAP = 10;
export const META_H = 16;
const LABEL_H = 30;
const AXIS_H = 34;
const LEFT = 52;
const RIGHT = 14;
const TOP = 6;

export function timelineHeight(lanes: number): number {
  return TOP + lanes * LANE_H + Math.max(0, lanes - 1) * LANE_GAP + AXIS_H;
}

export function layoutTimeline(width: number, lanes: number): TimelineLayout {
  const n = Math.max(1, lanes);
  const rects: LaneRect[] = [];
  for (let i = 0; i < n; i++) {
    const top = TOP + i * (LANE_H + LANE_GAP);
    const bottom = top + LANE_H;
    const metaTop = bottom - META_H;
    const baseline = metaTop - 2;
    rects.push({ top, baseline, barH: baseline - (top + LABEL_H), metaTop, bottom });
  }
  const axisY = rects[n - 1]!.bottom;
  return {
    width,
    height: timelineHeight(n),
    left: LEFT,
    right: Math.max(LEFT + 10, width - RIGHT),
    top: TOP,
    axisY,
    lanes: rects,
  };
}

/** The lane under a y coordinate (-1 outside every lane). */
export function laneAt(layout: TimelineLayout, y: number): number {
  return layout.lanes.findIndex((l) => y >= l.top && y <= l.bottom);
}

/** Bar height for `tokens` when the tallest bar in the lane carries `maxTokens`. */
export function barHeight(tokens: number, maxTokens: number, barH: number): number {
  if (tokens <= 0) return 0;
  return Math.max(2, (tokens / Math.max(1, maxTokens)) * barH);
}
