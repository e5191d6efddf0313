/**
 * Stall detection on the timeline: a gap between consecutive content events that is both much
 * longer than the typical gap (> factor × median ITL per chunk) and long in absolute terms
 * (> minMs). Both conditions matter: with a 2 ms median, a 12 ms gap is 6× but invisible to a
 * user; with a 300 ms median every gap would pass a fixed 100 ms threshold.
 */
import { EV_CONTENT } from '../../../shared/request.ts';

export interface Stall {
  /** Row index of the content event before the gap. */
  fromIndex: number;
  /** Row index of the content event after the gap. */
  toIndex: number;
  fromMs: number;
  toMs: number;
  gapMs: number;
}

export interface StallOptions {
  factor?: number;
  minMs?: number;
}

const STALL_FACTOR = 5;
const STALL_MIN_MS = 100;

export interface StallResult {
  stalls: Stall[];
  medianGapMs: number | null;
  /** The gap above which a stall is reported (ms), or null with fewer than two content events. */
  thresholdMs: number | null;
}

export function detectStalls(
  cols: { n: number; t: ArrayLike<number>; flags: ArrayLike<number> },
  opts: StallOptions = {},
): StallResult {
  const factor = opts.factor ?? STALL_FACTOR;
  const minMs = opts.minMs ?? STALL_MIN_MS;
  const idx: number[] = [];
  for (let i = 0; i < cols.n; i++) if ((cols.flags[i]! & EV_CONTENT) !== 0) idx.push(i);
  if (idx.length < 2) return { stalls: [], medianGapMs: null, thresholdMs: null };
  const gaps = new Float64Array(idx.length - 1);
  for (let j = 1; j < idx.length; j++) gaps[j - 1] = cols.t[idx[j]!]! - cols.t[idx[j - 1]!]!;
  const sorted = Float64Array.from(gaps).sort();
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const threshold = Math.max(minMs, factor * median);
  const stalls: Stall[] = [];
  for (let j = 0; j < gaps.length; j++) {
    const g = gaps[j]!;
    if (g > threshold) {
      const a = idx[j]!;
      const b = idx[j + 1]!;
      stalls.push({ fromIndex: a, toIndex: b, fromMs: cols.t[a]!, toMs: cols.t[b]!, gapMs: g });
    }
  }
  return { stalls, medianGapMs: median, thresholdMs: threshold };
}
