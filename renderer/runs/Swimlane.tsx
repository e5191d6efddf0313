/**
 * The run swimlane: a thin React shell around canvas drawing (runs/swimlane-draw.ts) from the
 * lane store. While the run goes it redraws every animation frame (the view follows time, moved
 * smoothly between the core's 4 Hz progress ticks); React renders only on hover changes.
 */
import { useFollowWidth } from '../core/charts/use-follow-width.ts';
import { fitCanvas } from '../core/charts/canvas.ts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fmtLatency } from '../core/format.ts';
import { frames } from '../core/scheduler.ts';
import type { LaneStore } from './lane-store.ts';
import { useRunsStore } from './run-store.ts';
import { NO_ZOOM, panRows, panTime, zoomRows, zoomTime, type SwimZoom } from './swimlane-zoom.ts';
import {
  drawSwimlane,
  followDomain,
  laneAtPoint,
  laneState,
  swimLayout,
  SWIM_HEIGHT,
  wholeDomain,
} from './swimlane-draw.ts';

interface Props {
  store: LaneStore;
  /** Follow the live run's clock (else: the whole run, static). */
  live: boolean;
  testId?: string;
}

/** The live run's clock: its last progress tick, moved on by the time since (at most 1 s ahead). */
export function liveNowMs(): number | null {
  const live = useRunsStore.getState().live;
  const p = live?.progress;
  if (!live || !p || live.finished || p.phase === 'warmup') return null;
  if (p.phase === 'done' || p.phase === 'cancelled') return null;
  return p.elapsedMs + Math.min(1000, Math.max(0, performance.now() - live.progressAt));
}

interface Tip {
  lane: number;
  x: number;
  y: number;
}

