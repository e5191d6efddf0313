/**
 * One time-series chart of the metrics panel: recharts lines (animation off) on the panel's
 * shared wall-clock axis, a unit on the y axis, an overlay message instead of a blank plot.
 * Each line has its own data (steps of the server, a client step series, client dots), so they
 * need not share timestamps. Nulls break a line ("no observations", gaps); a point with no
 * neighbour gets a dot, or a line could not show it.
 */
import { Area, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { C } from '../core/charts/theme.ts';
import { ChartFrame } from '../core/charts/ChartFrame.tsx';
import { fmtTick } from '../core/format.ts';
import { isIsolated, valueAt, type BandPoint, type SeriesPoint } from './series.ts';
import { clockLabel, timeTicks } from './time-axis.ts';
import { peakOf, yAxis } from '../core/charts/y-axis.ts';

export interface ChartLine {
  id: string;
  name: string;
  color: string;
  data: readonly SeriesPoint[];
  dashed?: boolean;
  /**
   * A wide, translucent stroke drawn beneath the thin lines: where another line has the same
   * values (llama.cpp at its slot limit: as many waiting as running), both stay visible.
   */
  wide?: boolean;
  /** Holds each value until the next point (counts of things in flight). */
  step?: boolean;
  /** Dots only, no line (one point per event: a client request's TTFT). */
  dotsOnly?: boolean;
  /**
   * A band behind the line where its value is only known to a range (a server quantile inside a
   * wide histogram bucket): the bucket, drawn in the line's colour.
   */
  band?: readonly BandPoint[];
}

interface Props {
  lines: ChartLine[];
  /** [start, end] of the shared time axis, epoch ms. */
  domain: [number, number];
  /** The y axis' unit, printed along it: "ms", "tok/s", "%", "requests". */
  yLabel: string;
  /** Values in the tooltip, with their unit. */
  format: (v: number) => string;
  yMax?: number;
  /**
   * The y axis reaches at least this (two servers side by side share one scale per chart, so the
   * same height means the same value in both columns).
   */
  peakAtLeast?: number;
  /** Whole-number ticks (counts of requests). */
  integer?: boolean;
  /** Centred over the plot when there is nothing to draw (the axes stay). */
  overlay?: string | null;
  testId?: string;
  ariaLabel: string;
  /** Fixed size (tests); otherwise the chart fills its container's width. */
  width?: number;
  height?: number;
}

const MARGIN = { top: 6, right: 12, bottom: 4, left: 4 };
/** The stroke of a `wide` line (px): a 1.6-px line on top of it stays visible in its middle. @internal exported for its tests */
export const WIDE_STROKE = 6;

/**
 * The tooltip lists every line at the hovered time (recharts' own lists only the series whose
 * point it snapped to, as the lines do not share timestamps): a step series' current value, the
 * nearest point of the others, "no observations" for a gap.
 */
function ChartTip({
  active,
  label,
  lines,
  format,
  tolerance,
}: {
  active?: boolean;
  label?: unknown;
  lines: ChartLine[];
  format: (v: number) => string;
  tolerance: number;
}) {
  if (!active || typeof label !== 'number') return null;
  const rows = lines
    .map((l) => ({ l, v: valueAt(l.data, label, tolerance, l.step) }))
    .filter((r) => r.v !== undefined);
  if (rows.length === 0) return null;
  return (
    <div className="mchart-tip">
      <div className="mchart-tip-time">{clockLabel(label)}</div>
      {rows.map(({ l, v }) => (
        <div key={l.id} className="mchart-tip-row">
          <i className={`sw ${l.dotsOnly ? 'circle' : 'mline'}`} style={{ borderColor: l.color }} />
          <span>{l.name}</span>
          <b>{v === null || v === undefined ? 'no observations' : format(v)}</b>
        </div>
      ))}
    </div>
  );
}

interface DotProps {
  cx?: number;
  cy?: number;
  index?: number;
}

/** The line's bucket band behind it, where some step is only known to a wide bucket (else none). */
function bandArea(l: ChartLine) {
  if (!l.band?.some((b) => b.range !== null)) return null;
  return (
    <Area
      key={`${l.id}-band`}
      data={l.band as BandPoint[]}
      dataKey="range"
      name={`${l.name} bucket`}
      stroke="none"
      fill={l.color}
      fillOpacity={0.16}
      type="stepAfter"
      isAnimationActive={false}
      connectNulls={false}
      activeDot={false}
      legendType="none"
      tooltipType="none"
    />
  );
}

/**
 * A line's dots: every point of a dots-only line, else only isolated points (a line could not show
 * them); an isolated step whose value is only known to a wide bucket gets the bucket as a bar.
 */
function lineDot(l: ChartLine, pixelY: (v: number) => number, yTop: number) {
  return (p: DotProps) => {
    const show = l.dotsOnly || (p.index !== undefined && isIsolated(l.data as SeriesPoint[], 'v', p.index));
    const key = `${l.id}-${p.index ?? 0}`;
    if (!show || p.cx === undefined || p.cy === undefined || !Number.isFinite(p.cy)) return <g key={key} />;
    // An isolated step has no area to fill: its bucket is drawn as a bar through the dot.
    const range = !l.dotsOnly && p.index !== undefined ? (l.band?.[p.index]?.range ?? null) : null;
    if (range) {
      const top = pixelY(Math.min(range[1], yTop));
      const bottom = pixelY(range[0]);
      return (
        <g key={key}>
          <rect
            x={p.cx - 4}
            y={top}
            width={8}
            height={Math.max(1, bottom - top)}
            fill={l.color}
            fillOpacity={0.22}
          />
          <circle cx={p.cx} cy={p.cy} r={2.4} fill={l.color} />
        </g>
      );
    }
    return l.dotsOnly ? (
      <circle key={key} cx={p.cx} cy={p.cy} r={3.2} fill="none" stroke={l.color} strokeWidth={1.5} />
    ) : (
      <circle key={key} cx={p.cx} cy={p.cy} r={2.4} fill={l.color} />
    );
  };
}

/** What is drawn, per line ("running:3,waiting:0"): drawn points, the peak and the bands, for tests and tools. */
function drawnSummary(lines: ChartLine[]): { points: string; peaks: string; bands: string } {
  return {
    points: lines
      .map((l) => `${l.id}:${l.data.filter((p) => p.v !== null && Number.isFinite(p.v)).length}`)
      .join(','),
    peaks: lines.map((l) => `${l.id}:${peakOf([l])}`).join(','),
    bands: lines.map((l) => `${l.id}:${(l.band ?? []).filter((b) => b.range !== null).length}`).join(','),
  };
}

export function TimeChart({
  lines,
  domain,
  yLabel,
  format,
  yMax,
  peakAtLeast = 0,
  integer,
  overlay,
  testId,
  ariaLabel,
  width,
  height = 170,
}: Props) {
  const ticks = timeTicks(domain[0], domain[1], width && width < 420 ? 4 : 6);
  // A little headroom: a line or dot at the peak is not drawn on (and half cut by) the top edge.
  let bandTop = 0;
  for (const l of lines)
    for (const b of l.band ?? []) if (b.range && b.range[1] > bandTop) bandTop = b.range[1];
  const y = yAxis(Math.max(peakOf(lines), bandTop, peakAtLeast) * 1.04, { integer, max: yMax });
  // The plot's pixel row of a value (the y axis runs 0 … y.top over the plot's height).
  const plotHeight = height - MARGIN.top - MARGIN.bottom - 20;
  const pixelY = (v: number): number => MARGIN.top + plotHeight * (1 - v / y.top);
  // How far from the hovered time a point may be and still be "there" (steps are ≥ 1 s).
  const tolerance = Math.max(1500, (domain[1] - domain[0]) / 200);
  const chart = (
    <ComposedChart width={width} height={height} margin={MARGIN} accessibilityLayer={false}>
      <CartesianGrid stroke={C.grid} vertical={false} />
      <XAxis
        type="number"
        dataKey="t"
        domain={domain}
        allowDataOverflow
        ticks={ticks}
        tickFormatter={clockLabel}
        stroke={C.axis}
        tick={{ fill: C.tick, fontSize: 11 }}
        height={20}
      />
      <YAxis
        type="number"
        domain={[0, y.top]}
        ticks={y.ticks}
        allowDataOverflow
        tickFormatter={(v: number) => fmtTick(v, y.top)}
        stroke={C.axis}
        tick={{ fill: C.tick, fontSize: 11 }}
        width={52}
        label={{ value: yLabel, angle: -90, position: 'insideLeft', offset: 12, fill: C.muted, fontSize: 11 }}
      />
      <Tooltip
        isAnimationActive={false}
        cursor={{ stroke: C.axis }}
        content={(p) => (
          <ChartTip active={p.active} label={p.label} lines={lines} format={format} tolerance={tolerance} />
        )}
      />
      {lines.map((l) => bandArea(l))}
      {[...lines.filter((l) => l.wide), ...lines.filter((l) => !l.wide)].map((l) => (
        <Line
          key={l.id}
          data={l.data as SeriesPoint[]}
          dataKey="v"
          name={l.name}
          stroke={l.dotsOnly ? 'none' : l.color}
          strokeWidth={l.wide ? WIDE_STROKE : 1.6}
          strokeOpacity={l.wide ? 0.45 : undefined}
          className={l.wide ? 'mchart-wide' : undefined}
          strokeDasharray={l.dashed ? '4 3' : undefined}
          type={l.step ? 'stepAfter' : 'linear'}
          isAnimationActive={false}
          connectNulls={false}
          activeDot={l.dotsOnly ? { r: 4, fill: l.color } : { r: 3 }}
          dot={lineDot(l, pixelY, y.top)}
        />
      ))}
    </ComposedChart>
  );
  const drawn = drawnSummary(lines);
  return (
    <ChartFrame
      testId={testId}
      data-points={drawn.points}
      data-peaks={drawn.peaks}
      data-bands={drawn.bands}
      data-overlay={overlay ? 'shown' : undefined}
      label={ariaLabel}
      width={width}
      height={height}
      empty={overlay}
    >
      {chart}
    </ChartFrame>
  );
}
