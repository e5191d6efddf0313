/**
 * The timeline's pointer: wheel zooms around the cursor (shift or a horizontal wheel pans), drag
 * pans, hovering picks the event under the cursor for the tooltip, double-click resets. The view
 * lives in the timeline's refs; every change asks the frame scheduler for a redraw.
 */
import { useEffect, useRef, type MouseEvent } from 'react';
import { linearScale, panDomain, zoomDomain, type Domain } from '../../core/charts/scale.ts';
import { frames } from '../../core/scheduler.ts';
import { hitTest } from './hit-test.ts';
import type { Hover } from './timeline-draw.ts';
import { laneAt, type TimelineLayout } from './timeline-layout.ts';
import { currentView, type TimelineLane, type TimelineRefs } from './timeline-view.ts';

/** The hovered event and where the pointer is (canvas pixels): the tooltip's anchor. */
export interface Tip {
  lane: number;
  index: number;
  x: number;
  y: number;
}

interface Input extends TimelineRefs {
  /** The timeline's draw job (one identity, deduplicated per frame). */
  job: () => void;
  setTip: (tip: Tip | null) => void;
  setZoomed: (zoomed: boolean) => void;
}

/** The view after a wheel event at pixel `px`: zoomed around the cursor, or panned with shift or a horizontal wheel. */
function wheelDomain(e: WheelEvent, px: number, d: Domain, bounds: Domain, layout: TimelineLayout): Domain {
  const horizontal = Math.abs(e.deltaX) > Math.abs(e.deltaY);
  if (e.shiftKey || horizontal) {
    const delta = (horizontal ? e.deltaX : e.deltaY) * ((d.max - d.min) / (layout.right - layout.left));
    return panDomain(d, delta, bounds);
  }
  const x = linearScale(d, layout.left, layout.right);
  return zoomDomain(d, x.toMs(px), Math.exp(e.deltaY * 0.002), bounds);
}

/** The event under canvas pixel (px, py), or null. */
function eventAt(
  ms: readonly TimelineLane[],
  domain: Domain,
  layout: TimelineLayout,
  px: number,
  py: number,
): Hover | null {
  const lane = laneAt(layout, py);
  const x = linearScale(domain, layout.left, layout.right);
  const m = lane >= 0 ? ms[lane] : undefined;
  const index = m && px >= layout.left ? hitTest(m.t, m.n, px, x.toPx, x.toMs, 8) : -1;
  return index < 0 ? null : { lane, index };
}

/** Wheel: zoom around the cursor (pan with shift or a horizontal wheel). Not passive, so the page does not scroll. */
function useWheelZoom({ job, setZoomed, ...refs }: Input): void {
  const { canvasRef, viewRef } = refs;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (e: WheelEvent): void => {
      e.preventDefault();
      const { bounds, domain, layout } = currentView(refs);
      const px = e.clientX - canvas.getBoundingClientRect().left;
      const next = wheelDomain(e, px, domain, bounds, layout);
      // Zoomed all the way out: back to auto-fit, which keeps following a live stream.
      const whole = next.max - next.min >= bounds.max - bounds.min;
      viewRef.current = whole ? null : next;
      setZoomed(!whole);
      frames.schedule(job);
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
    // The refs, the job and the setter keep one identity for the timeline's life: bound once.
  }, [job]);
}

/** The canvas' pointer handlers (wheel zoom bound on the canvas itself) and the zoom reset. */
export function useTimelineInput(input: Input): {
  onMouseMove: (e: MouseEvent<HTMLCanvasElement>) => void;
  onMouseLeave: () => void;
  onMouseDown: (e: MouseEvent<HTMLCanvasElement>) => void;
  resetZoom: () => void;
} {
  const { canvasRef, viewRef, hoverRef, job, setTip, setZoomed } = input;
  const dragRef = useRef<{ x: number; domain: Domain; moved: boolean } | null>(null);
  useWheelZoom(input);

  useEffect(() => {
    const up = (): void => {
      dragRef.current = null;
      if (canvasRef.current) canvasRef.current.style.cursor = '';
    };
    window.addEventListener('mouseup', up);
    return () => window.removeEventListener('mouseup', up);
  }, [canvasRef]);

  const local = (e: MouseEvent): { px: number; py: number } => {
    const r = canvasRef.current!.getBoundingClientRect();
    return { px: e.clientX - r.left, py: e.clientY - r.top };
  };

  const onMouseMove = (e: MouseEvent<HTMLCanvasElement>): void => {
    const { px, py } = local(e);
    const { ms, bounds, domain, layout } = currentView(input);
    const drag = dragRef.current;
    if (drag) {
      const delta = (drag.x - px) * ((drag.domain.max - drag.domain.min) / (layout.right - layout.left));
      if (Math.abs(drag.x - px) > 2) drag.moved = true;
      if (drag.moved) {
        e.currentTarget.style.cursor = 'grabbing';
        viewRef.current = panDomain(drag.domain, delta, bounds);
        setZoomed(true);
        frames.schedule(job);
        return;
      }
    }
    const hit = eventAt(ms, domain, layout, px, py);
    const prev = hoverRef.current;
    if (!hit) {
      if (prev) {
        hoverRef.current = null;
        setTip(null);
        frames.schedule(job);
      }
      return;
    }
    if (!prev || prev.lane !== hit.lane || prev.index !== hit.index) {
      hoverRef.current = hit;
      frames.schedule(job);
    }
    setTip({ ...hit, x: px, y: py });
  };

  const onMouseLeave = (): void => {
    if (hoverRef.current) {
      hoverRef.current = null;
      setTip(null);
      frames.schedule(job);
    }
  };

  const onMouseDown = (e: MouseEvent<HTMLCanvasElement>): void => {
    if (e.button !== 0) return;
    dragRef.current = { x: local(e).px, domain: currentView(input).domain, moved: false };
  };

  const resetZoom = (): void => {
    viewRef.current = null;
    setZoomed(false);
    frames.schedule(job);
  };

  return { onMouseMove, onMouseLeave, onMouseDown, resetZoom };
}
