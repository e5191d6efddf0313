/**
 * The GPU panels' data: from the telemetry ticks of a target (dcgm-exporter readings on the
 * server scrape's clock), one series per GPU for utilization, framebuffer memory used and power,
 * stepped over the panel's axis like the server gauges (series.ts gaugeSeries).
 */
import { C } from '../core/charts/theme.ts';
import type { GpuReading } from '../../shared/metrics/telemetry.ts';
import type { GpuPoint } from './metrics-store.ts';
import { gaugeSeries, resolutionFor, type SeriesPoint, type StepOptions } from './series.ts';

export interface GpuSeries {
  key: string;
  /** "GPU 0", with the host when the target's GPUs are on several. */
  label: string;
  model: string | null;
  util: SeriesPoint[];
  /** GiB, as the axis shows it (the exporter's MiB / 1024). */
  fbUsedGiB: SeriesPoint[];
  powerW: SeriesPoint[];
}

export interface GpuPanelData {
  gpus: GpuSeries[];
  /** Framebuffer size (used + free, GiB) of the largest GPU: the memory chart's ceiling. */
  fbTotalGiB: number | null;
  exposed: { util: boolean; fb: boolean; power: boolean };
}

const field =
  (get: (g: GpuReading) => number | null, scale = 1) =>
  (points: readonly GpuPoint[], key: string) =>
    points.map((p) => {
      const g = p.gpus.find((x) => x.key === key);
      const v = g ? get(g) : null;
      return { t: p.t, v: v === null ? null : v * scale };
    });
const util = field((g) => g.utilPct);
const fb = field((g) => g.fbUsedMiB, 1 / 1024);
const power = field((g) => g.powerW);

export function gpuPanelData(points: readonly GpuPoint[], startMs: number, endMs: number): GpuPanelData {
  const opts: StepOptions = { startMs, endMs, resolutionMs: resolutionFor(endMs - startMs) };
  const seen = new Map<string, GpuReading>();
  for (const p of points) for (const g of p.gpus) seen.set(g.key, g);
  const hosts = new Set([...seen.values()].map((g) => g.host));
  const gpus = [...seen.values()].map((g): GpuSeries => ({
    key: g.key,
    label: hosts.size > 1 && g.host ? `${g.host} GPU ${g.gpu}` : `GPU ${g.gpu}`,
    model: g.model,
    util: gaugeSeries(util(points, g.key), opts),
    fbUsedGiB: gaugeSeries(fb(points, g.key), opts),
    powerW: gaugeSeries(power(points, g.key), opts),
  }));
  let total: number | null = null;
  for (const g of seen.values())
    if (g.fbUsedMiB !== null && g.fbFreeMiB !== null)
      total = Math.max(total ?? 0, (g.fbUsedMiB + g.fbFreeMiB) / 1024);
  const any = (k: 'utilPct' | 'fbUsedMiB' | 'powerW') => [...seen.values()].some((g) => g[k] !== null);
  return {
    gpus,
    fbTotalGiB: total,
    exposed: { util: any('utilPct'), fb: any('fbUsedMiB'), power: any('powerW') },
  };
}

/** A colour per GPU, stable by position, from the theme (repeating past eight GPUs). */
export const GPU_COLORS = [C.content, C.terminal, C.coalesced, C.contentB, C.ttft, C.usage, C.ttfat, C.error];
