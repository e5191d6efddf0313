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
import { ClusterData } from './bootstrap-cluster.ts';
import {
  specKey,
  valuesOf,
  type SampleMetric,
  type SampleSpec,
  type SampleStat,
} from './bootstrap-samples.ts';
import { blankOutcome } from './outcome.ts';
import { Rng } from '../prng.ts';
import type { RequestOutcome } from './run-types.ts';

export const BOOTSTRAP_REPLICATES = 1000;
export const BOOTSTRAP_SEED = 20261125;
export const CI_LEVEL = 0.95;

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

export interface RunReplicates {
  /** Per spec key (`metric:stat`): the statistic on the data, and on each replicate. */
  point: Map<string, number>;
  replicates: Map<string, Float64Array>;
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
