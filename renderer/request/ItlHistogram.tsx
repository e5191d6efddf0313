/**
 * Distribution of inter-token latency, per chunk or per token (definitions in
 * shared/stats/request-stats.ts). An aggregate, so recharts with animation off; bins from the
 * tested helper (charts/histogram-bins.ts), outliers in one labelled overflow bin.
 */
import { useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { summarize } from '../../shared/stats/summary.ts';
import { binValues, binValuesLog, preferLogX, type Bin } from '../../shared/charts/histogram-bins.ts';
import { fmtEdge, logBinTicks } from '../core/charts/log-bins.ts';
import { ScaleToggle, type XScale } from '../core/charts/ScaleToggle.tsx';
import { C, TICK, TIP_LABEL_STYLE, TIP_STYLE } from '../core/charts/theme.ts';
import { binAxisTicks, decimalsOf } from '../core/charts/ticks.ts';

type Mode = 'chunk' | 'token';

interface Props {
  itlChunkMs: number[];
  itlTokenMs: number[];
  /** Fixed size (tests); otherwise the chart fills its container's width. */
  width?: number;
  height?: number;
}

interface Datum {
  label: string;
  range: string;
  count: number;
  /** A string, not a boolean: recharts passes datum fields on to the SVG elements. */
  kind: 'bin' | 'overflow';
}

/** @internal exported for its tests */
export function binData(bins: Bin[], log = false): Datum[] {
  if (log)
    return bins.map((b) => ({
      label: fmtEdge(b.x0),
      range: `${fmtEdge(b.x0)} – ${fmtEdge(b.x1)} ms`,
      count: b.count,
      kind: 'bin',
    }));
  const step = bins.find((b) => !b.overflow);
  const d = step ? decimalsOf(step.x1 - step.x0) : 0;
  return bins.map((b) => ({
    label: b.overflow ? `≥${b.x0.toFixed(d)}` : b.x0.toFixed(d),
    range: b.overflow ? `≥ ${b.x0.toFixed(d)} ms` : `${b.x0.toFixed(d)} – ${b.x1.toFixed(d)} ms`,
    count: b.count,
    kind: b.overflow ? 'overflow' : 'bin',
  }));
}

export function ItlHistogram({ itlChunkMs, itlTokenMs, width, height = 220 }: Props) {
  const [mode, setMode] = useState<Mode>('chunk');
  const values = mode === 'chunk' ? itlChunkMs : itlTokenMs;
  // Log x by default when the gaps span decades (a long stall beside millisecond gaps).
  const auto: XScale = useMemo(() => (preferLogX(values) ? 'log' : 'linear'), [values]);
  const [picked, setPicked] = useState<XScale | null>(null);
  const scale = picked ?? auto;
  const log = scale === 'log';
  const bins = useMemo(
    () => (log ? binValuesLog(values, { target: 30 }) : binValues(values, { target: 30 })),
    [values, log],
  );
  const data = useMemo(() => binData(bins, log), [bins, log]);
  const ticks = useMemo(
    () => (log ? logBinTicks(bins) : binAxisTicks(bins)).map((i) => data[i]!.label),
    [bins, data, log],
  );
  const s = useMemo(() => summarize(values), [values]);
  const chart = (
    <BarChart
      data={data}
      width={width}
      height={height}
      margin={{ top: 8, right: 12, bottom: 26, left: 6 }}
      barCategoryGap={1}
    >
      <CartesianGrid stroke={C.grid} vertical={false} />
      <XAxis
        dataKey="label"
        stroke={C.tick}
        tick={TICK}
        ticks={ticks}
        interval={0}
        label={{
          value: `${mode === 'chunk' ? 'ITL per chunk' : 'ITL per token'} (ms${log ? ', log scale' : ''})`,
          position: 'insideBottom',
          offset: -14,
          fill: C.muted,
          fontSize: 11,
        }}
      />
      <YAxis
        allowDecimals={false}
        stroke={C.tick}
        tick={TICK}
        width={44}
        label={{
          value: mode === 'chunk' ? 'chunks' : 'tokens',
          angle: -90,
          position: 'insideLeft',
          offset: 10,
          fill: C.muted,
          fontSize: 11,
        }}
      />
      <Tooltip
        isAnimationActive={false}
        cursor={{ fill: 'rgba(255,255,255,0.05)' }}
        contentStyle={TIP_STYLE}
        labelStyle={TIP_LABEL_STYLE}
        formatter={(v) => [String(v), mode === 'chunk' ? 'chunks' : 'tokens']}
        labelFormatter={(_l, payload) => (payload?.[0]?.payload as Datum | undefined)?.range ?? ''}
      />
      <Bar dataKey="count" fill={C.content} isAnimationActive={false} />
    </BarChart>
  );
  return (
    <section
      className="card histogram"
      aria-label="Inter-token latency histogram"
      data-testid="itl-histogram"
      data-scale={scale}
    >
      <header className="card-head">
        <h3 title="Inter-token latency: gaps between consecutive content events (per chunk), or each gap divided by the tokens of the later event (per token). shared/stats/request-stats.ts">
          ITL distribution
        </h3>
        <div className="seg" role="group" aria-label="ITL definition">
          <button
            type="button"
            className={mode === 'chunk' ? 'on' : ''}
            aria-pressed={mode === 'chunk'}
            onClick={() => setMode('chunk')}
            title="Gaps between consecutive content events (vLLM)"
          >
            per chunk
          </button>
          <button
            type="button"
            className={mode === 'token' ? 'on' : ''}
            aria-pressed={mode === 'token'}
            onClick={() => setMode('token')}
            title="Each gap divided by the tokens of the later event"
          >
            per token
          </button>
        </div>
      </header>
      {values.length === 0 ? (
        <p className="empty">No inter-token gaps yet: it takes two content events.</p>
      ) : (
        <>
          <ScaleToggle value={scale} auto={auto} onChange={setPicked} testId="itl-histogram-scale" />
          {width ? (
            chart
          ) : (
            <ResponsiveContainer width="100%" height={height}>
              {chart}
            </ResponsiveContainer>
          )}
          <p className="caption">
            n = {s?.count} · p50 {s?.median.toFixed(2)} ms · p99 {s?.p99.toFixed(2)} ms · max{' '}
            {s?.max.toFixed(2)} ms
            {data.some((d) => d.kind === 'overflow') ? ' · last bar: outliers beyond 4 × p99' : ''}
          </p>
        </>
      )}
    </section>
  );
}
