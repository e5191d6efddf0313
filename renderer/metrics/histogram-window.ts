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
  /** Clipped because of a gap in the scraping at the window's start (not because watching began). */
  afterGap: boolean;
}

/**
 * The scrapes bracketing [startMs, endMs]; `times` ascending. Null without two scrapes to span.
 * With `gapMs`: when the scrape before the window's start is followed by a gap in the scraping
 * (the panel was closed, the scraper failing), what the server observed in that gap cannot be
 * dated — it may all lie before the window — so the window starts at the scrape after the gap
 * instead (`clipped`), never reaching back across it.
 */
export function bracketWindow(
  times: readonly number[],
  startMs: number,
  endMs: number,
  gapMs = Infinity,
): Bracket | null {
  let to = -1;
  let from = -1;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (t > endMs) break;
    to = i;
    if (t <= startMs) from = i;
  }
  let clipped = from < 0;
  let afterGap = false;
  if (clipped) from = 0;
  else if (from + 1 <= to && times[from + 1]! - times[from]! > gapMs && times[from]! < startMs) {
    from++;
    clipped = true;
    afterGap = true;
  }
  if (to <= from) return null;
  return { from, to, clipped, afterGap };
}

export { quantileBucket, type BucketBounds } from '../../shared/metrics/prom-math.ts';
