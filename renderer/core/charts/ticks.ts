/**
 * "Nice" axis ticks (1, 2, 5 × 10^k steps), as d3 and uPlot pick them, and labels with just
 * enough decimals to tell neighbouring ticks apart.
 */

import { niceStep } from '../../../shared/charts/nice-step.ts';

export { niceStep };

export interface Ticks {
  step: number;
  values: number[];
  /** Decimals needed to print `step` exactly (0 for integer steps). */
  decimals: number;
}

/** Ticks inside [min, max], about `target` of them (never more than 2 × target + 1). */
export function niceTicks(min: number, max: number, target = 6): Ticks {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max <= min)
    return { step: 1, values: Number.isFinite(min) ? [min] : [], decimals: 0 };
  const step = niceStep((max - min) / Math.max(1, target));
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  // A range that is only float noise (19.999999999999996 … 20.000000000000004) has a step so
  // small that i reaches ~1e16, where i++ no longer changes i: one tick, never an endless loop.
  if (
    !Number.isSafeInteger(first) ||
    !Number.isSafeInteger(last) ||
    !(last - first <= 4 * Math.max(1, target) + 2)
  )
    return { step, values: [roundTo(min, 6)], decimals: Math.min(6, decimalsOf(step)) };
  const values: number[] = [];
  for (let i = first; i <= last; i++) {
    // i * step (not accumulated) keeps values free of drift: 0.1 * 3 = 0.30000000000000004 is rounded below.
    values.push(roundTo(i * step, decimalsOf(step)));
  }
  return { step, values, decimals: decimalsOf(step) };
}

/** Decimals needed to print a nice step exactly: 0.05 → 2, 20 → 0. */
export function decimalsOf(step: number): number {
  if (!(step > 0) || step >= 1) return 0;
  return Math.min(6, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
}

function roundTo(v: number, decimals: number): number {
  const p = 10 ** decimals;
  const r = Math.round(v * p) / p;
  return r === 0 ? 0 : r; // no "-0"
}

/** Label of one tick: thousands separated for large values, fixed decimals for small steps. */
export function formatTick(v: number, decimals: number): string {
  if (decimals === 0 && Math.abs(v) >= 10_000) return Math.round(v).toLocaleString('en-US');
  return v.toFixed(decimals);
}

/**
 * Which bins of an equal-width histogram get an axis label: those starting on a multiple of one
 * nice step (about `target` of them), plus the overflow bin. Left to itself a category axis skips
 * labels to avoid overlap and lands on irregular ones ("0 1500 3500 5500 9000").
 */
export function binAxisTicks(
  bins: readonly { x0: number; x1: number; overflow?: boolean }[],
  target = 6,
): number[] {
  const regular = bins.map((b, i) => ({ b, i })).filter(({ b }) => !b.overflow && Number.isFinite(b.x1));
  const first = regular[0];
  const last = regular[regular.length - 1];
  if (!first || !last) return bins.map((_, i) => i);
  const width = first.b.x1 - first.b.x0;
  const span = last.b.x1 - first.b.x0;
  // The label step is a nice number and a whole number of bins.
  let step = niceStep(span / Math.max(1, target));
  step = Math.max(width, Math.round(step / width) * width);
  const out: number[] = [];
  for (const { b, i } of regular) {
    const k = b.x0 / step;
    if (Math.abs(k - Math.round(k)) < 1e-6) out.push(i);
  }
  if (out.length === 0) out.push(first.i);
  bins.forEach((b, i) => {
    if (b.overflow) out.push(i);
  });
  return out;
}
