/**
 * The token timeline: a thin React shell around imperative canvas drawing (timeline-draw.ts).
 * Data comes from the live store, never from React state; the shell only asks the frame
 * scheduler for a redraw when a lane's request changed, the size changed or the user zoomed.
 * Wheel zooms around the cursor, drag pans, double-click resets; hovering shows exact values.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useFollowWidth } from '../../core/charts/use-follow-width.ts';
import type { Domain } from '../../core/charts/scale.ts';
import { frames } from '../../core/scheduler.ts';
import { liveStore } from '../live-store.ts';
import type { Hover } from './timeline-draw.ts';
import { timelineHeight } from './timeline-layout.ts';
import { drawFrame, type LaneSpec, type TimelineRefs } from './timeline-view.ts';
import { useTimelineInput, type Tip } from './use-timeline-input.ts';
import { TimelineTooltip } from './TimelineTooltip.tsx';

interface Props {
  lanes: LaneSpec[];
  testId?: string;
  /** Report drawn events of lane 0 to the e2e probe (the main timeline only). */
  probe?: boolean;
  ariaLabel?: string;
}

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
  const refs: TimelineRefs = { canvasRef, lanesRef, viewRef, widthRef, hoverRef };
  const [tip, setTip] = useState<Tip | null>(null);
  const [zoomed, setZoomed] = useState(false);
  const idsKey = lanes.map((l) => l.requestId ?? '').join('|');
  const height = timelineHeight(lanes.length);

  // The per-frame work lives in refs so the scheduled job keeps one identity (deduplicated per frame).
  const drawRef = useRef<() => void>(() => {});
  drawRef.current = () => drawFrame(refs, infoRef.current, probe);
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

  const { onMouseMove, onMouseLeave, onMouseDown, resetZoom } = useTimelineInput({
    ...refs,
    job,
    setTip,
    setZoomed,
  });

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
          onMouseDown={onMouseDown}
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
