/**
 * Aggregate charts of a run (recharts, animation off, as docs/ARCHITECTURE.md says for aggregates): series
 * over the run's time in seconds, a CDF from live percentiles, a histogram from exact values.
 * Every axis says its unit. Fixed width/height in tests (ResponsiveContainer draws nothing there).
 */
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { C, TICK, TIP_LABEL_STYLE, TIP_STYLE } from '../../core/charts/theme.ts';
import { formatTick, niceTicks } from '../../core/charts/ticks.ts';
import { fmtTick } from '../../core/format.ts';
import { peakOf, yAxis } from '../../core/charts/y-axis.ts';
import type { TimePoint } from './run-series.ts';
import { ChartFrame } from '../../core/charts/ChartFrame.tsx';

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
    <ChartFrame
      testId={testId}
      label={`${lines.map((l) => l.name).join(', ')} over time`}
      width={width}
      height={height}
      empty={data.length === 0 && (empty ?? 'no data yet')}
    >
      {chart}
    </ChartFrame>
  );
}
