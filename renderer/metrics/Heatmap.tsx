/**
 * A histogram as a heatmap: a thin React shell around metrics/heatmap-draw.ts. Redraws go
 * through the frame scheduler (at most once a frame); hovering names the cell's step, bucket
 * and count.
 */
import { useFollowWidth } from '../core/charts/use-follow-width.ts';
import { fitCanvas } from '../core/charts/canvas.ts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { heatmapBins, rowLabel, rowRange, type Heatmap as HeatmapData } from './heatmap-bins.ts';
import { drawHeatmap, heatColor, heatmapHit, heatmapLayout, type HeatCell } from './heatmap-draw.ts';
import type { HistPoint } from './series.ts';
import { clockLabel } from './time-axis.ts';
import { frames } from '../core/scheduler.ts';

interface Props {
  points: readonly HistPoint[];
  domain: [number, number];
  resolutionMs: number;
  /** Bounds are seconds (shown as durations). */
  seconds: boolean;
  height?: number;
  width?: number;
}

export function Heatmap({ points, domain, resolutionMs, seconds, height = 240, width }: Props) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const widthRef = useRef(width ?? 600);
  const hoverRef = useRef<HeatCell | null>(null);
  const [tip, setTip] = useState<{ cell: HeatCell; x: number; y: number } | null>(null);
  const m: HeatmapData = useMemo(
    () => heatmapBins(points, { startMs: domain[0], endMs: domain[1], resolutionMs }),
    [points, domain, resolutionMs],
  );
  const rows = useMemo(() => rowRange(m), [m]);

  const drawRef = useRef<() => void>(() => {});
  drawRef.current = () => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext?.('2d') ?? null;
    if (!canvas || !ctx) return;
    const w = widthRef.current;
    fitCanvas(canvas, ctx, w, height, { setStyle: true });
    drawHeatmap(ctx, heatmapLayout(w, height), m, rows, domain, seconds, hoverRef.current);
  };
  const job = useMemo(() => () => drawRef.current(), []);

  useEffect(() => frames.schedule(job), [m, rows, domain, seconds, job]);

  useFollowWidth(wrapRef, widthRef, job, !width);

  useEffect(() => () => frames.cancel(job), [job]);

  const onMove = (e: React.MouseEvent<HTMLCanvasElement>): void => {
    const r = e.currentTarget.getBoundingClientRect();
    const px = e.clientX - r.left;
    const py = e.clientY - r.top;
    const cell = heatmapHit(m, rows, domain, heatmapLayout(widthRef.current, height), px, py);
    const prev = hoverRef.current;
    if (cell?.col !== prev?.col || cell?.row !== prev?.row) {
      hoverRef.current = cell;
      frames.schedule(job);
    }
    setTip(cell ? { cell, x: px, y: py } : null);
  };

  const tipCol = tip ? m.cols[tip.cell.col] : undefined;
  const tipCount = tip ? m.counts[tip.cell.col * m.les.length + tip.cell.row] : 0;
  return (
    <div className="heatmap">
      <div className="heatmap-wrap" ref={wrapRef} style={{ height }}>
        <canvas
          ref={canvasRef}
          role="img"
          aria-label="Observations per bucket per step"
          style={{ width: width ?? '100%', height }}
          onMouseMove={onMove}
          onMouseLeave={() => {
            hoverRef.current = null;
            setTip(null);
            frames.schedule(job);
          }}
        />
        {m.max === 0 && <div className="mchart-overlay">No observations in this window</div>}
        {tip && tipCol && (
          <div
            className="tooltip"
            style={{
              // Beside the pointer, on whichever side has room, never over the hovered cell.
              left: tip.x + 14 + 210 <= widthRef.current ? tip.x + 14 : Math.max(0, tip.x - 14 - 210),
              top: Math.max(0, tip.y - 30),
              width: 210,
            }}
          >
            <div className="tooltip-title">{rowLabel(m.les, tip.cell.row, seconds)}</div>
            <div className="muted">
              {clockLabel(tipCol.t0)} – {clockLabel(tipCol.t1)}
            </div>
            <div>
              {tipCount} observation{tipCount === 1 ? '' : 's'}
            </div>
          </div>
        )}
      </div>
      <div className="heatmap-foot">
        <span className="muted">
          y: bucket{seconds ? ' (duration)' : ''} · x: time · colour: observations per step (√ scale)
        </span>
        <span className="heat-scale" aria-label="Colour scale">
          <span>0</span>
          <i
            style={{
              background: `linear-gradient(90deg, ${[0, 0.25, 0.5, 0.75, 1].map(heatColor).join(', ')})`,
            }}
          />
          <span>{m.max}</span>
        </span>
      </div>
    </div>
  );
}
