/**
 * Windows over a target's scrapes: which two scrapes bracket a time window, and which histogram
 * bucket a quantile was interpolated in (so the UI can say how coarse a server-side quantile is).
 */

export interface Bracket {
  /** Index of the newest scrape at or before the window's start (else the oldest scrape). */
  from: number;
  /** Index of the newest scrape at or before the window's end. */
  to: number;
  /** No scrape at or before the start: the window starts at the first scrape instead. */
  clipped: boolean;
}

/** The scrapes bracketing [startMs, endMs]; `times` ascending. Null without two scrapes to span. */
export function bracketWindow(times: readonly number[], startMs: number, endMs: number): Bracket | null {
  let to = -1;
  let from = -1;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (t > endMs) break;
    to = i;
    if (t <= startMs) from = i;
  }
  const clipped = from < 0;
  if (clipped) from = 0;
  if (to <= from) return null;
  return { from, to, clipped };
}

export { quantileBucket, type BucketBounds } from '../../shared/metrics/prom-math.ts';
