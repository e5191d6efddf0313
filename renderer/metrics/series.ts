/**
 * Chart series from a target's scrapes, Prometheus-style: a gauge is its latest sample at each
 * step, a counter becomes a per-second rate over each step (reset-aware, prom-math counterRate),
 * a histogram becomes quantiles of what was observed during each step (bucket-wise deltas of the
 * cumulative histograms, prom-math histogramDelta + histogramQuantile). An interval with no
 * observations yields null ("no observations"), never 0; so does a gap in the scrapes (the
 * scraper was failing or the panel was closed), so lines break instead of bridging it.
 */
import { wideBucket } from '../../shared/runs/summary/server-quantile.ts';
import {
  counterIncrease,
  counterRate,
  histogramDelta,
  histogramQuantile,
  quantileBucket,
  mergeHistograms,
  type HistogramData,
  type Point,
} from '../../shared/metrics/prom-math.ts';

export interface MaybePoint {
  t: number;
  v: number | null;
}

export interface HistPoint {
  t: number;
  h: HistogramData | null;
}

export interface SeriesPoint {
  /** End of the step (ms). */
  t: number;
  v: number | null;
}

export interface QuantilePoint {
  t: number;
  /** One per requested quantile; null when nothing was observed in the step. */
  q: (number | null)[];
  /**
   * Per quantile: the histogram bucket it was interpolated in (scaled like q) when that bucket is
   * wide next to it (shared/runs/summary/server-quantile.ts wideBucket): the chart draws it as a band.
   */
  wide?: ([number, number] | null)[];
  /** Observations in the step (0: none; null: unknown, e.g. a gap or a missing histogram). */
  count: number | null;
}

export interface StepOptions {
  /** Only steps ending in [startMs, endMs]. */
  startMs: number;
  endMs: number;
  /**
   * Width of one step (ms): the last scrape of each clock-aligned slot of this width ends a
   * step; 0 makes every scrape a step. Slots are aligned to the clock, not to the newest point,
   * so steps do not shift as scrapes arrive.
   */
  resolutionMs?: number;
  /**
   * A scrape interval longer than this (ms) is a gap: nothing is drawn across it. Default
   * gapFor(times): 5 s at a 1 s cadence, longer for a slower one (Prometheus scraping every 15 s).
   */
  gapMs?: number;
}

const DEFAULT_GAP_MS = 5000;

/**
 * The gap threshold for these scrape times: 2.5 × the usual interval (median of the last 16),
 * at least DEFAULT_GAP_MS. A target read through Prometheus arrives at Prometheus' scrape
 * interval (15 s is common), where a fixed 5 s would call every interval a gap and draw nothing.
 */
export function gapFor(times: readonly number[]): number {
  const gaps: number[] = [];
  for (let i = Math.max(1, times.length - 16); i < times.length; i++) gaps.push(times[i]! - times[i - 1]!);
  if (gaps.length === 0) return DEFAULT_GAP_MS;
  gaps.sort((a, b) => a - b);
  return Math.max(DEFAULT_GAP_MS, 2.5 * gaps[gaps.length >> 1]!);
}

/** Resolution that keeps a window's chart under ~300 points at a 1 s scrape interval. */
export function resolutionFor(windowMs: number): number {
  return windowMs > 300_000 ? Math.ceil(windowMs / 300_000) * 1000 : 0;
}

/**
 * Indices of the points that end a step, oldest first, plus the anchor just before the window
 * (the start of its first step) when there is one. `times` ascending.
 */
export function stepAnchors(times: readonly number[], opts: StepOptions): number[] {
  const res = opts.resolutionMs ?? 0;
  const out: number[] = [];
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (t > opts.endMs) break;
    const next = times[i + 1];
    // With slots, a point ends a step only if the next point lies in a later slot (the first
    // point always starts one).
    if (
      res > 0 &&
      i > 0 &&
      next !== undefined &&
      next <= opts.endMs &&
      Math.floor(next / res) === Math.floor(t / res)
    )
      continue;
    if (t < opts.startMs) {
      // Keep only the newest anchor before the window: the baseline of the first step.
      if (out.length) out.pop();
    }
    out.push(i);
  }
  return out;
}

