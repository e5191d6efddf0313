/** One explorer series plotted: its type and help, then the chart its type calls for. */
import { useState } from 'react';
import { C } from '../core/charts/theme.ts';
import { explorerPlot, unitOf } from './explorer.ts';
import { fmtWithUnit } from '../core/format.ts';
import type { SeriesBuffer } from './series-store.ts';
import { lastValue, resolutionFor } from './series.ts';
import { Heatmap } from './Heatmap.tsx';
import { TimeChart } from './TimeChart.tsx';

interface Props {
  buffer: SeriesBuffer;
  help: string;
  domain: [number, number];
  width?: number;
}

const COLORS = [C.content, C.usage, C.coalesced];

const KIND_TEXT = {
  rate: 'counter — plotted as its rate per second over each scrape interval (resets handled)',
  value: 'plotted as its value at each scrape',
  histogram:
    'histogram — quantiles of what it observed in each interval (bucket deltas, Prometheus interpolation)',
  gaugehistogram: 'gauge histogram — quantiles of its current buckets at each scrape',
} as const;

export function ExplorerChart({ buffer, help, domain, width }: Props) {
  const [mode, setMode] = useState<'quantiles' | 'heatmap'>('quantiles');
  const resolutionMs = resolutionFor(domain[1] - domain[0]);
  // Recomputed on every render: the buffer changes in place with each scrape, and the domain
  // slides with the clock.
  const plot = explorerPlot(buffer, { startMs: domain[0], endMs: domain[1], resolutionMs });
  const { unit } = unitOf(buffer.meta.family);
  const histogram = plot.kind === 'histogram';
  const empty = plot.lines.every((l) => l.data.every((p) => p.v === null));
  return (
    <div className="explorer-chart">
      <div className="explorer-meta">
        <div className="mono explorer-key">{buffer.meta.key}</div>
        <div className="muted">
          <span className={`badge tiny type-${buffer.meta.type}`}>{buffer.meta.type}</span>{' '}
          {KIND_TEXT[plot.kind]}
        </div>
        {help && <div className="explorer-help">{help}</div>}
      </div>
      {histogram && (
        <div className="seg explorer-mode" role="group" aria-label="Histogram view">
          <button
            type="button"
            className={mode === 'quantiles' ? 'on' : ''}
            aria-pressed={mode === 'quantiles'}
            onClick={() => setMode('quantiles')}
          >
            p50 / p90 / p99
          </button>
          <button
            type="button"
            className={mode === 'heatmap' ? 'on' : ''}
            aria-pressed={mode === 'heatmap'}
            onClick={() => setMode('heatmap')}
          >
            heatmap
          </button>
        </div>
      )}
      <div data-testid="explorer-chart" data-kind={histogram ? mode : plot.kind}>
        {histogram && mode === 'heatmap' ? (
          <Heatmap
            points={buffer.histograms()}
            domain={domain}
            resolutionMs={resolutionMs}
            seconds={unit === 'ms'}
            width={width}
          />
        ) : (
          <>
            <ul className="legend mchart-legend">
              {plot.lines.map((l, i) => (
                <li key={l.name}>
                  <i className="sw mline" style={{ borderColor: COLORS[i % COLORS.length] }} />
                  {plot.kind === 'rate' ? 'rate' : l.name}
                  <b className="mchart-value">{fmtWithUnit(lastValue(l.data), plot.unit)}</b>
                </li>
              ))}
            </ul>
            <TimeChart
              lines={plot.lines.map((l, i) => ({
                id: l.name,
                name: l.name,
                color: COLORS[i % COLORS.length]!,
                data: l.data,
              }))}
              domain={domain}
              yLabel={plot.kind === 'rate' ? 'per second' : plot.yLabel}
              format={(v) => fmtWithUnit(v, plot.unit)}
              overlay={
                empty
                  ? histogram
                    ? 'No observations in this window'
                    : plot.kind === 'rate'
                      ? 'Rates need two scrapes…'
                      : 'No samples in this window'
                  : null
              }
              ariaLabel={`${buffer.meta.key} over time`}
              width={width}
              height={220}
            />
          </>
        )}
      </div>
    </div>
  );
}
