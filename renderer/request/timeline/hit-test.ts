/**
 * Hit-testing on the timeline: events are sorted by arrival time, so the nearest one to the
 * cursor is found by binary search, then accepted only within a pixel tolerance.
 */

/** First index i in [0, n) with t[i] >= ms (n if none). `t` must be ascending. @internal exported for its tests */
export function lowerBound(t: ArrayLike<number>, n: number, ms: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid]! < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the event nearest to `ms` (ties go to the earlier one), or -1 when n = 0. @internal exported for its tests */
export function nearestIndex(t: ArrayLike<number>, n: number, ms: number): number {
  if (n === 0) return -1;
  const i = lowerBound(t, n, ms);
  if (i === 0) return 0;
  if (i === n) return n - 1;
  return ms - t[i - 1]! <= t[i]! - ms ? i - 1 : i;
}

/**
 * The event under the cursor: nearest in time, if it lies within `tolPx` pixels. When several
 * events share that time (coalesced into one read), the last of them is returned, since it is
 * the one drawn on top.
 */
export function hitTest(
  t: ArrayLike<number>,
  n: number,
  cursorPx: number,
  toPx: (ms: number) => number,
  toMs: (px: number) => number,
  tolPx = 6,
): number {
  const i = nearestIndex(t, n, toMs(cursorPx));
  if (i < 0) return -1;
  if (Math.abs(toPx(t[i]!) - cursorPx) > tolPx) return -1;
  let j = i;
  while (j + 1 < n && t[j + 1] === t[i]) j++;
  return j;
}

/** Rows [start, end) whose time lies within [minMs, maxMs]. */
export function visibleRange(
  t: ArrayLike<number>,
  n: number,
  minMs: number,
  maxMs: number,
): [number, number] {
  const start = lowerBound(t, n, minMs);
  let end = lowerBound(t, n, maxMs);
  while (end < n && t[end]! <= maxMs) end++;
  return [start, end];
}
