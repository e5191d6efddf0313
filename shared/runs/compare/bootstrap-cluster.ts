/**
 * One metric of one run laid out for the bootstrap (bootstrap.ts): its values sorted once, with
 * the request each came from, so a replicate's mean and quantiles are sums over request weights
 * and a walk of a window of the sorted values (the header of bootstrap.ts says why that is fast).
 */
import { percentileSorted } from '../../stats/summary.ts';
import type { SampleStat } from './bootstrap-samples.ts';
import type { Resampled } from './bootstrap-rate.ts';

/** One metric of one run, laid out for resampling. */
export class ClusterData implements Resampled {
  /** Values ascending, and the request each came from. */
  readonly sorted: Float64Array;
  readonly owner: Uint32Array;
  /** Per request: how many values, and their sum. */
  readonly count: Uint32Array;
  readonly sum: Float64Array;
  readonly total: number;
  /** Per quantile: the window [lo, hi) of sorted positions and, per request, its values below lo. */
  private windows = new Map<number, { lo: number; hi: number; below: Uint32Array }>();
  /** Per request 0: stands in for a quantile's counts where fewer than three are asked. */
  private readonly zeros: Uint32Array;

  constructor(lists: readonly (ArrayLike<number> | null)[]) {
    const n = lists.length;
    this.count = new Uint32Array(n);
    this.sum = new Float64Array(n);
    this.zeros = new Uint32Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) total += lists[i]?.length ?? 0;
    this.total = total;
    const vals = new Float64Array(total);
    const own = new Uint32Array(total);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const l = lists[i];
      if (!l) continue;
      this.count[i] = l.length;
      let s = 0;
      for (let j = 0; j < l.length; j++) {
        vals[k] = l[j]!;
        own[k++] = i;
        s += l[j]!;
      }
      this.sum[i] = s;
    }
    const idx = argsort(vals);
    this.sorted = new Float64Array(total);
    this.owner = new Uint32Array(total);
    for (let i = 0; i < total; i++) {
      this.sorted[i] = vals[idx[i]!]!;
      this.owner[i] = own[idx[i]!]!;
    }
  }

  /**
   * How many requests hold a value above `v`: what a tail quantile at v is decided by (a p99 of
   * 100 single values rests on one request; see intervals.ts MIN_TAIL_REQUESTS).
   */
  requestsAbove(v: number): number {
    const seen = new Set<number>();
    for (let j = this.total - 1; j >= 0 && this.sorted[j]! > v; j--) seen.add(this.owner[j]!);
    return seen.size;
  }

  private window(p: number) {
    let win = this.windows.get(p);
    if (win) return win;
    const T = this.total;
    const F = p / 100;
    const q = percentileSorted(this.sorted, p);
    // Requests' share of values at or below the estimate: the variance of the resampled share.
    const n = this.count.length;
    const a = new Float64Array(n);
    for (let j = 0; j < T && this.sorted[j]! <= q; j++) a[this.owner[j]!]! += 1;
    let v = 0;
    for (let i = 0; i < n; i++) {
      const d = a[i]! - F * this.count[i]!;
      v += d * d;
    }
    const sd = Math.sqrt(v) / Math.max(1, T);
    const margin = 6 * sd + 4 / Math.max(1, T);
    const lo = Math.max(0, Math.floor((F - margin) * T));
    const hi = Math.min(T, Math.ceil((F + margin) * T) + 2);
    const below = new Uint32Array(n);
    for (let j = 0; j < lo; j++) below[this.owner[j]!]! += 1;
    win = { lo, hi, below };
    this.windows.set(p, win);
    return win;
  }

  /**
   * Several statistics of one replicate in one pass over the weights (the mean's and every
   * quantile's sums together), then each quantile's walk: what a replicate costs.
   */
  evalAll(w: Uint32Array, stats: readonly SampleStat[], out: Float64Array): void {
    const { count, sum, sorted, owner } = this;
    const qs: number[] = [];
    for (const st of stats) if (st !== 'mean') qs.push(st);
    const wins = qs.map((p) => this.window(p));
    const nq = qs.length;
    const below = new Float64Array(nq);
    // Accumulators in locals (not typed-array slots): this loop is most of a replicate's cost.
    const z = this.zeros;
    const b0 = wins[0]?.below ?? z;
    const b1 = wins[1]?.below ?? z;
    const b2 = wins[2]?.below ?? z;
    let m = 0;
    let sm = 0;
    let l0 = 0;
    let l1 = 0;
    let l2 = 0;
    const n = w.length;
    for (let i = 0; i < n; i++) {
      const wi = w[i]!;
      if (wi === 0) continue;
      m += wi * count[i]!;
      sm += wi * sum[i]!;
      l0 += wi * b0[i]!;
      l1 += wi * b1[i]!;
      l2 += wi * b2[i]!;
    }
    below[0] = l0;
    if (nq > 1) below[1] = l1;
    if (nq > 2) below[2] = l2;
    for (let q = 3; q < nq; q++) {
      const bq = wins[q]!.below;
      let l = 0;
      for (let i = 0; i < n; i++) l += w[i]! * bq[i]!;
      below[q] = l;
    }
    let qi = 0;
    for (let j = 0; j < stats.length; j++) {
      const st = stats[j]!;
      if (m === 0) {
        out[j] = NaN;
        continue;
      }
      if (st === 'mean') {
        out[j] = sm / m;
        continue;
      }
      const win = wins[qi]!;
      const bl = below[qi++]!;
      const h = (st / 100) * (m - 1);
      const k = Math.floor(h);
      const frac = h - k;
      const k2 = Math.min(k + 1, m - 1);
      const found = bl <= k ? walk(sorted, owner, w, win.lo, win.hi, bl, k, k2) : null;
      const r = found ?? walk(sorted, owner, w, 0, sorted.length, 0, k, k2)!;
      out[j] = r[0] + (r[1] - r[0]) * frac;
    }
  }
}

