/**
 * One sweep chart (recharts, animation off): each sweep's series as points joined in order of
 * load, p50 dashed; the knee as a labelled ring; over-saturated steps as red crosses; the SLO's
 * limit as a line and its answer as a band; the step running now as a dashed line (load charts).
 * Axes carry their units and the legend names every series. Fixed size in tests.
 */
import {
  CartesianGrid,
  Legend,
  ReferenceArea,
  ReferenceDot,
  ReferenceLine,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { labelRows, type PlacedLabel, type TopLabel } from '../core/charts/label-rows.ts';
import { C, TICK, TIP_LABEL_STYLE, TIP_STYLE } from '../core/charts/theme.ts';
import { fmtTick } from '../core/format.ts';
import type { ChartData } from './sweep-chart-data.ts';
import { axisRange, coverTicks, logTicks } from './sweep-axes.ts';

const LABEL = { fill: C.muted, fontSize: 11 };

export interface SweepChartProps {
  data: ChartData;
  /** Log y (latency spans decades once the server saturates). */
  logY?: boolean;
  /** The x of the step running now (load charts), labelled. */
  running?: { x: number; label: string } | null;
  testId: string;
  title: string;
  width?: number;
  height?: number;
}

const MARGIN = { top: 14, right: 18, bottom: 6, left: 4 };
const Y_AXIS_WIDTH = 56;
const LEGEND_HEIGHT = 26;

/** The x axis' domain: from the first tick to the last. */
function xDomain(data: ChartData, running: SweepChartProps['running'], width: number) {
  const r = axisRange(data, running?.x ?? null);
  const xt = coverTicks(r.x0, r.x1, width < 420 ? 4 : 6);
  return { r, xt, domain: [xt[0] ?? r.x0, xt[xt.length - 1] ?? r.x1] as [number, number] };
}

/**
 * The band's and the running step's names along the top of the plot, laid out in rows so they
 * never overlap (recharts places each label alone: "step 5 running" ran over "SLO answer").
 */
function topLabels(data: ChartData, running: SweepChartProps['running'], width: number): PlacedLabel[] {
  const { domain } = xDomain(data, running, width);
  const left = MARGIN.left + Y_AXIS_WIDTH;
  const right = width - MARGIN.right;
  const px = (x: number): number => left + ((x - domain[0]) / (domain[1] - domain[0] || 1)) * (right - left);
  const labels: TopLabel[] = [];
  if (data.band)
    labels.push({
      id: 'band',
      text: data.band.label,
      x: px((data.band.x1 + data.band.x2) / 2),
      align: 'middle',
    });
  if (running) labels.push({ id: 'running', text: running.label, x: px(running.x) + 4, align: 'start' });
  return labelRows(labels, { left: left + 2, right: right - 2 });
}

function Chart({ data, logY, running, width, height }: SweepChartProps & { height: number; width: number }) {
  const { r, xt } = xDomain(data, running, width);
  const yt = logY ? logTicks(r.y0, r.y1) : coverTicks(0, r.y1, 5);
  const yDomain: [number, number] = logY ? [yt[0]!, yt[yt.length - 1]!] : [0, yt[yt.length - 1] ?? r.y1];
  return (
    <ScatterChart width={width} height={height} margin={MARGIN}>
      <CartesianGrid stroke={C.grid} />
      <XAxis
        type="number"
        dataKey="x"
        name={data.xLabel}
        domain={[xt[0] ?? r.x0, xt[xt.length - 1] ?? r.x1]}
        ticks={xt}
        allowDataOverflow
        tickFormatter={(v: number) => fmtTick(v, r.x1)}
        stroke={C.axis}
        tick={TICK}
        height={34}
        label={{ value: data.xLabel, position: 'insideBottomRight', offset: -2, ...LABEL }}
      />
      <YAxis
        type="number"
        dataKey="y"
        name={data.yLabel}
        scale={logY ? 'log' : 'linear'}
        domain={yDomain}
        ticks={yt}
        allowDataOverflow
        tickFormatter={(v: number) => fmtTick(v, yDomain[1])}
        stroke={C.axis}
        tick={TICK}
        width={Y_AXIS_WIDTH}
        label={{ value: data.yLabel, angle: -90, position: 'insideLeft', offset: 10, ...LABEL }}
      />
      <Tooltip
        isAnimationActive={false}
        contentStyle={TIP_STYLE}
        labelStyle={TIP_LABEL_STYLE}
        formatter={(v, name) => [typeof v === 'number' ? fmtTick(v, v) : String(v), name]}
      />
      <Legend
        verticalAlign="top"
        height={LEGEND_HEIGHT}
        wrapperStyle={{ fontSize: 11, color: C.text }}
        content={() => <LineLegend data={data} />}
      />
      {data.band && (
        <ReferenceArea
          x1={data.band.x1}
          x2={Math.max(data.band.x2, data.band.x1 + (r.x1 - r.x0) / 200)}
          fill={C.terminal}
          fillOpacity={0.18}
          stroke={C.terminal}
          strokeOpacity={0.6}
        />
      )}
      {data.limit && (
        <ReferenceLine
          y={data.limit.y}
          stroke={C.terminal}
          strokeDasharray="6 3"
          label={{ value: data.limit.label, position: 'insideTopLeft', fill: C.terminal, fontSize: 11 }}
        />
      )}
      {running && <ReferenceLine x={running.x} stroke={C.coalesced} strokeDasharray="3 3" />}
      {data.series.map((s) => (
        <Scatter
          key={s.key}
          name={s.name}
          data={s.points}
          fill={s.color}
          line={{ stroke: s.color, strokeWidth: 1.8, strokeDasharray: s.dashed ? '5 4' : undefined }}
          lineType="joint"
          shape="circle"
          isAnimationActive={false}
        />
      ))}
      {data.over.length > 0 && (
        <Scatter
          name="over-saturated (stopped)"
          data={data.over}
          fill={C.error}
          shape="cross"
          isAnimationActive={false}
        />
      )}
      {data.knees.map((k, i) => (
        <ReferenceDot
          key={i}
          x={k.x}
          y={k.y}
          r={8}
          fill="none"
          stroke={k.color}
          strokeWidth={2}
          className="sweep-knee"
          label={{ value: k.label, position: 'top', fill: C.text, fontSize: 12, fontWeight: 600 }}
        />
      ))}
    </ScatterChart>
  );
}

/** The container's width (whole px), followed as it changes; 0 until measured. */
function useWidth(ref: RefObject<HTMLDivElement | null>, fixed: number | undefined): number {
  const [w, setW] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (fixed || !el) return;
    const measure = (): void => setW(Math.floor(el.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, fixed]);
  return fixed ?? w;
}

export function SweepChart(p: SweepChartProps) {
  const height = p.height ?? 260;
  const empty = p.data.series.every((s) => s.points.length === 0);
  const ref = useRef<HTMLDivElement>(null);
  // Measured, not a ResponsiveContainer: the labels are laid out in pixels.
  const width = useWidth(ref, p.width);
  const labels = width > 0 ? topLabels(p.data, p.running, width) : [];
  return (
    <div ref={ref} className="sweep-chart" data-testid={p.testId} role="img" aria-label={p.title}>
      {width > 0 && <Chart {...p} width={width} height={height} />}
      {labels.map((l) => (
        <span
          key={l.id}
          className={`sweep-top-label ${l.id}`}
          data-testid={`sweep-label-${l.id}`}
          data-row={l.row}
          style={{
            left: l.left,
            top: MARGIN.top + LEGEND_HEIGHT + 2 + l.row * 15,
            width: l.width,
            color: l.id === 'band' ? C.terminal : C.coalesced,
          }}
        >
          {l.text}
        </span>
      ))}
      {empty && <div className="mchart-overlay">no finished step yet</div>}
    </div>
  );
}

/**
 * The legend with each series' own stroke: p50 dashed, p99 solid (recharts draws every scatter
 * series' icon as the same circle, so the two could not be told apart).
 */
function LineLegend({ data }: { data: SweepChartProps['data'] }) {
  return (
    <ul className="legend sweep-line-legend" data-testid="sweep-line-legend">
      {data.series.map((s) => (
        <li key={s.key}>
          <svg width="22" height="10" aria-hidden="true">
            <line
              x1="0"
              x2="22"
              y1="5"
              y2="5"
              stroke={s.color}
              strokeWidth="1.8"
              strokeDasharray={s.dashed ? '5 4' : undefined}
            />
            <circle cx="11" cy="5" r="3" fill={s.color} />
          </svg>
          {s.name}
        </li>
      ))}
      {data.over.length > 0 && (
        <li>
          <span className="sw cross" style={{ color: C.error }}>
            ×
          </span>
          over-saturated (stopped)
        </li>
      )}
    </ul>
  );
}
