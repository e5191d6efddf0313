/**
 * The token timeline: a thin React shell around imperative canvas drawing (timeline-draw.ts).
 * Data comes from the live store, never from React state; the shell only asks the frame
 * scheduler for a redraw when a lane's request changed, the size changed or the user zoomed.
 * Wheel zooms around the cursor, drag pans, double-click resets; hovering shows exact values.
 */
import { useFollowWidth } from '../../core/charts/use-follow-width.ts';
import { fitCanvas } from '../../core/charts/canvas.ts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { hitTest } from './hit-test.ts';
import { autoDomain, linearScale, panDomain, zoomDomain, type Domain } from '../../core/charts/scale.ts';
import { countDrawn, drawTimeline, type Hover, type LaneModel } from './timeline-draw.ts';
import { laneAt, layoutTimeline, timelineHeight } from './timeline-layout.ts';
import { laneBase } from '../lane-model.ts';
import { liveStore } from '../live-store.ts';
import { reportDrawn } from '../probe.ts';
import { frames } from '../../core/scheduler.ts';
import { TimelineTooltip } from './TimelineTooltip.tsx';

export interface LaneSpec {
  requestId: string | null;
  label: string;
  color: string;
}

interface Props {
  lanes: LaneSpec[];
  testId?: string;
  /** Report drawn events of lane 0 to the e2e probe (the main timeline only). */
  probe?: boolean;
  ariaLabel?: string;
}

interface Tip {
  lane: number;
  index: number;
  x: number;
  y: number;
}

const EMPTY: Omit<LaneModel, 'label' | 'color'> & { lastMs: number; stallThresholdMs: number | null } = {
  n: 0,
  t: new Float64Array(0),
  tokens: new Uint32Array(0),
  flags: new Uint8Array(0),
  firstEventMs: null,
  ttftMs: null,
  endMs: null,
  errorAtMs: null,
  stalls: [],
  maxTokens: 1,
  lastMs: 0,
  stallThresholdMs: null,
};