function hasGap(times: readonly number[], from: number, to: number, gapMs: number): boolean {
  for (let i = from + 1; i <= to; i++) if (times[i]! - times[i - 1]! > gapMs) return true;
  return false;
}

/** A gauge: the latest sample of each step; a gap inserts a null point so the line breaks. */
export function gaugeSeries(points: readonly MaybePoint[], opts: StepOptions): SeriesPoint[] {
  const times = points.map((p) => p.t);
  const gap = opts.gapMs ?? gapFor(times);
  const idx = stepAnchors(times, opts);
  const out: SeriesPoint[] = [];
  for (let k = 0; k < idx.length; k++) {
    const b = idx[k]!;
    const p = points[b]!;
    if (p.t < opts.startMs) continue;
    const a = idx[k - 1];
    if (a !== undefined && hasGap(times, a, b, gap)) out.push({ t: (points[a]!.t + p.t) / 2, v: null });
    out.push({ t: p.t, v: p.v });
  }
  return out;
}

/** A counter as a per-second rate over each step, across resets (counterRate over its scrapes). */
export function rateSeries(points: readonly MaybePoint[], opts: StepOptions): SeriesPoint[] {
  const times = points.map((p) => p.t);
  const gap = opts.gapMs ?? gapFor(times);
  const idx = stepAnchors(times, opts);
  const out: SeriesPoint[] = [];
  for (let k = 1; k < idx.length; k++) {
    const a = idx[k - 1]!;
    const b = idx[k]!;
    const span = points.slice(a, b + 1);
    if (hasGap(times, a, b, gap) || span.some((p) => p.v === null)) {
      out.push({ t: points[b]!.t, v: null });
      continue;
    }
    const r = counterRate(span as Point[]);
    out.push({ t: points[b]!.t, v: Number.isFinite(r) ? r : null });
  }
  return out;
}

/**
 * The ratio of two counters' increases over each step (×`scale`), e.g. prefix-cache hits over
 * queries: null when the denominator did not move (nothing to divide), over a gap, or when a
 * value is missing.
 */
export function ratioSeries(
  num: readonly MaybePoint[],
  den: readonly MaybePoint[],
  opts: StepOptions & { scale?: number },
): SeriesPoint[] {
  const times = den.map((p) => p.t);
  const gap = opts.gapMs ?? gapFor(times);
  const idx = stepAnchors(times, opts);
  const out: SeriesPoint[] = [];
  for (let k = 1; k < idx.length; k++) {
    const a = idx[k - 1]!;
    const b = idx[k]!;
    const n = num.slice(a, b + 1);
    const d = den.slice(a, b + 1);
    const t = den[b]!.t;
    if (hasGap(times, a, b, gap) || n.length !== d.length || [...n, ...d].some((p) => p.v === null)) {
      out.push({ t, v: null });
      continue;
    }
    const dn = counterIncrease(n as Point[]);
    const dd = counterIncrease(d as Point[]);
    out.push({ t, v: dd > 0 ? (dn / dd) * (opts.scale ?? 1) : null });
  }
  return out;
}

/**
 * What a histogram observed between scrapes `from` and `to` (indices): the consecutive deltas
 * summed bucket-wise, so a counter reset inside the range loses nothing (each step is
 * reset-aware on its own). Null when a histogram is missing in the range.
 */
export function rangeDelta(points: readonly HistPoint[], from: number, to: number): HistogramData | null {
  if (to <= from) return null;
  const deltas: HistogramData[] = [];
  for (let i = from + 1; i <= to; i++) {
    const a = points[i - 1]?.h;
    const b = points[i]?.h;
    if (!a || !b) return null;
    deltas.push(cachedDelta(a, b));
  }
  return deltas.length === 1 ? deltas[0]! : mergeHistograms(deltas);
}

// Scraped histograms never change once received, so the delta between two of them is computed
// once, not on every redraw of every window (keyed by the later histogram object).
const deltaCache = new WeakMap<HistogramData, { prev: HistogramData; delta: HistogramData }>();

