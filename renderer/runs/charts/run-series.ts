/**
 * Derived data of the run dashboard and summary, as pure functions (tested apart from the views):
 * throughput and concurrency over time, distributions per metric, CDF points.
 */
import type { LiveStat, RunProgress } from '../../../shared/runs/live/progress-types.ts';
import type { LaneStore } from '../live/lane-store.ts';

// The distributions are computed in shared/ (the report builder makes them in the core too).
export {
  histogramData,
  metricValues,
  type DistMetric,
  type HistDatum,
} from '../../../shared/runs/summary/distributions.ts';

/** One point of a time series: t in seconds since the measured run began. */
export interface TimePoint {
  t: number;
  [series: string]: number | null;
}

/**
 * Output tokens/s and requests/s per 1-s bucket (vLLM counts peak tokens/s the same way, in 1-s
 * buckets from the start). Live, only buckets that are over (`untilMs`) are shown, so the last
 * point does not dip while its second is still filling; at the end the last, partial bucket is
 * scaled by the part of the second it covers when that is at least 0.75 s (else left out).
 */
export function throughputSeries(s: LaneStore, untilMs: number, final: boolean): TimePoint[] {
  const out: TimePoint[] = [];
  const complete = Math.min(s.buckets, Math.floor(untilMs / 1000));
  const n = final ? s.buckets : complete;
  for (let b = 0; b < n; b++) {
    let span = 1;
    if (final && b === s.buckets - 1) {
      const covered = (untilMs - b * 1000) / 1000;
      // A short tail second scaled up would spike (16 completions in 0.2 s = 80 req/s).
      if (covered < 0.75) break;
      span = Math.min(1, covered);
    }
    out.push({
      t: b + span / 2,
      tokS: s.tokPerS[b]! / span,
      reqS: s.okPerS[b]! / span,
      errS: s.errPerS[b]! / span,
    });
  }
  return out;
}

/**
 * Requests in flight (sent, not finished) and queued (arrived, waiting for a slot) at regular
 * times, from the lanes' arrival/start/end: a sweep over sorted changes, O(n log n).
 */
export function concurrencySeries(s: LaneStore, endMs: number, points = 240): TimePoint[] {
  if (s.n === 0 || endMs <= 0) return [];
  const step = Math.max(50, endMs / points);
  const ch: [number, number, number][] = []; // [time, dInFlight, dQueued]
  for (let i = 0; i < s.n; i++) {
    const a = s.arrivedMs[i]!;
    const st = s.startedMs[i]!;
    const e = s.endMs[i]!;
    if (st > a) ch.push([a, 0, 1], [st, 0, -1]);
    ch.push([st, 1, 0]);
    if (!Number.isNaN(e)) ch.push([e, -1, 0]);
  }
  ch.sort((x, y) => x[0] - y[0]);
  const out: TimePoint[] = [];
  let k = 0;
  let inFlight = 0;
  let queued = 0;
  for (let t = 0; t <= endMs + 1e-9; t += step) {
    while (k < ch.length && ch[k]![0] <= t) {
      inFlight += ch[k]![1];
      queued += ch[k]![2];
      k++;
    }
    out.push({ t: t / 1000, inFlight, queued });
  }
  return out;
}

/** Live: in flight and queued as the core reported them at each progress tick. */
/** A type, not an interface: it is also a TimePoint (charts take either). */
export type ProgressSample = {
  t: number;
  inFlight: number;
  queued: number;
};

export function sampleOf(p: RunProgress): ProgressSample | null {
  if (p.phase === 'warmup') return null;
  return { t: p.elapsedMs / 1000, inFlight: p.inFlight, queued: p.queued };
}

/** A CDF from the live HdrHistogram's [percentile, value] points: x = value (ms), y = percentile. */
export function cdfPoints(stat: LiveStat | null): { v: number; p: number }[] {
  if (!stat) return [];
  return stat.cdf.filter(([p, v]) => Number.isFinite(p) && Number.isFinite(v)).map(([p, v]) => ({ v, p }));
}

/** Duration in ms → "1:05" style ETA ("12 s", "3 min 05 s"). */
export function fmtEta(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  if (m < 48 * 60) return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
  return `${(m / 1440).toFixed(1)} days`;
}
