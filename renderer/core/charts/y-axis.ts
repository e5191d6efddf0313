/**
 * The y axis of a metrics chart: from 0 to a round top just above the data, with round ticks
 * (1, 2, 5 × 10^k steps, charts/ticks.ts) — recharts' own "auto" picks 0.055, 0.11, 0.165 for a
 * 0.2 % peak. Counts get whole-number steps.
 */
import { niceStep } from './ticks.ts';

export interface YAxis {
  top: number;
  ticks: number[];
}

export function yAxis(peak: number, opts: { integer?: boolean; max?: number; target?: number } = {}): YAxis {
  const target = opts.target ?? 4;
  if (opts.max !== undefined) {
    // A fixed top divides evenly when it can (100 % → 25 % steps).
    const even = opts.max / target;
    const step = Number.isInteger(even) ? even : niceStep(even);
    return { top: opts.max, ticks: ticksTo(opts.max, step) };
  }
  let p = Number.isFinite(peak) && peak > 0 ? peak : 0;
  if (p === 0) p = opts.integer ? target : 1;
  let step = niceStep(p / target);
  if (opts.integer) step = Math.max(1, Math.round(step));
  const top = Math.ceil(p / step - 1e-9) * step;
  return { top: round(top, step), ticks: ticksTo(top, step) };
}

function ticksTo(top: number, step: number): number[] {
  const out: number[] = [];
  for (let i = 0; i * step <= top * (1 + 1e-9); i++) out.push(round(i * step, step));
  return out;
}

function round(v: number, step: number): number {
  const d = step >= 1 ? 0 : Math.ceil(-Math.log10(step) - 1e-9);
  return +v.toFixed(Math.min(10, d));
}

/** Highest finite value of the series (0 when none). */
export function peakOf(series: readonly { data: readonly { v: number | null }[] }[]): number {
  let m = 0;
  for (const s of series)
    for (const p of s.data) if (p.v !== null && Number.isFinite(p.v) && p.v > m) m = p.v;
  return m;
}
