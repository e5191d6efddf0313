/**
 * The metrics panel's shared time axis: the selectable windows, round wall-clock ticks (every
 * 5 s, 10 s, 1 min… aligned to the clock, as Prometheus' graph does) and their labels. Times are
 * epoch milliseconds on the core's clock (MetricsScrape.wallMs, RequestSummary.startedAtWall).
 */
import { fmtClock } from '../core/format-date.ts';

export type WindowId = '1m' | '5m' | '15m';

export const WINDOWS: readonly { id: WindowId; label: string; ms: number }[] = [
  { id: '1m', label: '1 min', ms: 60_000 },
  { id: '5m', label: '5 min', ms: 300_000 },
  { id: '15m', label: '15 min', ms: 900_000 },
];

export function windowMs(id: WindowId): number {
  return WINDOWS.find((w) => w.id === id)?.ms ?? 60_000;
}

const STEPS_MS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600].map((s) => s * 1000);

/** Clock-aligned ticks in [startMs, endMs]: the smallest round step giving at most `maxTicks`. */
export function timeTicks(startMs: number, endMs: number, maxTicks = 7): number[] {
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs <= startMs) return [];
  const span = endMs - startMs;
  const step = STEPS_MS.find((s) => span / s <= maxTicks) ?? STEPS_MS[STEPS_MS.length - 1]!;
  const out: number[] = [];
  for (let t = Math.ceil(startMs / step) * step; t <= endMs; t += step) out.push(t);
  return out;
}

/** HH:MM:SS in local time (24 h): the app's one clock format (core/format-date.ts). */
export const clockLabel = fmtClock;

/** "0.4 s", "12 s", "3 min 5 s": an age or a countdown. */
export function fmtAge(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  // Whole seconds first: 419.6 s is 7 min, not "6 min 60 s".
  const total = Math.round(s);
  const m = Math.floor(total / 60);
  const rest = total - m * 60;
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

/** Shortest span the axis shows once watching started inside the window (room for the first steps). @internal exported for its tests */
export const MIN_AXIS_SPAN_MS = 20_000;

/**
 * The panel's axis: the window ending `endMs`, or, when watching started inside it, from a
 * little before the first scrape (never under MIN_AXIS_SPAN_MS), so the first minute is not a
 * mostly empty plot with the data squeezed against its right edge. `clipped` says which.
 */
export function axisDomain(
  endMs: number,
  windowSpanMs: number,
  firstScrapeMs: number | null,
): { start: number; end: number; clipped: boolean } {
  const full = endMs - windowSpanMs;
  if (firstScrapeMs === null || !Number.isFinite(firstScrapeMs))
    return { start: full, end: endMs, clipped: false };
  const start = Math.min(firstScrapeMs - 2000, endMs - MIN_AXIS_SPAN_MS);
  return start > full
    ? { start: Math.round(start), end: endMs, clipped: true }
    : { start: full, end: endMs, clipped: false };
}
