/**
 * The swimlane's canvas state, apart from its markup (runs/Swimlane.tsx): the view (domain and
 * layout, following the live clock or zoomed), the redraw job on the shared frame loop, and the
 * wheel, drag and hover handling that move the view or pick a lane.
 */
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useFollowWidth } from '../../core/charts/use-follow-width.ts';
import { fitCanvas } from '../../core/charts/canvas.ts';
import type { Domain } from '../../core/charts/scale.ts';
import { frames } from '../../core/scheduler.ts';
import type { LaneStore } from './lane-store.ts';
import { useRunsStore } from '../run-store.ts';
import { NO_ZOOM, panRows, panTime, zoomRows, zoomTime, type SwimZoom } from './swimlane-zoom.ts';
import {
  drawSwimlane,
  followDomain,
  laneAtPoint,
  swimLayout,
  wholeDomain,
  type SwimLayout,
} from './swimlane-draw.ts';

/** The live run's clock: its last progress tick, moved on by the time since (at most 1 s ahead). */
function liveNowMs(): number | null {
  const live = useRunsStore.getState().live;
  const p = live?.progress;
  if (!live || !p || live.finished || p.phase === 'warmup') return null;
  if (p.phase === 'done' || p.phase === 'cancelled') return null;
  return p.elapsedMs + Math.min(1000, Math.max(0, performance.now() - live.progressAt));
}

/** What is in view now: the live clock (or null), the domain drawn, the unzoomed one, the layout. */
interface SwimView {
  now: number | null;
  domain: Domain;
  base: Domain;
  layout: SwimLayout;
}

/** The canvas's refs and view, shared by the drawing, the wheel and the pointer handlers. */
export interface SwimCanvas {
  store: LaneStore;
  wrapRef: RefObject<HTMLDivElement | null>;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  widthRef: { current: number };
  hoverRef: { current: number };
  zoomRef: { current: SwimZoom };
  view: () => SwimView;
  setZoom: (z: SwimZoom) => void;
  /** The redraw job (one per frame at most). */
  job: () => void;
  zoomed: boolean;
}

/** The view, the redraw job, and redraws on new lanes and width changes. */
export function useSwimCanvas(store: LaneStore, live: boolean): SwimCanvas {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const widthRef = useRef(800);
  const hoverRef = useRef(-1);
  const liveRef = useRef(live);
  liveRef.current = live;
  const zoomRef = useRef<SwimZoom>(NO_ZOOM);
  const [zoomed, setZoomed] = useState(false);

  const view = (): SwimView => {
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

  return { store, wrapRef, canvasRef, widthRef, hoverRef, zoomRef, view, setZoom, job, zoomed };
}

/**
 * Wheel: zoom time (static view) around the cursor; shift+wheel: zoom lanes. A native
 * listener, because React's wheel listener is passive and cannot keep the page from scrolling.
 */
export function useWheelZoom(sw: SwimCanvas): void {
  const { canvasRef, view, setZoom, zoomRef, store } = sw;
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
}

/** The lane the pointer is on, and where (for its tooltip). */
export interface SwimTip {
  lane: number;
  x: number;
  y: number;
}

/** Drag pans (time in a static view, lanes always); hovering picks the lane under the pointer. */
export function useSwimPointer(sw: SwimCanvas) {
  const { store, view, setZoom, zoomRef, hoverRef, job } = sw;
  const [tip, setTip] = useState<SwimTip | null>(null);
  const dragRef = useRef<{ x: number; y: number } | null>(null);

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
  return { tip, onDown, onUp, onMove, onLeave };
}
