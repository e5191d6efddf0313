import { Line, LineChart } from 'recharts';
import { useState } from 'react';
import type { XScale } from '../../core/charts/ScaleToggle.tsx';
import { cdfDomain, cdfLogDomain } from '../compare/run-compare.ts';
import { ChartFrame } from '../../core/charts/ChartFrame.tsx';
import { cdfAxes } from './CdfChart.tsx';

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
    <ChartFrame
      testId={testId}
      data-lines={series.map((s) => `${s.name}:${s.points.length}`).join(',')}
      data-scale={scale}
      label="Cumulative distributions, one per run"
      width={width}
      height={height}
      empty={drawn.length === 0 && 'no per-request values'}
      scale={drawn.length > 0 && { value: scale, auto, onChange: setPicked }}
    >
      {chart}
    </ChartFrame>
  );
}
