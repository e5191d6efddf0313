/**
 * Aggregate charts of a run (recharts, animation off, as docs/ARCHITECTURE.md says for aggregates): series
 * over the run's time in seconds, a CDF from live percentiles, a histogram from exact values.
 * Every axis says its unit. Fixed width/height in tests (ResponsiveContainer draws nothing there).
 */
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useState } from 'react';
import { ScaleToggle, type XScale } from '../../core/charts/ScaleToggle.tsx';
import { C, TICK, TIP_LABEL_STYLE, TIP_STYLE } from '../../core/charts/theme.ts';
import { formatTick, niceTicks } from '../../core/charts/ticks.ts';
import { fmtTick } from '../../core/format.ts';
import { peakOf, yAxis } from '../../core/charts/y-axis.ts';
import { cdfDomain, cdfLogDomain } from '../compare/run-compare.ts';
import type { TimePoint } from './run-series.ts';

export function Sized({
  width,
  height,
  children,
}: {
  width?: number;
  height: number;
  children: React.ReactElement;
}) {
  return width ? (
    children
  ) : (
    <ResponsiveContainer width="100%" height={height}>
      {children}
    </ResponsiveContainer>
  );
}

interface SeriesLine {
  key: string;
  name: string;
  color: string;
  step?: boolean;
  dashed?: boolean;
}

interface SeriesProps {
  data: TimePoint[];
  lines: SeriesLine[];
  /** Right end of the time axis, s. */
  xMax: number;
  yLabel: string;
  format: (v: number) => string;
  integer?: boolean;
  testId?: string;
  width?: number;
  height?: number;
  empty?: string;
}

export function SeriesChart({
  data,
  lines,
  xMax,
  yLabel,
  format,
  integer,
  testId,
  width,
  height = 170,
  empty,
}: SeriesProps) {
  const top = Math.max(1, xMax);
  const xt = niceTicks(0, top, width && width < 400 ? 4 : 6);
  const peak = peakOf(
    lines.map((l) => ({ data: data.map((d) => ({ v: (d[l.key] as number | null | undefined) ?? null })) })),
  );
  const y = yAxis(peak, { integer });
  const chart = (
    <LineChart
      data={data}
      width={width}
      height={height}
      margin={{ top: 6, right: 12, bottom: 14, left: 4 }}
      accessibilityLayer={false}
    >
      <CartesianGrid stroke={C.grid} vertical={false} />
      <XAxis
        type="number"
        dataKey="t"
        domain={[0, top]}
        ticks={xt.values}
        allowDataOverflow
        tickFormatter={(v: number) => formatTick(v, xt.decimals)}
        stroke={C.axis}
        tick={TICK}
        height={30}
        label={{
          value: 'time since start (s)',
          position: 'insideBottomRight',
          offset: -2,
          fill: C.muted,
          fontSize: 11,
        }}
      />
      <YAxis
        type="number"
        domain={[0, y.top]}
        ticks={y.ticks}
        allowDataOverflow
        tickFormatter={(v: number) => fmtTick(v, y.top)}
        stroke={C.axis}
        tick={TICK}
        width={52}
        label={{ value: yLabel, angle: -90, position: 'insideLeft', offset: 12, fill: C.muted, fontSize: 11 }}
      />
      <Tooltip
        isAnimationActive={false}
        contentStyle={TIP_STYLE}
        labelStyle={TIP_LABEL_STYLE}
        labelFormatter={(t) => `${Number(t).toFixed(1)} s`}
        formatter={(v, name) => [typeof v === 'number' ? format(v) : String(v), name]}
      />
      {lines.map((l) => (
        <Line
          key={l.key}
          dataKey={l.key}
          name={l.name}
          stroke={l.color}
          strokeWidth={1.6}
          strokeDasharray={l.dashed ? '4 3' : undefined}
          type={l.step ? 'stepAfter' : 'linear'}
          dot={false}
          isAnimationActive={false}
          connectNulls={false}
        />
      ))}
    </LineChart>
  );
  return (
    <div
      className="mchart-body"
      data-testid={testId}
      role="img"
      aria-label={`${lines.map((l) => l.name).join(', ')} over time`}
    >
      <Sized width={width} height={height}>
        {chart}
      </Sized>
      {data.length === 0 && <div className="mchart-overlay">{empty ?? 'no data yet'}</div>}
    </div>
  );
}

