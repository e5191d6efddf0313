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
import { percentileSorted } from '../../stats/summary.ts';
import { ClusterData } from './bootstrap-cluster.ts';
import { RateData, type RateBasis, type Resampled } from './bootstrap-rate.ts';
import { driftFactor, widen } from './bootstrap-repeats.ts';
import {
  isRateMetric,
  specKey,
  valuesOf,
  type SampleMetric,
  type SampleSpec,
  type SampleStat,
} from './bootstrap-samples.ts';
import { blankOutcome } from '../summary/outcome.ts';
import { Rng } from '../../prng.ts';
import type { RequestOutcome } from '../summary/outcome.ts';

const BOOTSTRAP_REPLICATES = 1000;
const BOOTSTRAP_SEED = 20261125;
export const CI_LEVEL = 0.95;

/** Whether two metrics' per-request lists are the same values (ITL per token at one token per chunk). */
function sameLists(
  a: readonly (ArrayLike<number> | null)[],
  b: readonly (ArrayLike<number> | null)[],
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

export interface RunReplicates {
  /** Per spec key (`metric:stat`): the statistic on the data, and on each replicate. */
  point: Map<string, number>;
  replicates: Map<string, Float64Array>;
  /** Per quantile's key: how many requests hold a value above the estimate (what decides it). */
  tail: Map<string, number>;
  /**
   * Pooled repeats only, per key: the factor the replicates were widened by for the drift between
   * the repeats (bootstrap-repeats.ts; 1: they agree as well as sampling explains).
   */
  drift: Map<string, number>;
}

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
  /** What the run's rates (throughputs) are measured over; without it they have no replicates. */
  rates?: RateBasis | null;
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
  const data = new Map<SampleMetric, Resampled>();
  const lists = new Map<SampleMetric, (ArrayLike<number> | null)[]>();
  for (const s of specs) {
    if (data.has(s.metric)) continue;
    if (isRateMetric(s.metric)) {
      data.set(s.metric, new RateData(outcomes, s.metric, opts.rates ?? null));
      continue;
    }
    const l = outcomes.map((o) => valuesOf(o, s.metric));
    const twin = [...lists].find(([, other]) => sameLists(l, other));
    data.set(s.metric, twin ? data.get(twin[0])! : new ClusterData(l));
    lists.set(s.metric, l);
    yield;
  }
  // Per distinct layout: the statistics asked of it, computed together per replicate.
  const jobs = new Map<Resampled, { stats: SampleStat[]; keys: string[][] }>();
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
  const tail = new Map<string, number>();
  const drift = new Map<string, number>();
  const ones = new Uint32Array(n).fill(1);
  for (const [d, job] of jobs) {
    const out = new Float64Array(job.stats.length);
    d.evalAll(ones, job.stats, out);
    job.keys.forEach((ks, j) => {
      const reps = new Float64Array(B);
      const st = job.stats[j]!;
      const above = d instanceof ClusterData && st !== 'mean' ? d.requestsAbove(out[j]!) : null;
      for (const k of ks) {
        point.set(k, out[j]!);
        replicates.set(k, reps);
        if (above !== null) tail.set(k, above);
      }
    });
  }
  if (n === 0) {
    for (const r of replicates.values()) r.fill(NaN);
    return { point, replicates, tail, drift };
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
  if (strata.length > 1)
    for (const job of jobList) addDrift(job, strata, point, drift, jobs.get(job.d)!.keys);
  return { point, replicates, tail, drift };
}

/** Widens a layout's replicates by the drift between the pooled repeats (bootstrap-repeats.ts). */
function addDrift(
  job: { d: Resampled; stats: SampleStat[]; out: Float64Array; reps: Float64Array[] },
  strata: readonly number[],
  point: Map<string, number>,
  drift: Map<string, number>,
  keys: string[][],
): void {
  const n = strata.reduce((a, b) => a + b, 0);
  const per = job.stats.map(() => [] as number[]);
  let from = 0;
  for (const size of strata) {
    const mask = new Uint32Array(n);
    mask.fill(1, from, from + size);
    job.d.evalAll(mask, job.stats, job.out);
    per.forEach((p, j) => p.push(job.out[j]!));
    from += size;
  }
  job.reps.forEach((reps, j) => {
    const f = driftFactor(reps, per[j]!, strata);
    widen(reps, point.get(keys[j]![0]!)!, f);
    for (const k of keys[j]!) drift.set(k, f);
  });
}

/**
 * The difference of run X against the baseline A per paired replicate: relative ((X − A)/|A|) or
 * absolute (X − A); NaN where either is undefined (no values drawn, A = 0). Null when more than
 * 1 % of them are (too little data to say).
 */
export function diffReplicates(
  base: Float64Array,
  other: Float64Array,
  mode: 'relative' | 'absolute',
): Float64Array | null {
  const B = Math.min(base.length, other.length);
  const d = new Float64Array(B);
  let k = 0;
  for (let b = 0; b < B; b++) {
    const a = base[b]!;
    const x = other[b]!;
    const v = mode === 'relative' ? (a === 0 ? NaN : (x - a) / Math.abs(a)) : x - a;
    d[b] = v;
    if (Number.isFinite(v)) k++;
  }
  return B === 0 || k < 0.99 * B ? null : d;
}

/**
 * The interval of the difference of run X against the baseline A over paired replicates
 * (diffReplicates): the percentiles (1 − level)/2 and (1 + level)/2 of the defined ones.
 */
export function diffInterval(
  base: Float64Array,
  other: Float64Array,
  mode: 'relative' | 'absolute',
  level = CI_LEVEL,
): [number, number] | null {
  const d = diffReplicates(base, other, mode);
  if (!d) return null;
  const s = d.filter(Number.isFinite).sort();
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
