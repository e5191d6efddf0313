/**
 * Confidence intervals for differences between runs: the cluster bootstrap.
 *
 * A difference such as "ITL p99 −13.9 %" between two runs may be noise. Each run's requests are
 * resampled with replacement (a request is the unit: the ITL gaps of one request stay together, so
 * a slow request's hundred slow gaps are drawn, or not, as one), the statistic is recomputed on the
 * resample exactly as the summary computes it (pooled values, numpy's linear percentile, the plain
 * mean), and the spread of (B − A)/A over the replicates gives the interval: the 2.5th and 97.5th
 * percentiles of the replicate differences (the percentile method). Runs are resampled
 * independently, each from its own seeded stream, so the same files always give the same intervals.
 *
 * Speed: a replicate draws one weight per request (how many times it was picked) and every
 * statistic of the run is computed from the same weights (a joint bootstrap: the number of
 * successful requests varies between replicates, as it would between runs). A mean costs one pass
 * over the requests. A pooled quantile would cost a pass over every value (a million ITL gaps), so
 * it walks only a window of the sorted values around the estimate, wide enough (±6 standard errors
 * of the share below the estimate, from the requests' own spread) that a replicate's quantile
 * practically never falls outside; when one does, that replicate walks everything. The result is
 * exact, not binned: 10,000 requests with 100 gaps each take well under 2 s (BENCHMARKS.md).
 */
import { percentileSorted } from '../stats/summary.ts';
import { blankOutcome } from './outcome.ts';
import { Rng } from '../prng.ts';
import type { RequestOutcome } from './run-types.ts';

export const BOOTSTRAP_REPLICATES = 1000;
export const BOOTSTRAP_SEED = 20261125;
export const CI_LEVEL = 0.95;

/** The per-request values a statistic pools (one list per request, as the summary takes them). */
export type SampleMetric =
  'ttft' | 'tpot' | 'itl' | 'itl_every_gap' | 'itl_per_token' | 'itl_per_token_every_gap' | 'e2el' | 'failed';

/** A statistic: the mean, or a percentile (numpy linear) of the pooled values. */
export type SampleStat = 'mean' | 50 | 90 | 99;

export interface SampleSpec {
  metric: SampleMetric;
  stat: SampleStat;
}

/**
 * A request's values for a metric, exactly as shared/runs/summary.ts pools them: successful
 * requests only (failed requests are in `failed`, as 1, successes as 0); TPOT only for more than
 * one output token; Tokenscope's ITL leaves coalesced gaps out where known.
 */
export function valuesOf(o: RequestOutcome, m: SampleMetric): readonly number[] | null {
  if (m === 'failed') return [o.ok ? 0 : 1];
  if (!o.ok) return null;
  switch (m) {
    case 'ttft':
      return o.ttftMs === null ? null : [o.ttftMs];
    case 'tpot':
      return o.outputTokens > 1 && o.tpotMs !== null ? [o.tpotMs] : null;
    case 'e2el':
      return o.e2eMs === null ? null : [o.e2eMs];
    case 'itl':
      return o.itlChunkMeasuredMs ?? o.itlChunkMs;
    case 'itl_every_gap':
      return o.itlChunkMs;
    case 'itl_per_token':
      return o.itlTokenMeasuredMs ?? o.itlTokenMs;
    case 'itl_per_token_every_gap':
      return o.itlTokenMs ?? o.itlTokenMeasuredMs ?? null;
  }
}

/** One metric of one run, laid out for resampling. */
class ClusterData {
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

  constructor(lists: readonly (readonly number[] | null)[]) {
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

/** Whether two metrics' per-request lists are the same values (ITL per token at one token per chunk). */
function sameLists(
  a: readonly (readonly number[] | null)[],
  b: readonly (readonly number[] | null)[],
): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (!x || !y || x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  return true;
}

/**
 * Positions of `vals` in ascending order: an LSD radix sort on the doubles' bits (four 16-bit
 * digits), ~20× faster than a comparator sort of a million indices. NaN never reaches here.
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

export interface RunReplicates {
  /** Per spec key (`metric:stat`): the statistic on the data, and on each replicate. */
  point: Map<string, number>;
  replicates: Map<string, Float64Array>;
}

export const specKey = (s: SampleSpec): string => `${s.metric}:${s.stat}`;

/**
 * Every statistic in `specs` on `replicates` resamples of a run's requests, from the stream
 * (seed, salt): the same inputs always give the same numbers.
 */
export function bootstrapRun(
  outcomes: readonly RequestOutcome[],
  specs: readonly SampleSpec[],
  opts: BootstrapOptions = {},
): RunReplicates {
  return drain(bootstrapSteps(outcomes, specs, opts));
}

export interface BootstrapOptions {
  replicates?: number;
  seed?: number;
  salt?: string;
  /**
   * Repeats pooled into one run: the sizes of their contiguous blocks of outcomes. Requests are
   * then resampled within each repeat (a stratified bootstrap: every replicate has each repeat's
   * number of requests), so the repeats' own sizes are kept.
   */
  strata?: readonly number[] | null;
}

/** Runs a step generator to its end. */
export function drain<T>(g: Generator<void, T>): T {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
  }
}

/**
 * Runs a step generator in slices of about `sliceMs`, giving the event loop back between them (a
 * UI stays responsive while a comparison of large runs computes); stops when `signal` aborts.
 */
