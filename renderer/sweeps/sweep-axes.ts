/**
 * The ranges and log ticks of a sweep chart: every point, mark, limit and band in view, a little
 * headroom; log ticks at 1, 2, 5 per decade (latency spans decades past the knee).
 */
import { niceTicks } from '../core/charts/ticks.ts';
import type { ChartData } from './sweep-chart-data.ts';

export interface AxisRange {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export function axisRange(d: ChartData, runningX: number | null): AxisRange {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const s of d.series)
    for (const p of s.points) {
      xs.push(p.x);
      ys.push(p.y);
    }
  if (d.limit) ys.push(d.limit.y);
  if (d.band) xs.push(d.band.x1, d.band.x2);
  if (runningX !== null) xs.push(runningX);
  const pos = ys.filter((y) => y > 0);
  if (xs.length === 0) return { x0: 0, x1: 1, y0: 1, y1: 10 };
  return {
    x0: 0,
    x1: Math.max(...xs) * 1.05 || 1,
    y0: pos.length ? Math.min(...pos) : 1,
    y1: (ys.length ? Math.max(...ys) : 1) * 1.08 || 1,
  };
}

/** 1-2-5 ticks from the last at or below lo to the first at or above hi. */
export function logTicks(lo: number, hi: number): number[] {
  const a = Math.max(lo, 1e-6);
  const b = Math.max(hi, a * 1.0001);
  const all: number[] = [];
  for (let e = Math.floor(Math.log10(a)); e <= Math.ceil(Math.log10(b)); e++)
    for (const m of [1, 2, 5]) all.push(Number((m * 10 ** e).toPrecision(6)));
  let start = 0;
  while (all[start + 1] !== undefined && all[start + 1]! <= a) start++;
  let end = start;
  while (end < all.length - 1 && all[end]! < b) end++;
  return all.slice(start, end + 1);
}

/** Nice ticks from min that reach max (niceTicks stops at the last tick inside the range). */
export function coverTicks(min: number, max: number, target: number): number[] {
  const t = niceTicks(min, max, target);
  const last = t.values[t.values.length - 1];
  if (last !== undefined && last < max) t.values.push(Number((last + t.step).toFixed(t.decimals)));
  return t.values;
}
