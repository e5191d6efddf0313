/**
 * The timeline's state outside React and one frame drawn from it: the lanes' requests read from
 * the live store at draw time (never React state), the user's zoom, the hovered event, the width.
 */
import type { RefObject } from 'react';
import { fitCanvas } from '../../core/charts/canvas.ts';
import { autoDomain, type Domain } from '../../core/charts/scale.ts';
import { laneBase, type LaneBase } from '../lane-model.ts';
import { liveStore } from '../live-store.ts';
import { reportDrawn } from '../probe.ts';
import { countDrawn, drawTimeline, type Hover, type LaneModel } from './timeline-draw.ts';
import { layoutTimeline, timelineHeight, type TimelineLayout } from './timeline-layout.ts';

export interface LaneSpec {
  requestId: string | null;
  label: string;
  color: string;
}

/** A lane as drawn, with what the view and the stall note need besides. */
export type TimelineLane = LaneModel & Pick<LaneBase, 'lastMs' | 'stallThresholdMs'>;

/** The refs the draw job and the pointer handlers share (one identity for the scheduled job). */
export interface TimelineRefs {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  lanesRef: RefObject<LaneSpec[]>;
  /** The user's zoom; null = auto-fit, which keeps following a live stream. */
  viewRef: RefObject<Domain | null>;
  widthRef: RefObject<number>;
  hoverRef: RefObject<Hover | null>;
}

const EMPTY: LaneBase = {
  n: 0,
  t: new Float64Array(0),
  tokens: new Uint32Array(0),
  flags: new Uint16Array(0),
  firstEventMs: null,
  ttftMs: null,
  endMs: null,
  errorAtMs: null,
  stalls: [],
  maxTokens: 1,
  lastMs: 0,
  stallThresholdMs: null,
};

/** Each lane's request as it is in the live store now (an empty lane until it has data). */
function laneModels(specs: readonly LaneSpec[]): TimelineLane[] {
  return specs.map((spec) => {
    const r = liveStore.get(spec.requestId);
    return { ...(r ? laneBase(r) : EMPTY), label: spec.label, color: spec.color };
  });
}

/** The whole time span of the lanes: the auto-fitted view, and the limit of zoom and pan. */
function fullDomain(ms: readonly { lastMs: number }[]): Domain {
  return autoDomain(Math.max(0, ...ms.map((m) => m.lastMs)));
}

/** The lanes now, with the view they are shown in: the whole span, the current domain, the geometry. */
export function currentView(refs: TimelineRefs): {
  ms: TimelineLane[];
  bounds: Domain;
  domain: Domain;
  layout: TimelineLayout;
} {
  const ms = laneModels(refs.lanesRef.current);
  const bounds = fullDomain(ms);
  return {
    ms,
    bounds,
    domain: refs.viewRef.current ?? bounds,
    layout: layoutTimeline(refs.widthRef.current, ms.length),
  };
}

/** The note under the canvas: how a stall is defined for the first lane, and how many there are. */
function stallNote(ms: readonly TimelineLane[]): string {
  const thr = ms[0]?.stallThresholdMs;
  const stalls = ms.reduce((a, x) => a + x.stalls.length, 0);
  return thr !== null && thr !== undefined
    ? `stall = gap > max(5 × median ITL, 100 ms) = ${thr.toFixed(1)} ms · ${stalls} stall${stalls === 1 ? '' : 's'}`
    : 'stalls: need two content events';
}

/**
 * One frame: draw the lanes at the current width and view (without a canvas, as in tests, only
 * count what would be drawn), report lane 0's drawn events to the e2e probe, update the note.
 */
export function drawFrame(refs: TimelineRefs, info: HTMLElement | null, probe: boolean): void {
  const ms = laneModels(refs.lanesRef.current);
  const domain = refs.viewRef.current ?? fullDomain(ms);
  const canvas = refs.canvasRef.current;
  const ctx = canvas?.getContext?.('2d') ?? null;
  let drawn: number[];
  if (canvas && ctx && refs.widthRef.current > 0) {
    const w = refs.widthRef.current;
    fitCanvas(canvas, ctx, w, timelineHeight(ms.length), { setStyle: true });
    drawn = drawTimeline(ctx, layoutTimeline(w, ms.length), ms, domain, refs.hoverRef.current);
  } else {
    drawn = countDrawn(ms, domain);
  }
  const first = refs.lanesRef.current[0]?.requestId;
  if (probe && first) reportDrawn(first, drawn[0] ?? 0);
  if (info) info.textContent = stallNote(ms);
}
