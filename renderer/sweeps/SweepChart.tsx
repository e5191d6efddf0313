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
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { C } from '../core/charts/theme.ts';
import { fmtTick } from '../core/format.ts';
import type { ChartData } from './sweep-chart-data.ts';
import { axisRange, coverTicks, logTicks } from './sweep-axes.ts';

const TICK = { fill: C.tick, fontSize: 11 };
const TIP_STYLE = { background: '#1b2029', border: '1px solid #2e3542', fontSize: 12 };
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

function Chart({ data, logY, running, width, height }: SweepChartProps & { height: number }) {
  const r = axisRange(data, running?.x ?? null);
  const xt = coverTicks(r.x0, r.x1, width && width < 420 ? 4 : 6);
  const yt = logY ? logTicks(r.y0, r.y1) : coverTicks(0, r.y1, 5);
  const yDomain: [number, number] = logY ? [yt[0]!, yt[yt.length - 1]!] : [0, yt[yt.length - 1] ?? r.y1];
  return (
    <ScatterChart width={width} height={height} margin={{ top: 14, right: 18, bottom: 6, left: 4 }}>
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
        width={56}
        label={{ value: data.yLabel, angle: -90, position: 'insideLeft', offset: 10, ...LABEL }}
      />
      <Tooltip
        isAnimationActive={false}
        contentStyle={TIP_STYLE}
        labelStyle={{ color: C.text }}
        formatter={(v, name) => [typeof v === 'number' ? fmtTick(v, v) : String(v), name]}
      />
      <Legend
        verticalAlign="top"
        height={26}
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
          label={{ value: data.band.label, position: 'insideTop', fill: C.terminal, fontSize: 11 }}
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
      {running && (
        <ReferenceLine
          x={running.x}
          stroke={C.coalesced}
          strokeDasharray="3 3"
          label={{ value: running.label, position: 'insideTopRight', fill: C.coalesced, fontSize: 11 }}
        />
      )}
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

export function SweepChart(p: SweepChartProps) {
  const height = p.height ?? 260;
  const empty = p.data.series.every((s) => s.points.length === 0);
  return (
    <div className="sweep-chart" data-testid={p.testId} role="img" aria-label={p.title}>
      {p.width ? (
        <Chart {...p} height={height} />
      ) : (
        <ResponsiveContainer width="100%" height={height}>
          <Chart {...p} height={height} />
        </ResponsiveContainer>
      )}
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
