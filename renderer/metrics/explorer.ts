/**
 * The metric explorer's logic: search over every series (name, labels, help text), how each
 * type is plotted (Prometheus' habits: a counter as rate/s, a gauge as its value, a histogram as
 * quantiles of what it observed per step, or a heatmap), and the plotted series. Pure.
 */
import { histogramQuantile } from '../../shared/metrics/prom-math.ts';
import { fmtCompact } from '../core/format.ts';
import type { SeriesBuffer, SeriesMeta } from './series-store.ts';
import {
  gaugeSeries,
  quantileSeries,
  rateSeries,
  splitQuantiles,
  type SeriesPoint,
  type StepOptions,
} from './series.ts';

export interface ExplorerRow {
  key: string;
  family: string;
  type: string;
  labels: string;
  value: number;
  help: string;
}

/**
 * Series whose key (name + labels) or help text contains every word of `query`
 * (case-insensitive), in first-seen order; at most `limit` rows, plus how many matched.
 */
export function searchSeries(
  buffers: readonly SeriesBuffer[],
  help: Readonly<Record<string, string>>,
  query: string,
  limit = 200,
): { rows: ExplorerRow[]; total: number } {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const rows: ExplorerRow[] = [];
  let total = 0;
  for (const b of buffers) {
    const h = help[b.meta.family] ?? '';
    const hay = `${b.meta.key} ${b.meta.type} ${h}`.toLowerCase();
    if (!words.every((w) => hay.includes(w))) continue;
    total++;
    if (rows.length < limit)
      rows.push({
        key: b.meta.key,
        family: b.meta.family,
        type: b.meta.type,
        labels: b.meta.labels,
        value: b.latest,
        help: h,
      });
  }
  return { rows, total };
}

/** @internal exported for its tests */
export type PlotKind = 'rate' | 'value' | 'histogram' | 'gaugehistogram';

/** How a series is plotted, by its family's type and its sample's name. @internal exported for its tests */
export function plotKind(meta: SeriesMeta, isHistogram: boolean): PlotKind {
  if (isHistogram) return meta.type === 'gaugehistogram' ? 'gaugehistogram' : 'histogram';
  const name = meta.key.slice(0, meta.key.length - meta.labels.length);
  // `_created` holds a timestamp, not a count.
  if (name.endsWith('_created')) return 'value';
  if (meta.type === 'counter') return 'rate';
  // A summary's (or histogram's) _sum and _count are counters; its quantiles are gauges.
  if ((meta.type === 'summary' || meta.type === 'histogram') && /_(sum|count)$/.test(name)) return 'rate';
  return 'value';
}

/** Seconds-based families are shown in ms; everything else in its own unit. */
export function unitOf(family: string): { scale: number; unit: string } {
  return /_seconds?$/.test(family) || /_seconds_/.test(family)
    ? { scale: 1000, unit: 'ms' }
    : { scale: 1, unit: '' };
}

interface ExplorerLine {
  name: string;
  data: SeriesPoint[];
}

export interface ExplorerPlot {
  kind: PlotKind;
  lines: ExplorerLine[];
  /** Y-axis label. */
  yLabel: string;
  unit: string;
}

const EXPLORER_QUANTILES = [0.5, 0.9, 0.99] as const;

export function explorerPlot(b: SeriesBuffer, opts: StepOptions): ExplorerPlot {
  const kind = plotKind(b.meta, b.isHistogram);
  if (kind === 'rate') {
    return {
      kind,
      lines: [{ name: 'rate', data: rateSeries(b.points(), opts) }],
      yLabel: 'per second',
      unit: '/s',
    };
  }
  if (kind === 'value') {
    return {
      kind,
      lines: [{ name: 'value', data: gaugeSeries(b.points(), opts) }],
      yLabel: 'value',
      unit: '',
    };
  }
  const { scale, unit } = unitOf(b.meta.family);
  const names = EXPLORER_QUANTILES.map((q) => `p${q * 100}`);
  if (kind === 'gaugehistogram') {
    // The buckets are a current state, not counts since start: quantiles of each sample as is.
    const hs = b.histograms();
    const lines = EXPLORER_QUANTILES.map((q, i) => ({
      name: names[i]!,
      data: gaugeSeries(
        hs.map((p) => {
          const v = p.h ? histogramQuantile(q, p.h.buckets) * scale : NaN;
          return { t: p.t, v: Number.isFinite(v) ? v : null };
        }),
        opts,
      ),
    }));
    return { kind, lines, yLabel: unit || 'value', unit };
  }
  const split = splitQuantiles(quantileSeries(b.histograms(), EXPLORER_QUANTILES, { ...opts, scale }), names);
  return { kind, lines: names.map((n) => ({ name: n, data: split[n]! })), yLabel: unit || 'value', unit };
}

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * A series' latest value for the list: timestamps (`_created`, `process_start_time_seconds`,
 * `…_timestamp_seconds`) as local date and time, everything else compact.
 */
export function fmtSeriesValue(key: string, labels: string, value: number): string {
  const name = key.slice(0, key.length - labels.length);
  if (/(_created|_start_time_seconds|_timestamp_seconds)$/.test(name) && value > 1e9 && value < 1e11) {
    const d = new Date(value * 1000);
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }
  return fmtCompact(value);
}