export function Swimlane({ store, live, testId = 'swimlane' }: Props) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const widthRef = useRef(800);
  const hoverRef = useRef(-1);
  const liveRef = useRef(live);
  liveRef.current = live;
  const [tip, setTip] = useState<Tip | null>(null);
  const zoomRef = useRef<SwimZoom>(NO_ZOOM);
  const [zoomed, setZoomed] = useState(false);
  const dragRef = useRef<{ x: number; y: number } | null>(null);

  const view = () => {
    const now = liveRef.current ? liveNowMs() : null;
    const z = zoomRef.current;
    // Following a live run, time follows the clock; lanes can still be zoomed.
    const base = now !== null ? followDomain(now) : wholeDomain(store);
    const domain = now === null && z.domain ? z.domain : base;
    const layout = swimLayout(
      widthRef.current,
      store.rows,
      undefined,
      z.rowsVisible ?? undefined,
      z.rowOffset,
    );
    return { now, domain, base, layout };
  };

  const setZoom = (z: SwimZoom): void => {
    zoomRef.current = z;
    setZoomed(z.domain !== null || z.rowsVisible !== null);
    frames.schedule(job);
  };

  const drawRef = useRef<() => void>(() => {});
  drawRef.current = () => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext?.('2d') ?? null;
    const { now, domain, layout } = view();
    if (canvas && ctx && layout.width > 0) {
      fitCanvas(canvas, ctx, layout.width, layout.height);
      const t0 = performance.now();
      const st = drawSwimlane(ctx, store, layout, domain, now, hoverRef.current);
      // The dashboard benchmark (bench/run-dashboard.bench.ts) collects draw times when it asks.
      (window as { __swimDrawMs?: number[] }).__swimDrawMs?.push(performance.now() - t0);
      wrapRef.current?.setAttribute('data-lanes', String(st.lanes));
      wrapRef.current?.setAttribute('data-ticks', String(st.ticks));
    }
    wrapRef.current?.setAttribute('data-requests', String(store.n));
    wrapRef.current?.setAttribute('data-span-ms', (domain.max - domain.min).toFixed(3));
    // Following a live run: the view moves with time, so every frame.
    if (now !== null) frames.schedule(job);
  };
  const job = useMemo(() => () => drawRef.current(), []);

  useEffect(() => {
    const off = store.subscribe(() => frames.schedule(job));
    frames.schedule(job);
    return () => {
      off();
      frames.cancel(job);
    };
  }, [store, job, live]);

  useFollowWidth(wrapRef, widthRef, job);

  // Wheel: zoom time (static view) around the cursor; shift+wheel: zoom lanes. A native
  // listener, because React's wheel listener is passive and cannot keep the page from scrolling.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (e: WheelEvent): void => {
      const r = canvas.getBoundingClientRect();
      const { now, base, layout } = view();
      const factor = Math.exp((e.deltaY || e.deltaX) * 0.002);
      if (e.shiftKey || now !== null) {
        if (layout.rows <= 4) return;
        setZoom(zoomRows(zoomRef.current, layout, e.clientY - r.top, factor));
      } else setZoom(zoomTime(zoomRef.current, base, layout, e.clientX - r.left, factor));
      e.preventDefault();
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [store]);

  const onDown = (e: React.MouseEvent<HTMLCanvasElement>): void => {
    if (e.button === 0) dragRef.current = { x: e.clientX, y: e.clientY };
  };
  const onUp = (): void => {
    dragRef.current = null;
  };

  const onMove = (e: React.MouseEvent<HTMLCanvasElement>): void => {
    const r = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    const drag = dragRef.current;
    if (drag && (e.buttons & 1) === 1) {
      const { now, base, layout } = view();
      let z = panRows(zoomRef.current, layout, e.clientY - drag.y);
      if (now === null) z = panTime(z, base, layout, e.clientX - drag.x);
      dragRef.current = { x: e.clientX, y: e.clientY };
      if (z !== zoomRef.current) setZoom(z);
      return;
    }
    const { now, domain, layout } = view();
    const lane = laneAtPoint(store, layout, domain, now, x, y);
    if (lane !== hoverRef.current) {
      hoverRef.current = lane;
      frames.schedule(job);
    }
    setTip(lane >= 0 ? { lane, x, y } : null);
  };
  const onLeave = (): void => {
    hoverRef.current = -1;
    setTip(null);
    frames.schedule(job);
  };

  return (
    <div className="swimlane" ref={wrapRef} data-testid={testId} style={{ height: SWIM_HEIGHT }}>
      <canvas
        ref={canvasRef}
        role="img"
        aria-label="Swimlane: one lane per request (queue wait, waiting for the first token, generating with a tick per token event; failures red)"
        style={{ width: '100%', height: SWIM_HEIGHT }}
        onMouseMove={onMove}
        onMouseLeave={() => {
          onUp();
          onLeave();
        }}
        onMouseDown={onDown}
        onMouseUp={onUp}
        onDoubleClick={() => setZoom(NO_ZOOM)}
        data-zoomed={zoomed ? 'true' : 'false'}
      />

      {tip && tip.lane < store.n && (
        <LaneTip store={store} lane={tip.lane} x={tip.x} y={tip.y} width={widthRef.current} />
      )}
    </div>
  );
}

function LaneTip({
  store,
  lane,
  x,
  y,
  width,
}: {
  store: LaneStore;
  lane: number;
  x: number;
  y: number;
  width: number;
}) {
  const state = laneState(store, lane);
  const st = store.startedMs[lane]!;
  const end = store.endMs[lane]!;
  const ttft = store.ttftMs[lane]!;
  const queue = st - store.arrivedMs[lane]!;
  const left = x + 260 > width ? Math.max(0, x - 250) : x + 14;
  return (
    <div className="tooltip swim-tip" style={{ left, top: Math.max(0, y - 10) }} data-testid="swimlane-tip">
      <div className="tooltip-title">
        {store.ids[lane]} · <span className={`swim-state ${state}`}>{state === 'ok' ? 'done' : state}</span>
      </div>
      <table>
        <tbody>
          <tr>
            <th>sent at</th>
            <td>{(st / 1000).toFixed(3)} s</td>
          </tr>
          <tr>
            <th>queue wait</th>
            <td>{fmtLatency(queue)}</td>
          </tr>
          <tr>
            <th>TTFT</th>
            <td>{Number.isNaN(ttft) ? '—' : fmtLatency(ttft)}</td>
          </tr>
          <tr>
            <th>E2E</th>
            <td>{Number.isNaN(end) ? 'running' : fmtLatency(end - st)}</td>
          </tr>
          <tr>
            <th>output tokens</th>
            <td>{store.outTokens[lane]}</td>
          </tr>
        </tbody>
      </table>
      {store.errors.get(lane) && <div className="swim-err">{store.errors.get(lane)}</div>}
    </div>
  );
}
