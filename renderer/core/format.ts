/**
 * Numbers of the metrics panel, readable at a glance: enough digits to compare neighbours, no
 * more; units spelled the same everywhere (ms, tok/s, %, requests).
 */
import type { QuantileBucket } from '../../shared/runs/summary/server-quantile.ts';

/** 0.123 → "0.12", 12.34 → "12.3", 123.4 → "123", 1234.5 → "1,235", 12345678 → "12.3M". */
export function fmtCompact(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a >= 1e9) return `${+(v / 1e9).toPrecision(3)}G`;
  if (a >= 1e6) return `${+(v / 1e6).toPrecision(3)}M`;
  if (a >= 1000) return Math.round(v).toLocaleString('en-US');
  // Counts (tokens, requests) stay whole numbers.
  if (Number.isInteger(v)) return String(v);
  if (a >= 100 || a === 0) return String(Math.round(v));
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return String(+v.toPrecision(2));
}

/** A duration in ms: "8.40 ms", "84.0 ms", "840 ms", "8.40 s". */
export function fmtLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const a = Math.abs(ms);
  if (a >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (a >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (a >= 100) return `${ms.toFixed(0)} ms`;
  if (a >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** A signed difference of durations: "+12.3 ms", "−4.00 ms". */
export function fmtLatencyDiff(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms === 0) return '0 ms';
  return `${ms > 0 ? '+' : '−'}${fmtLatency(Math.abs(ms))}`;
}

export function fmtWithUnit(v: number | null | undefined, unit: string): string {
  if (unit === 'ms') return fmtLatency(v);
  const s = fmtCompact(v);
  if (s === '—' || !unit) return s;
  return unit === '%' || unit === '/s' ? `${s}${unit === '%' ? ' %' : '/s'}` : `${s} ${unit}`;
}

/**
 * Axis ticks: compact, no unit (the axis label says it). `top` is the axis' highest tick: from
 * 10k up every tick uses the same suffix, so "5000" never sits under "10k".
 */
export function fmtTick(v: number, top = Math.abs(v)): string {
  if (!Number.isFinite(v)) return '';
  if (top >= 1e6) return v === 0 ? '0' : `${+(v / 1e6).toPrecision(3)}M`;
  if (top >= 10_000) return v === 0 ? '0' : `${+(v / 1000).toPrecision(3)}k`;
  return String(+v.toPrecision(4));
}

/**
 * A bucket in ms with one unit for both ends and no padding digits (bucket bounds are round):
 * "0–300 ms", "10–25 ms", "1–2.5 s", "> 10 s".
 */
export function fmtBucket([lo, hi]: QuantileBucket): string {
  const inSeconds = (hi ?? lo) >= 1000;
  const n = (ms: number) => String(+(inSeconds ? ms / 1000 : ms).toPrecision(3));
  const unit = inSeconds ? 's' : 'ms';
  return hi === null ? `> ${n(lo)} ${unit}` : `${n(lo)}–${n(hi)} ${unit}`;
}
