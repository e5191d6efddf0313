/**
 * Binning for the ITL histogram: equal-width bins on a nice step (so bin edges read as round
 * milliseconds), every bin from the first to the last drawn (empty ones too: a gap in the
 * distribution is information). One extreme stall would squeeze everything else into one bar,
 * so values far beyond the p99 go into one overflow bin that says so. In shared/: the app's charts
 * and the core's report builder (shared/report/) bin alike.
 */
import { niceStep } from './nice-step.ts';

export interface Bin {
  /** Inclusive lower edge. */
  x0: number;
  /** Exclusive upper edge (Infinity for the overflow bin). */
  x1: number;
  count: number;
  /** True for the "≥ x0" bin collecting outliers. */
  overflow: boolean;
}

export interface BinOptions {
  /** About this many bins (default 30). */
  target?: number;
  /** Values above `overflowFactor × p99` go to the overflow bin (default 4). */
  overflowFactor?: number;
}

export function binValues(values: ArrayLike<number>, opts: BinOptions = {}): Bin[] {
  const n = values.length;
  if (n === 0) return [];
  const target = Math.max(1, opts.target ?? 30);
  const sorted = Float64Array.from(values as ArrayLike<number>).sort();
  const min = sorted[0]!;
  const max = sorted[n - 1]!;
  const p99 = sorted[Math.min(n - 1, Math.floor(0.99 * (n - 1)))]!;
  const factor = opts.overflowFactor ?? 4;
  const cap = p99 > 0 && max > factor * p99 ? factor * p99 : Infinity;
  // Regular bins span the values up to the cap; the overflow bin starts where they end.
  let hi = max;
  if (Number.isFinite(cap)) {
    let j = n - 1;
    while (j > 0 && sorted[j]! > cap) j--;
    hi = sorted[j]!;
  }
  const step = niceStep((hi - min) / target || Math.max(Math.abs(min) * 0.1, 1e-3));
  const start = Math.floor(min / step) * step;
  const count = Math.max(1, Math.floor((hi - start) / step) + 1);
  const bins: Bin[] = [];
  for (let i = 0; i < count; i++)
    bins.push({ x0: start + i * step, x1: start + (i + 1) * step, count: 0, overflow: false });
  const overflow: Bin | null = Number.isFinite(cap)
    ? { x0: bins[bins.length - 1]!.x1, x1: Infinity, count: 0, overflow: true }
    : null;
  for (let i = 0; i < n; i++) {
    const v = sorted[i]!;
    if (overflow && v >= overflow.x0) {
      overflow.count++;
      continue;
    }
    const k = Math.min(count - 1, Math.max(0, Math.floor((v - start) / step)));
    bins[k]!.count++;
  }
  if (overflow) bins.push(overflow);
  return bins;
}

/** A range wider than this many decades draws on a log x axis by default (see preferLogX). */
export const LOG_X_DECADES = 2;

/**
 * Bins of equal width in log10 (m per decade, edges 10^(k/m), so decades start a bin): a tail
 * seconds long beside gaps of milliseconds keeps the bulk spread over many bars instead of one.
 * Values ≤ 0 go into a first bin from 0 to the first edge. No overflow bin: the log axis holds
 * the tail.
 */
export function binValuesLog(values: ArrayLike<number>, opts: BinOptions = {}): Bin[] {
  const n = values.length;
  if (n === 0) return [];
  let minPos = Infinity;
  let max = -Infinity;
  let nonPos = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v > 0 && v < minPos) minPos = v;
    if (v > max) max = v;
    if (!(v > 0)) nonPos++;
  }
  if (!Number.isFinite(minPos)) return [{ x0: 0, x1: 0, count: n, overflow: false }];
  const lo = Math.log10(minPos);
  const hi = Math.log10(max);
  const decades = Math.max(1, Math.ceil(hi) - Math.floor(lo));
  const m = Math.max(3, Math.min(10, Math.round((opts.target ?? 30) / decades)));
  const first = Math.floor(lo * m + 1e-9);
  const last = Math.max(first, Math.floor(hi * m + 1e-9));
  const edge = (k: number): number => Number((10 ** (k / m)).toPrecision(12));
  const bins: Bin[] = [];
  if (nonPos > 0) bins.push({ x0: 0, x1: edge(first), count: nonPos, overflow: false });
  const off = bins.length;
  for (let k = first; k <= last; k++) bins.push({ x0: edge(k), x1: edge(k + 1), count: 0, overflow: false });
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (!(v > 0)) continue;
    const k = Math.min(last, Math.max(first, Math.floor(Math.log10(v) * m + 1e-9)));
    bins[off + k - first]!.count++;
  }
  return bins;
}

/** How many decades the bulk of `values` spans: from the 1st percentile of the positive ones to the max. @internal exported for its tests */
export function decadesSpanned(values: ArrayLike<number>): number {
  const pos = Float64Array.from(values as ArrayLike<number>)
    .filter((v) => v > 0)
    .sort();
  if (pos.length < 2) return 0;
  const lo = pos[Math.floor(0.01 * (pos.length - 1))]!;
  return Math.log10(pos[pos.length - 1]! / lo);
}

/** Whether a histogram or CDF of `values` should default to a log x axis (a range over LOG_X_DECADES). */
export function preferLogX(values: ArrayLike<number>): boolean {
  return decadesSpanned(values) > LOG_X_DECADES;
}

/** preferLogX from log bins (a report carries bins, not values): the 1st-percentile bin to the last non-empty one. */
export function binsPreferLogX(bins: readonly { x0: number; x1: number; count: number }[]): boolean {
  const total = bins.reduce((s, b) => s + b.count, 0);
  if (total < 2) return false;
  let acc = 0;
  let lo = NaN;
  let hi = NaN;
  for (const b of bins) {
    if (b.count === 0) continue;
    acc += b.count;
    if (Number.isNaN(lo) && acc >= 0.01 * total && b.x1 > 0) lo = b.x0 > 0 ? b.x0 : b.x1;
    hi = b.x1;
  }
  return lo > 0 && Math.log10(hi / lo) > LOG_X_DECADES + 0.2;
}