/**
 * Positions of `vals` in ascending order: an LSD radix sort on the doubles' bits (four 16-bit
 * digits), ~20× faster than a comparator sort of a million indices. NaN never reaches here.
 * @internal exported for its tests
 */
export function argsort(vals: Float64Array): Uint32Array {
  const n = vals.length;
  const bits = new Uint32Array(vals.buffer, vals.byteOffset, n * 2);
  // Order-preserving unsigned keys: negative numbers get every bit flipped, others the sign bit set.
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const l = bits[2 * i]!; // little-endian: low word first
    const h = bits[2 * i + 1]!;
    if (h & 0x80000000) {
      lo[i] = ~l >>> 0;
      hi[i] = ~h >>> 0;
    } else {
      lo[i] = l;
      hi[i] = (h | 0x80000000) >>> 0;
    }
  }
  let idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  let tmp = new Uint32Array(n);
  const counts = new Uint32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    const key = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(key[idx[i]!]! >>> shift) & 0xffff]! += 1;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = idx[i]!;
      const d = (key[j]! >>> shift) & 0xffff;
      tmp[counts[d]!] = j;
      counts[d]! += 1;
    }
    const t = idx;
    idx = tmp;
    tmp = t;
  }
  return idx;
}

/**
 * The values at replicate ranks k and k2 (k2 = k or k + 1), walking sorted positions [from, to)
 * with `cum` replicate values before `from`; null when they lie beyond `to`.
 */
function walk(
  sorted: Float64Array,
  owner: Uint32Array,
  w: Uint32Array,
  from: number,
  to: number,
  cum: number,
  k: number,
  k2: number,
): [number, number] | null {
  let a = NaN;
  for (let j = from; j < to; j++) {
    const wj = w[owner[j]!]!;
    if (wj === 0) continue;
    const next = cum + wj;
    if (Number.isNaN(a) && next > k) a = sorted[j]!;
    if (next > k2) return [a, sorted[j]!];
    cum = next;
  }
  return null;
}