export async function drainAsync<T>(
  g: Generator<void, T>,
  o: { sliceMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const slice = o.sliceMs ?? 12;
  for (;;) {
    const t0 = performance.now();
    for (;;) {
      if (o.signal?.aborted) throw new Error('aborted');
      const r = g.next();
      if (r.done) return r.value;
      if (performance.now() - t0 >= slice) break;
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
  }
}

/** bootstrapRun as steps: yields after the setup of each metric and after each replicate. */
export function* bootstrapSteps(
  outcomes: readonly RequestOutcome[],
  specs: readonly SampleSpec[],
  opts: BootstrapOptions = {},
): Generator<void, RunReplicates> {
  const B = opts.replicates ?? BOOTSTRAP_REPLICATES;
  const n = outcomes.length;
  // One layout per distinct metric; metrics whose lists are the same values share one (and its
  // replicates): ITL per token is ITL per chunk when every chunk is one token.
  const data = new Map<SampleMetric, ClusterData>();
  const lists = new Map<SampleMetric, (readonly number[] | null)[]>();
  for (const s of specs) {
    if (data.has(s.metric)) continue;
    const l = outcomes.map((o) => valuesOf(o, s.metric));
    const twin = [...lists].find(([, other]) => sameLists(l, other));
    data.set(s.metric, twin ? data.get(twin[0])! : new ClusterData(l));
    lists.set(s.metric, l);
    yield;
  }
  // Per distinct layout: the statistics asked of it, computed together per replicate.
  const jobs = new Map<ClusterData, { stats: SampleStat[]; keys: string[][] }>();
  for (const s of specs) {
    const d = data.get(s.metric)!;
    let job = jobs.get(d);
    if (!job) jobs.set(d, (job = { stats: [], keys: [] }));
    const at = job.stats.indexOf(s.stat);
    if (at < 0) {
      job.stats.push(s.stat);
      job.keys.push([specKey(s)]);
    } else if (!job.keys[at]!.includes(specKey(s))) job.keys[at]!.push(specKey(s));
  }
  const point = new Map<string, number>();
  const replicates = new Map<string, Float64Array>();
  const ones = new Uint32Array(n).fill(1);
  for (const [d, job] of jobs) {
    const out = new Float64Array(job.stats.length);
    d.evalAll(ones, job.stats, out);
    job.keys.forEach((ks, j) => {
      const reps = new Float64Array(B);
      for (const k of ks) {
        point.set(k, out[j]!);
        replicates.set(k, reps);
      }
    });
  }
  if (n === 0) {
    for (const r of replicates.values()) r.fill(NaN);
    return { point, replicates };
  }
  const rng = new Rng(opts.seed ?? BOOTSTRAP_SEED, opts.salt ?? '');
  const w = new Uint32Array(n);
  const strata = opts.strata && opts.strata.reduce((a, b) => a + b, 0) === n ? opts.strata : [n];
  const jobList = [...jobs].map(([d, job]) => ({
    d,
    stats: job.stats,
    out: new Float64Array(job.stats.length),
    reps: job.keys.map((ks) => replicates.get(ks[0]!)!),
  }));
  for (let b = 0; b < B; b++) {
    w.fill(0);
    let from = 0;
    for (const size of strata) {
      // 32 random bits scaled to [0, size): exact while size·2^32 < 2^53.
      if (size < 1 << 21)
        for (let r = 0; r < size; r++) w[from + Math.floor((rng.nextU32() * size) / 4294967296)]! += 1;
      else for (let r = 0; r < size; r++) w[from + Math.floor(rng.next() * size)]! += 1;
      from += size;
    }
    for (const job of jobList) {
      job.d.evalAll(w, job.stats, job.out);
      for (let j = 0; j < job.reps.length; j++) job.reps[j]![b] = job.out[j]!;
    }
    yield;
  }
  return { point, replicates };
}

/**
 * The interval of the difference of run X against the baseline A over paired replicates:
 * relative ((X − A)/|A|) or absolute (X − A). Replicates where either is undefined (no values
 * drawn, A = 0) are left out; null when more than 1 % of them are (too little data to say).
 */
export function diffInterval(
  base: Float64Array,
  other: Float64Array,
  mode: 'relative' | 'absolute',
  level = CI_LEVEL,
): [number, number] | null {
  const B = Math.min(base.length, other.length);
  const d = new Float64Array(B);
  let k = 0;
  for (let b = 0; b < B; b++) {
    const a = base[b]!;
    const x = other[b]!;
    if (!Number.isFinite(a) || !Number.isFinite(x)) continue;
    if (mode === 'relative') {
      if (a === 0) continue;
      d[k++] = (x - a) / Math.abs(a);
    } else d[k++] = x - a;
  }
  if (B === 0 || k < 0.99 * B) return null;
  const s = d.subarray(0, k).sort();
  const tail = ((1 - level) / 2) * 100;
  return [percentileSorted(s, tail), percentileSorted(s, 100 - tail)];
}

/**
 * A run known only by its counts (an import without per-request arrays): its failure statistic
 * can still be resampled, from `completed` successes and `failed` failures.
 */
export function outcomesFromCounts(completed: number, failed: number): RequestOutcome[] {
  const out: RequestOutcome[] = [];
  const mk = blankOutcome;
  for (let i = 0; i < completed; i++) out.push(mk(true));
  for (let i = 0; i < failed; i++) out.push(mk(false));
  return out;
}
