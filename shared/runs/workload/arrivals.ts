/**
 * Arrival schedules: when each request of a run arrives, as offsets (ms) from the run's start.
 *
 * Processes, as `vllm bench serve` defines them (vllm/benchmarks/serve.py `get_request`):
 * - poisson: exponential gaps of mean 1/rate (= gamma with burstiness 1);
 * - gamma: gaps ~ Gamma(shape = burstiness, scale = 1/(rate·burstiness)): mean 1/rate, coefficient
 *   of variation 1/√burstiness — burstiness < 1 is burstier than Poisson, > 1 more regular;
 * - constant: gaps of exactly 1/rate (vLLM's burstiness = ∞);
 * - rate = Infinity: every request arrives at 0.
 * Like vLLM, the first request arrives after one gap (offsets are cumulative sums of gaps), and with
 * a known request count and no ramp-up the schedule is rescaled so the last arrival is at N/rate
 * ("normalize"; vLLM does it to stabilise throughput across seeds).
 *
 * Ramp-up (Tokenscope's, time-based; vLLM ramps per request index): the rate rises linearly from
 * `startRate` to `rate` over `durationS`, then holds. Gaps are drawn at unit rate and mapped
 * through the integrated rate Λ(t) (time-rescaling theorem), which keeps the process's shape and
 * works from a start rate of 0.
 */
import { Rng } from '../../prng.ts';

type ArrivalProcess = 'constant' | 'poisson' | 'gamma';

export interface ArrivalSpec {
  /** Requests per second; Infinity = all at once. */
  rate: number;
  process: ArrivalProcess;
  /** Gamma shape; ignored for poisson (1) and constant. */
  burstiness: number;
  rampUp?: { startRate: number; durationS: number } | null;
  seed: number;
  /** Rescale a finite schedule so the last arrival is at N/rate (vLLM). Default true. */
  normalize?: boolean;
}

/** One gap at unit rate: mean 1, the process's own dispersion. */
function unitGap(spec: ArrivalSpec, rng: Rng): number {
  switch (spec.process) {
    case 'constant':
      return 1;
    case 'poisson':
      return rng.exponential(1);
    case 'gamma':
      return rng.gamma(spec.burstiness, 1 / spec.burstiness);
  }
}

/** Integrated rate Λ(t) (expected arrivals by t seconds) and its inverse, for a linear ramp. */
function rampFunctions(rate: number, ramp: { startRate: number; durationS: number }) {
  const r0 = ramp.startRate;
  const D = ramp.durationS;
  const k = (rate - r0) / D; // slope, req/s²
  const lambdaD = r0 * D + (k * D * D) / 2;
  const inv = (x: number): number => {
    if (x >= lambdaD) return D + (x - lambdaD) / rate;
    // Solve r0·t + k·t²/2 = x for t in [0, D].
    if (Math.abs(k) < 1e-12) return x / r0;
    return (-r0 + Math.sqrt(r0 * r0 + 2 * k * x)) / k;
  };
  return { inv };
}

/**
 * Unbounded stream of arrival offsets in ms (no normalisation: the run's length is unknown).
 * Used for duration-bounded runs; `arrivalTimes` is the same stream, cut and normalised.
 */
export function* arrivalStream(spec: ArrivalSpec): Generator<number, never, undefined> {
  if (!(spec.rate > 0)) throw new Error('rate must be > 0');
  if (!Number.isFinite(spec.rate)) {
    for (;;) yield 0;
  }
  const rng = new Rng(spec.seed, 'arrivals');
  const ramp = spec.rampUp ? rampFunctions(spec.rate, spec.rampUp) : null;
  let x = 0; // operational time: expected number of arrivals so far
  for (;;) {
    x += unitGap(spec, rng);
    const tS = ramp ? ramp.inv(x) : x / spec.rate;
    yield tS * 1000;
  }
}

/** Arrival offsets (ms) of `n` requests, normalised like vLLM when there is no ramp-up. */
export function arrivalTimes(spec: ArrivalSpec, n: number): Float64Array {
  const out = new Float64Array(n);
  const it = arrivalStream(spec);
  for (let i = 0; i < n; i++) out[i] = it.next().value;
  const last = n > 0 ? out[n - 1]! : 0;
  if (spec.normalize !== false && !spec.rampUp && Number.isFinite(spec.rate) && last !== 0) {
    const f = ((n / spec.rate) * 1000) / last;
    for (let i = 0; i < n; i++) out[i] = out[i]! * f;
  }
  return out;
}