export function Timeline({
  lanes,
  testId = 'timeline-canvas',
  probe = false,
  ariaLabel = 'Token timeline',
}: Props) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const infoRef = useRef<HTMLSpanElement>(null);
  const lanesRef = useRef(lanes);
  lanesRef.current = lanes;
  const viewRef = useRef<Domain | null>(null);
  const widthRef = useRef(900);
  const hoverRef = useRef<Hover | null>(null);
  const dragRef = useRef<{ x: number; domain: Domain; moved: boolean } | null>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const [zoomed, setZoomed] = useState(false);
  const idsKey = lanes.map((l) => l.requestId ?? '').join('|');
  const height = timelineHeight(lanes.length);

  // The per-frame work lives in refs so the scheduled job keeps one identity (deduplicated per frame).
  const models = (): (LaneModel & { lastMs: number; stallThresholdMs: number | null })[] =>
    lanesRef.current.map((spec) => {
      const r = liveStore.get(spec.requestId);
      return { ...(r ? laneBase(r) : EMPTY), label: spec.label, color: spec.color };
    });
  const bounds = (ms: { lastMs: number }[]): Domain => autoDomain(Math.max(0, ...ms.map((m) => m.lastMs)));
  const domainOf = (ms: { lastMs: number }[]): Domain => viewRef.current ?? bounds(ms);

  const drawRef = useRef<() => void>(() => {});
  drawRef.current = () => {
    const ms = models();
    const domain = domainOf(ms);
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext?.('2d') ?? null;
    let drawn: number[];
    if (canvas && ctx && widthRef.current > 0) {
      const w = widthRef.current;
      fitCanvas(canvas, ctx, w, timelineHeight(ms.length), { setStyle: true });
      drawn = drawTimeline(ctx, layoutTimeline(w, ms.length), ms, domain, hoverRef.current);
    } else {
      drawn = countDrawn(ms, domain);
    }
    const first = lanesRef.current[0]?.requestId;
    if (probe && first) reportDrawn(first, drawn[0] ?? 0);
    if (infoRef.current) {
      const m = ms[0];
      const thr = m?.stallThresholdMs;
      const stalls = ms.reduce((a, x) => a + x.stalls.length, 0);
      infoRef.current.textContent =
        thr !== null && thr !== undefined
          ? `stall = gap > max(5 × median ITL, 100 ms) = ${thr.toFixed(1)} ms · ${stalls} stall${stalls === 1 ? '' : 's'}`
          : 'stalls: need two content events';
    }
  };
  const job = useMemo(() => () => drawRef.current(), []);

  // Redraw when any lane's request gets data.
  useEffect(() => {
    const ids = new Set(idsKey.split('|').filter(Boolean));
    const off = liveStore.subscribe((id) => {
      if (ids.has(id)) frames.schedule(job);
    });
    viewRef.current = null;
    hoverRef.current = null;
    setTip(null);
    setZoomed(false);
    frames.schedule(job);
    return () => {
      off();
    };
  }, [idsKey, job]);

  // Follow the container's width.
  useFollowWidth(wrapRef, widthRef, job);

  // Wheel: zoom around the cursor (pan with shift or a horizontal wheel). Not passive, so the page does not scroll.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (e: WheelEvent): void => {
      e.preventDefault();
      const ms = models();
      const b = bounds(ms);
      const d = domainOf(ms);
      const layout = layoutTimeline(widthRef.current, ms.length);
      const x = linearScale(d, layout.left, layout.right);
      const px = e.clientX - canvas.getBoundingClientRect().left;
      const horizontal = Math.abs(e.deltaX) > Math.abs(e.deltaY);
      let next: Domain;
      if (e.shiftKey || horizontal) {
        const delta = (horizontal ? e.deltaX : e.deltaY) * ((d.max - d.min) / (layout.right - layout.left));
        next = panDomain(d, delta, b);
      } else {
        next = zoomDomain(d, x.toMs(px), Math.exp(e.deltaY * 0.002), b);
      }
      // Zoomed all the way out: back to auto-fit, which keeps following a live stream.
      const whole = next.max - next.min >= b.max - b.min;
      viewRef.current = whole ? null : next;
      setZoomed(!whole);
      frames.schedule(job);
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [job]);

  useEffect(() => {
    const up = (): void => {
      dragRef.current = null;
      if (canvasRef.current) canvasRef.current.style.cursor = '';
    };
    window.addEventListener('mouseup', up);
    return () => window.removeEventListener('mouseup', up);
  }, []);

  const local = (e: React.MouseEvent): { px: number; py: number } => {
    const r = canvasRef.current!.getBoundingClientRect();
    return { px: e.clientX - r.left, py: e.clientY - r.top };
  };

  const onMouseMove = (e: React.MouseEvent<HTMLCanvasElement>): void => {
    const { px, py } = local(e);
    const ms = models();
    const d = domainOf(ms);
    const layout = layoutTimeline(widthRef.current, ms.length);
    const drag = dragRef.current;
    if (drag) {
      const delta = (drag.x - px) * ((drag.domain.max - drag.domain.min) / (layout.right - layout.left));
      if (Math.abs(drag.x - px) > 2) drag.moved = true;
      if (drag.moved) {
        e.currentTarget.style.cursor = 'grabbing';
        viewRef.current = panDomain(drag.domain, delta, bounds(ms));
        setZoomed(true);
        frames.schedule(job);
        return;
      }
    }
    const lane = laneAt(layout, py);
    const x = linearScale(d, layout.left, layout.right);
    const m = lane >= 0 ? ms[lane] : undefined;
    const index = m && px >= layout.left ? hitTest(m.t, m.n, px, x.toPx, x.toMs, 8) : -1;
    const prev = hoverRef.current;
    if (index < 0) {
      if (prev) {
        hoverRef.current = null;
        setTip(null);
        frames.schedule(job);
      }
      return;
    }
    if (!prev || prev.lane !== lane || prev.index !== index) {
      hoverRef.current = { lane, index };
      frames.schedule(job);
    }
    setTip({ lane, index, x: px, y: py });
  };

  const onMouseLeave = (): void => {
    if (hoverRef.current) {
      hoverRef.current = null;
      setTip(null);
      frames.schedule(job);
    }
  };

  const resetZoom = (): void => {
    viewRef.current = null;
    setZoomed(false);
    frames.schedule(job);
  };

  const tipLane = tip ? lanes[tip.lane] : undefined;
  const tipReq = tipLane ? liveStore.get(tipLane.requestId) : undefined;

  return (
    <div className="timeline">
      <div className="timeline-canvas-wrap" ref={wrapRef} style={{ height }}>
        <canvas
          ref={canvasRef}
          data-testid={testId}
          role="img"
          aria-label={ariaLabel}
          style={{ width: '100%', height }}
          onMouseMove={onMouseMove}
          onMouseLeave={onMouseLeave}
          onMouseDown={(e) => {
            if (e.button !== 0) return;
            const ms = models();
            dragRef.current = { x: local(e).px, domain: domainOf(ms), moved: false };
          }}
          onDoubleClick={resetZoom}
        />
        {tip && tipReq && tipLane && (
          <TimelineTooltip
            cols={tipReq.cols}
            index={tip.index}
            x={tip.x}
            y={tip.y}
            width={widthRef.current}
            laneLabel={lanes.length > 1 ? tipLane.label : ''}
          />
        )}
      </div>
      <div className="timeline-foot">
        <span ref={infoRef} className="muted" />
        <span className="muted">wheel: zoom · shift+wheel or drag: pan · double-click: reset</span>
        {zoomed && (
          <button type="button" className="btn small" onClick={resetZoom}>
            Reset zoom
          </button>
        )}
      </div>
    </div>
  );
}
