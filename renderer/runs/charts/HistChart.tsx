/**
 * A run's histogram of one latency metric (recharts, animation off): equal-width bins with the
 * outliers in one labelled overflow bin, or log bins on a log x axis — the default where the
 * values span more than ~2 decades, switchable (core/charts/ScaleToggle.tsx).
 */
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { binsPreferLogX } from '../../../shared/charts/histogram-bins.ts';
import { fmtEdge, logBinTicks } from '../../core/charts/log-bins.ts';
import type { XScale } from '../../core/charts/ScaleToggle.tsx';
import { C, TICK, TIP_LABEL_STYLE, TIP_STYLE } from '../../core/charts/theme.ts';
import { binAxisTicks, decimalsOf } from '../../core/charts/ticks.ts';
import { yAxis } from '../../core/charts/y-axis.ts';
import { fmtTick } from '../../core/format.ts';
import { ChartFrame } from '../../core/charts/ChartFrame.tsx';
import type { HistDatum } from './run-series.ts';

interface HistProps {
  data: HistDatum[];
  /** The same values in log bins: with them, a linear / log x switch (log by default over ~2 decades). */
  logData?: HistDatum[];
  color: string;
  unit?: string;
  /** What is counted: "requests", "chunks", "tokens". */
  countLabel: string;
  testId?: string;
  width?: number;
  height?: number;
}

/** A bar's label and tooltip range: linear bins on their nice step, log bins in significant digits. */
function histRows(data: readonly HistDatum[], log: boolean, unit: string) {
  if (log)
    return data.map((d) => ({
      label: fmtEdge(d.x0),
      range: `${fmtEdge(d.x0)} – ${fmtEdge(d.x1)} ${unit}`,
      count: d.count,
    }));
  const step = data.find((d) => !d.overflow);
  const dec = step ? decimalsOf(step.x1 - step.x0) : 0;
  return data.map((d) => ({
    label: d.overflow ? `≥${fmtTick(d.x0)}` : fmtTick(+d.x0.toFixed(dec)),
    range: d.overflow
      ? `≥ ${d.x0.toFixed(dec)} ${unit}`
      : `${d.x0.toFixed(dec)} – ${d.x1.toFixed(dec)} ${unit}`,
    count: d.count,
  }));
}

/**
 * Equal-width bins, outliers in one labelled overflow bin (charts/histogram-bins.ts); with log
 * bins, a switch to a log x axis, on by default where the values span decades (a 1.4-s tail beside
 * gaps of milliseconds would put nearly every gap in the first bar).
 */
export function HistChart({
  data,
  logData,
  color,
  unit = 'ms',
  countLabel,
  testId,
  width,
  height = 150,
}: HistProps) {
  const auto: XScale = logData && binsPreferLogX(logData) ? 'log' : 'linear';
  const [picked, setPicked] = useState<XScale | null>(null);
  const scale = logData ? (picked ?? auto) : 'linear';
  const shown = scale === 'log' && logData ? logData : data;
  const rows = histRows(shown, scale === 'log', unit);
  const ticks = (scale === 'log' ? logBinTicks(shown) : binAxisTicks(shown)).map((i) => rows[i]!.label);
  const y = yAxis(Math.max(0, ...rows.map((r) => r.count)), { integer: true });
  const chart = (
    <BarChart
      data={rows}
      width={width}
      height={height}
      margin={{ top: 6, right: 12, bottom: 14, left: 0 }}
      barCategoryGap={1}
      accessibilityLayer={false}
    >
      <CartesianGrid stroke={C.grid} vertical={false} />
      <XAxis
        dataKey="label"
        stroke={C.axis}
        tick={TICK}
        ticks={ticks}
        interval={0}
        height={30}
        label={{
          value: scale === 'log' ? `${unit}, log scale` : unit,
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
        allowDecimals={false}
        stroke={C.axis}
        tick={TICK}
        width={54}
        tickFormatter={(v: number) => fmtTick(v, y.top)}
        label={{
          value: countLabel,
          angle: -90,
          position: 'insideLeft',
          offset: 2,
          fill: C.muted,
          fontSize: 11,
          style: { textAnchor: 'middle' },
        }}
      />
      <Tooltip
        isAnimationActive={false}
        cursor={{ fill: 'rgba(255,255,255,0.05)' }}
        contentStyle={TIP_STYLE}
        labelStyle={TIP_LABEL_STYLE}
        formatter={(v) => [String(v), countLabel]}
        labelFormatter={(_l, payload) =>
          (payload?.[0]?.payload as { range?: string } | undefined)?.range ?? ''
        }
      />
      <Bar dataKey="count" fill={color} isAnimationActive={false} />
    </BarChart>
  );
  return (
    <ChartFrame
      testId={testId}
      data-scale={scale}
      label="Histogram"
      width={width}
      height={height}
      empty={data.length === 0 && 'no values'}
      scale={logData && data.length > 0 && { value: scale, auto, onChange: setPicked }}
    >
      {chart}
    </ChartFrame>
  );
}
