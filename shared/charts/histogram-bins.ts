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