/** The axes of a CDF chart (x: value in `unit` over [lo, hi], y: percentile), shared by both CDF charts. */
function cdfAxes(
  x: { lo: number; hi: number; ticks: number[] },
  unit: string,
  extraX: object = {},
  extraY: object = {},
) {
  return [
    <CartesianGrid key="grid" stroke={C.grid} vertical={false} />,
    <XAxis
      key="x"
      type="number"
      dataKey="v"
      domain={[x.lo, x.hi]}
      ticks={x.ticks}
      tickFormatter={(v: number) => fmtTick(v, x.hi)}
      stroke={C.axis}
      tick={TICK}
      height={30}
      label={{ value: unit, position: 'insideBottomRight', offset: -2, fill: C.muted, fontSize: 11 }}
      {...extraX}
    />,
    <YAxis
      key="y"
      type="number"
      domain={[0, 100]}
      ticks={[0, 50, 90, 100]}
      stroke={C.axis}
      tick={TICK}
      width={54}
      label={{
        value: 'percentile',
        angle: -90,
        position: 'insideLeft',
        offset: 2,
        fill: C.muted,
        fontSize: 11,
        style: { textAnchor: 'middle' },
      }}
      {...extraY}
    />,
  ];
}

interface CdfProps {
  points: { v: number; p: number }[];
  color: string;
  unit?: string;
  testId?: string;
  width?: number;
  height?: number;
}

/** Percentile (y, %) against latency (x, ms): the live HdrHistogram's CDF points. */
export function CdfChart({ points, color, unit = 'ms', testId, width, height = 150 }: CdfProps) {
  const max = points.length ? points[points.length - 1]!.v : 1;
  const xt = niceTicks(0, max > 0 ? max : 1, width && width < 300 ? 3 : 4);
  const xTop =
    xt.values.length && xt.values[xt.values.length - 1]! >= max ? xt.values[xt.values.length - 1]! : max;
  const chart = (
    <LineChart
      data={points}
      width={width}
      height={height}
      margin={{ top: 6, right: 12, bottom: 14, left: 0 }}
      accessibilityLayer={false}
    >
      {cdfAxes({ lo: 0, hi: xTop, ticks: xt.values }, unit)}
      <Tooltip
        isAnimationActive={false}
        contentStyle={TIP_STYLE}
        labelStyle={TIP_LABEL_STYLE}
        labelFormatter={(v) => `${fmtTick(Number(v))} ${unit}`}
        formatter={(p) => [`p${String(p)}`, 'percentile']}
      />
      <Line
        dataKey="p"
        stroke={color}
        strokeWidth={1.6}
        dot={false}
        type="linear"
        isAnimationActive={false}
      />
    </LineChart>
  );
  return (
    <div className="mchart-body" data-testid={testId} role="img" aria-label="Cumulative distribution">
      <Sized width={width} height={height}>
        {chart}
      </Sized>
      {points.length === 0 && <div className="mchart-overlay">no samples yet</div>}
    </div>
  );
}

export interface CdfSeries {
  name: string;
  color: string;
  points: { v: number; p: number }[];
}

/** Several runs' CDFs of one metric on shared axes (x: value, y: percentile), one colour per run. */
export function CdfCompareChart({
  series,
  unit = 'ms',
  testId,
  width,
  height = 190,
}: {
  series: CdfSeries[];
  unit?: string;
  testId?: string;
  width?: number;
  height?: number;
}) {
  const linX = cdfDomain(series, width && width < 300 ? 3 : 5);
  const logX = cdfLogDomain(series);
  const [picked, setPicked] = useState<XScale | null>(null);
  const auto: XScale = logX.auto ? 'log' : 'linear';
  const scale = picked ?? auto;
  const x = scale === 'log' ? logX : linX;
  // A log axis has no room for 0: those points (a CDF's first steps at 0 ms) are left out there.
  const drawn = series
    .filter((s) => s.points.length > 0)
    .map((s) => (scale === 'log' ? { ...s, points: s.points.filter((q) => q.v > 0) } : s));
  const chart = (
    <LineChart
      width={width}
      height={height}
      margin={{ top: 6, right: 12, bottom: 14, left: 0 }}
      accessibilityLayer={false}
    >
      {cdfAxes(
        x,
        scale === 'log' ? `${unit}, log scale` : unit,
        { allowDuplicatedCategory: false, allowDataOverflow: true, scale: scale === 'log' ? 'log' : 'auto' },
        { interval: 0 },
      )}
      {drawn.map((s) => (
        <Line
          key={s.name}
          data={s.points}
          dataKey="p"
          name={s.name}
          stroke={s.color}
          strokeWidth={1.6}
          dot={false}
          type="stepAfter"
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
  return (
    <div
      className="mchart-body"
      data-testid={testId}
      data-lines={series.map((s) => `${s.name}:${s.points.length}`).join(',')}
      data-scale={scale}
      role="img"
      aria-label="Cumulative distributions, one per run"
    >
      {drawn.length > 0 && (
        <ScaleToggle
          value={scale}
          auto={auto}
          onChange={setPicked}
          testId={testId ? `${testId}-scale` : undefined}
        />
      )}
      <Sized width={width} height={height}>
        {chart}
      </Sized>
      {drawn.length === 0 && <div className="mchart-overlay">no per-request values</div>}
    </div>
  );
}
