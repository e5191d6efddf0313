/**
 * Energy over a run from GPU telemetry (dcgm-exporter, shared/metrics/telemetry.ts): per GPU, the
 * increase of its energy counter across the window's scrapes (reset-aware, as Prometheus'
 * increase()), or — for a GPU that publishes no counter — its power integrated over the scrapes
 * (trapezoids: exact for a linear ramp, an estimate otherwise). Summed over every GPU of the
 * target and divided by the run's output tokens: joules per output token.
 */
import { counterIncrease, type Point } from '../../metrics/prom-math.ts';
import type { GpuReading } from '../../metrics/telemetry.ts';
import type { EnergySummary } from './server-side-schema.ts';

/** One telemetry tick: its time (ms, any monotonic clock) and the GPUs read then. */
export interface GpuTick {
  t: number;
  gpus: readonly GpuReading[];
}

function trapezoid(pts: readonly Point[]): number {
  let j = 0;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1] as Point;
    const b = pts[i] as Point;
    j += ((a.v + b.v) / 2) * ((b.t - a.t) / 1000);
  }
  return j;
}

function peakOf(ticks: readonly GpuTick[], get: (g: GpuReading) => number | null): number | null {
  let m: number | null = null;
  for (const k of ticks)
    for (const g of k.gpus) {
      const v = get(g);
      if (v !== null && Number.isFinite(v) && (m === null || v > m)) m = v;
    }
  return m;
}

/**
 * The energy of every GPU over `ticks` (the window's telemetry scrapes, in time order), `t0` the
 * measured run's start on the same clock. null when no GPU has two readings.
 */
export function energyOverWindow(ticks: readonly GpuTick[], t0: number): EnergySummary | null {
  const energy = new Map<string, Point[]>();
  const power = new Map<string, Point[]>();
  const add = (m: Map<string, Point[]>, key: string, p: Point): void => {
    let list = m.get(key);
    if (list === undefined) m.set(key, (list = []));
    list.push(p);
  };
  for (const k of ticks)
    for (const g of k.gpus) {
      if (g.energyJ !== null) add(energy, g.key, { t: k.t, v: g.energyJ });
      if (g.powerW !== null) add(power, g.key, { t: k.t, v: g.powerW });
    }
  let joules = 0;
  let fromCounter = 0;
  let fromPower = 0;
  let from = Infinity;
  let to = -Infinity;
  for (const key of new Set([...energy.keys(), ...power.keys()])) {
    const e = energy.get(key) ?? [];
    const p = power.get(key) ?? [];
    const pts = e.length >= 2 ? e : p.length >= 2 ? p : null;
    if (pts === null) continue;
    joules += pts === e ? counterIncrease(e) : trapezoid(p);
    if (pts === e) fromCounter++;
    else fromPower++;
    from = Math.min(from, pts[0]!.t);
    to = Math.max(to, pts[pts.length - 1]!.t);
  }
  const gpus = fromCounter + fromPower;
  if (gpus === 0) return null;
  const seconds = (to - from) / 1000;
  return {
    method: fromPower === 0 ? 'counter' : fromCounter === 0 ? 'integrated-power' : 'mixed',
    joules,
    gpus,
    windowMs: { fromMs: from - t0, toMs: to - t0 },
    meanPowerW: seconds > 0 ? joules / seconds : null,
    outputTokens: null,
    joulesPerToken: null,
    peakUtilPct: peakOf(ticks, (g) => g.utilPct),
    peakFbUsedMiB: peakOf(ticks, (g) => g.fbUsedMiB),
  };
}

/** The summary with its tokens: joules per output token (null without tokens). */
export function perToken(e: EnergySummary, outputTokens: number): EnergySummary {
  const ok = Number.isFinite(outputTokens) && outputTokens > 0;
  return { ...e, outputTokens, joulesPerToken: ok ? e.joules / outputTokens : null };
}
