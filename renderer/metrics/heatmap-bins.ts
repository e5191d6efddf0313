/**
 * Heatmap cells of a histogram over time: one column per step (the steps of series.ts), one row
 * per bucket, each cell the number of observations that fell in that bucket (non-cumulative)
 * during that step — Prometheus' `rate(x_bucket)` heatmap without the per-second division, so a
 * cell reads as a count. Steps over a gap or without the histogram get no column.
 */
import type { HistogramData } from '../../shared/metrics/prom-math.ts';
import { gapFor, rangeDelta, stepAnchors, type HistPoint, type StepOptions } from './series.ts';

export interface Heatmap {
  cols: { t0: number; t1: number }[];
  /** Upper bounds of the rows, ascending (the last is usually Infinity). */
  les: number[];
  /** counts[col × les.length + row]. */
  counts: Float64Array;
  max: number;
}

/** Non-cumulative counts per bound of one (cumulative) histogram. @internal exported for its tests */
export function bucketCounts(h: HistogramData): { le: number; count: number }[] {
  const sorted = [...h.buckets].sort((a, b) => a.le - b.le);
  let prev = 0;
  return sorted.map((b) => {
    const c = Math.max(0, b.count - prev);
    prev = Math.max(prev, b.count);
    return { le: b.le, count: c };
  });
}

export function heatmapBins(points: readonly HistPoint[], opts: StepOptions): Heatmap {
  const times = points.map((p) => p.t);
  const gap = opts.gapMs ?? gapFor(times);
  const idx = stepAnchors(times, opts);
  const cols: { t0: number; t1: number }[] = [];
  const deltas: { le: number; count: number }[][] = [];
  const les = new Set<number>();
  for (let k = 1; k < idx.length; k++) {
    const a = idx[k - 1]!;
    const b = idx[k]!;
    let gapped = false;
    for (let i = a + 1; i <= b; i++) if (times[i]! - times[i - 1]! > gap) gapped = true;
    const d = gapped ? null : rangeDelta(points, a, b);
    if (!d) continue;
    const cells = bucketCounts(d);
    for (const c of cells) les.add(c.le);
    cols.push({ t0: times[a]!, t1: times[b]! });
    deltas.push(cells);
  }
  const rows = [...les].sort((x, y) => x - y);
  const rowOf = new Map(rows.map((le, i) => [le, i]));
  const counts = new Float64Array(cols.length * rows.length);
  let max = 0;
  deltas.forEach((cells, c) => {
    for (const cell of cells) {
      const i = c * rows.length + rowOf.get(cell.le)!;
      counts[i] = (counts[i] ?? 0) + cell.count;
      if (counts[i]! > max) max = counts[i]!;
    }
  });
  return { cols, les: rows, counts, max };
}

/**
 * Label of a row: its bucket's range. `seconds`: bounds are seconds and print as durations
 * ("100–250 ms", "1–2.5 s"); otherwise as plain numbers ("1–8").
 */
export function rowLabel(les: readonly number[], row: number, seconds: boolean): string {
  const hi = les[row]!;
  const lo = row > 0 ? les[row - 1]! : null;
  const f = seconds ? fmtSecondsBound : fmtBound;
  if (hi === Infinity) return lo === null ? 'all' : `> ${f(lo)}`;
  if (lo === null) return `≤ ${f(hi)}`;
  if (!seconds) return `${f(lo)}–${f(hi)}`;
  // One unit for both ends when they share it: "100–250 ms", not "100 ms–250 ms".
  const [a, ua] = splitUnit(f(lo));
  const [b, ub] = splitUnit(f(hi));
  return ua === ub ? `${a}–${b} ${ub}` : `${a} ${ua}–${b} ${ub}`;
}

function splitUnit(s: string): [string, string] {
  const i = s.lastIndexOf(' ');
  return [s.slice(0, i), s.slice(i + 1)];
}

/** A bucket bound printed short: 0.5, 25, 16.4k. @internal exported for its tests */
export function fmtBound(v: number): string {
  if (v === Infinity) return '+Inf';
  if (Math.abs(v) >= 10_000) return `${+(v / 1000).toPrecision(3)}k`;
  return String(+v.toPrecision(3));
}

/** A bound in seconds as a duration: "0.5 ms", "250 ms", "2.5 s", "640 s". @internal exported for its tests */
export function fmtSecondsBound(sec: number): string {
  if (sec === Infinity) return '+Inf';
  if (Math.abs(sec) < 1) return `${+(sec * 1000).toPrecision(3)} ms`;
  return `${+sec.toPrecision(4)} s`;
}

/**
 * Rows worth drawing: from one below the lowest bucket with observations to one above the
 * highest (vLLM's TTFT has 22 bounds from 1 ms to 2560 s; a run uses a handful). All rows when
 * nothing was observed.
 */
export function rowRange(m: Heatmap): { from: number; to: number } {
  const rows = m.les.length;
  let lo = rows;
  let hi = -1;
  for (let c = 0; c < m.cols.length; c++)
    for (let r = 0; r < rows; r++)
      if (m.counts[c * rows + r]! > 0) {
        if (r < lo) lo = r;
        if (r > hi) hi = r;
      }
  if (hi < 0) return { from: 0, to: rows - 1 };
  return { from: Math.max(0, lo - 1), to: Math.min(rows - 1, hi + 1) };
}