function cachedDelta(a: HistogramData, b: HistogramData): HistogramData {
  const hit = deltaCache.get(b);
  if (hit && hit.prev === a) return hit.delta;
  const delta = histogramDelta(a, b);
  deltaCache.set(b, { prev: a, delta });
  return delta;
}

/** Quantiles of what was observed in each step; `scale` converts units (s → ms: 1000). */
export function quantileSeries(
  points: readonly HistPoint[],
  qs: readonly number[],
  opts: StepOptions & { scale?: number },
): QuantilePoint[] {
  const times = points.map((p) => p.t);
  const gap = opts.gapMs ?? gapFor(times);
  const scale = opts.scale ?? 1;
  const idx = stepAnchors(times, opts);
  const out: QuantilePoint[] = [];
  const none = qs.map(() => null);
  for (let k = 1; k < idx.length; k++) {
    const a = idx[k - 1]!;
    const b = idx[k]!;
    const t = points[b]!.t;
    const d = hasGap(times, a, b, gap) ? null : rangeDelta(points, a, b);
    if (d === null) {
      out.push({ t, q: none, count: null });
      continue;
    }
    const vals = qs.map((q) => {
      const v = histogramQuantile(q, d.buckets);
      return Number.isFinite(v) ? v * scale : null;
    });
    out.push({
      t,
      count: d.count,
      q: vals,
      wide: qs.map((q, i) => {
        const b = quantileBucket(q, d.buckets);
        const v = vals[i];
        if (!b || v === null || v === undefined) return null;
        // An open top bucket (+Inf) draws up to its lower bound's double: a band, not an infinite one.
        const w = wideBucket([b.lower * scale, Number.isFinite(b.upper) ? b.upper * scale : null], v);
        return w ? [w[0], w[1] ?? 2 * w[0]] : null;
      }),
    });
  }
  return out;
}

export interface BandPoint {
  t: number;
  /** [lower, upper] of the wide bucket, or null where the value is precise (or absent). */
  range: [number, number] | null;
}

/** Per quantile, its wide-bucket band over time (see QuantilePoint.wide). */
export function splitBands(
  points: readonly QuantilePoint[],
  names: readonly string[],
): Record<string, BandPoint[]> {
  const out: Record<string, BandPoint[]> = {};
  names.forEach((name, i) => (out[name] = points.map((p) => ({ t: p.t, range: p.wide?.[i] ?? null }))));
  return out;
}

/** A quantile series split into one SeriesPoint list per quantile. */
export function splitQuantiles(
  points: readonly QuantilePoint[],
  names: readonly string[],
): Record<string, SeriesPoint[]> {
  const out: Record<string, SeriesPoint[]> = {};
  names.forEach((name, i) => (out[name] = points.map((p) => ({ t: p.t, v: p.q[i] ?? null }))));
  return out;
}

/** A point whose neighbours are both missing: a line cannot show it, so it gets a dot. */
export function isIsolated<K extends string>(
  rows: readonly Readonly<Record<K, number | null | undefined>>[],
  key: K,
  i: number,
): boolean {
  const v = rows[i]?.[key];
  if (v === null || v === undefined) return false;
  const prev = rows[i - 1]?.[key];
  const next = rows[i + 1]?.[key];
  return (prev === null || prev === undefined) && (next === null || next === undefined);
}

/** Last non-null value of a series. */
export function lastValue(points: readonly SeriesPoint[]): number | null {
  for (let i = points.length - 1; i >= 0; i--) {
    const v = points[i]!.v;
    if (v !== null) return v;
  }
  return null;
}

/**
 * The value a series shows at time `t` (for a tooltip): for a step series the last point at or
 * before `t`; otherwise the nearest point within `tolerance` ms. Undefined when there is none,
 * null when the point there is a gap.
 */
export function valueAt(
  data: readonly SeriesPoint[],
  t: number,
  tolerance: number,
  step = false,
): number | null | undefined {
  let best: SeriesPoint | undefined;
  for (const p of data) {
    if (step) {
      if (p.t <= t) best = p;
      else break;
    } else if (Math.abs(p.t - t) <= tolerance && (!best || Math.abs(p.t - t) < Math.abs(best.t - t)))
      best = p;
  }
  return best?.v;
}
