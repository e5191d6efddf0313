/**
 * The knee of a sweep: the load past which latency rises faster than throughput — the point of a
 * latency-vs-throughput curve farthest below the chord from its first to its last point, both axes
 * scaled to [0, 1] (the Kneedle method: Satopää, Albrecht, Irwin, Raghavan, "Finding a 'Kneedle'
 * in a Haystack", ICDCS workshops 2011; on a smooth curve, where its slope in the scaled axes
 * reaches 1, the chord's). Before it throughput grows for little latency; after it each unit of
 * throughput costs more latency than the sweep's average. For an M/M/1 queue (throughput ρ,
 * latency 1/(1−ρ)) over ρ ∈ [a, b] that is ρ* = 1 − √((b − a)/(1/(1−b) − 1/(1−a))).
 *
 * No knee unless latency at least doubled over the sweep (`minRise`): on a flat curve the scaling
 * would blow noise up into a knee. Nor when the last step's latency is no higher than the first's:
 * Kneedle's chord then falls, and a noisy curve (a busy machine's sweep) would put a "knee" on
 * whatever point sits lowest. `elasticity` says how steep it got: the relative rise of latency
 * per relative gain in throughput over the segment after the knee (Infinity when throughput did
 * not grow). A knee is a point after which latency rises faster than throughput (elasticity > 1):
 * the farthest point below the chord that is one; none when no point below it is.
 */

export interface KneePoint {
  /** The step's offered load (its rate or concurrency; or its rank), for the record. */
  load: number;
  /** Throughput achieved (e.g. output tokens/s). */
  throughput: number;
  /** The latency percentile (e.g. p99 TTFT, ms). */
  latency: number;
}

export interface Knee {
  /** Index into the points given. */
  index: number;
  load: number;
  throughput: number;
  latency: number;
  elasticity: number;
}

/** Relative latency rise per relative throughput gain from a to b (0 when latency did not rise). @internal exported for its tests */
export function elasticity(a: KneePoint, b: KneePoint): number {
  const dl = a.latency > 0 ? (b.latency - a.latency) / a.latency : 0;
  const dt = a.throughput > 0 ? (b.throughput - a.throughput) / a.throughput : 0;
  return dl <= 0 ? 0 : dt > 0 ? dl / dt : Infinity;
}

/** The knee (see above) of points in order of load; null without one. */
export function findKnee(points: readonly KneePoint[], minRise = 2): Knee | null {
  const pts = points.filter(
    (p) => Number.isFinite(p.load) && Number.isFinite(p.throughput) && Number.isFinite(p.latency),
  );
  if (pts.length < 3) return null;
  const xs = pts.map((p) => p.throughput);
  const ys = pts.map((p) => p.latency);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (!(x1 > x0) || !(y0 > 0 ? y1 >= minRise * y0 : y1 > y0)) return null;
  // Distance below the chord from the first to the last point, in the scaled axes.
  const first = pts[0]!;
  const last = pts[pts.length - 1]!;
  if (!(last.latency > first.latency)) return null;
  const sx = (x: number): number => (x - x0) / (x1 - x0);
  const sy = (y: number): number => (y - y0) / (y1 - y0);
  const [ax, ay, bx, by] = [sx(first.throughput), sy(first.latency), sx(last.throughput), sy(last.latency)];
  const dx = bx - ax;
  const dy = by - ay;
  const len = Math.hypot(dx, dy);
  if (len === 0) return null;
  let best = -1;
  let bestD = 0;
  for (let i = 1; i < pts.length - 1; i++) {
    // Positive on the side below the chord (higher throughput or lower latency than the chord).
    const d = (dx * (ay - sy(pts[i]!.latency)) - dy * (ax - sx(pts[i]!.throughput))) / len;
    if (d > bestD && elasticity(pts[i]!, pts[i + 1]!) > 1) [best, bestD] = [i, d];
  }
  if (best < 0) return null;
  const p = pts[best]!;
  return {
    index: points.indexOf(p),
    load: p.load,
    throughput: p.throughput,
    latency: p.latency,
    elasticity: elasticity(p, pts[best + 1]!),
  };
}
