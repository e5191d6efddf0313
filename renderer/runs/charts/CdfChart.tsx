import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { C, TICK, TIP_LABEL_STYLE, TIP_STYLE } from '../../core/charts/theme.ts';
import { niceTicks } from '../../core/charts/ticks.ts';
import { fmtTick } from '../../core/format.ts';
import { ChartFrame } from '../../core/charts/ChartFrame.tsx';

/** The axes of a CDF chart (x: value in `unit` over [lo, hi], y: percentile), shared by both CDF charts. */
export function cdfAxes(
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
    <ChartFrame
      testId={testId}
      label="Cumulative distribution"
      width={width}
      height={height}
      empty={points.length === 0 && 'no samples yet'}
    >
      {chart}
    </ChartFrame>
  );
}
