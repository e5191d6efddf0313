import { describe, expect, it } from 'vitest';
import { arrivalStream, arrivalTimes, type ArrivalSpec } from './arrivals.ts';
import { Rng } from '../../prng.ts';

/** Gaps between consecutive arrivals (the first gap is from 0), ms. */
function gapsOf(times: ArrayLike<number>): number[] {
  const g: number[] = [];
  let prev = 0;
  for (let i = 0; i < times.length; i++) {
    g.push(times[i]! - prev);
    prev = times[i]!;
  }
  return g;
}

function meanCv(xs: number[]): { mean: number; cv: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length;
  return { mean, cv: Math.sqrt(v) / mean };
}

const N = 10_000;
const spec = (over: Partial<ArrivalSpec>): ArrivalSpec => ({
  rate: 20,
  process: 'poisson',
  burstiness: 1,
  seed: 42,
  normalize: false,
  ...over,
});

describe('arrival processes (fixed seeds; tolerances from the sample size)', () => {
  it('poisson: mean gap 1/rate, CV ≈ 1', () => {
    const { mean, cv } = meanCv(gapsOf(arrivalTimes(spec({}), N)));
    // Standard error of the mean gap: CV/(rate·√N) = 1/(20·100) s; allow 4 SE.
    expect(Math.abs(mean - 50)).toBeLessThan(4 * (50 / Math.sqrt(N)));
    // Sample CV of an exponential: SE ≈ 1/√N·√(excess kurtosis/4 + …) ≈ 0.012 at N = 10⁴; allow ±0.06.
    expect(cv).toBeGreaterThan(0.94);
    expect(cv).toBeLessThan(1.06);
  });

  it('gamma burstiness 0.25: same mean rate, CV = 1/√0.25 = 2', () => {
    const { mean, cv } = meanCv(gapsOf(arrivalTimes(spec({ process: 'gamma', burstiness: 0.25 }), N)));
    expect(Math.abs(mean - 50)).toBeLessThan(4 * ((2 * 50) / Math.sqrt(N)));
    // Gamma(k = 0.25) has excess kurtosis 6/k = 24: SE of the sample SD ≈ √(26/N)/2 ≈ 2.5 % → CV ±0.05 per SE.
    expect(cv).toBeGreaterThan(1.8);
    expect(cv).toBeLessThan(2.2);
  });

  it('gamma burstiness 4 is more regular than Poisson: CV ≈ 0.5', () => {
    const { cv } = meanCv(gapsOf(arrivalTimes(spec({ process: 'gamma', burstiness: 4 }), N)));
    expect(cv).toBeGreaterThan(0.47);
    expect(cv).toBeLessThan(0.53);
  });

  it('constant: every gap exactly 1/rate, CV 0', () => {
    const g = gapsOf(arrivalTimes(spec({ process: 'constant' }), 100));
    for (const x of g) expect(x).toBeCloseTo(50, 9);
    expect(meanCv(g).cv).toBeLessThan(1e-9);
  });

  it('is deterministic: same seed → same schedule; another seed → another', () => {
    const a = arrivalTimes(spec({ process: 'gamma', burstiness: 0.5 }), 500);
    const b = arrivalTimes(spec({ process: 'gamma', burstiness: 0.5 }), 500);
    const c = arrivalTimes(spec({ process: 'gamma', burstiness: 0.5, seed: 43 }), 500);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(a)).not.toEqual(Array.from(c));
  });

  it('normalises like vLLM: the last of N arrivals at N/rate', () => {
    const t = arrivalTimes(spec({ normalize: true }), 200);
    expect(t[199]).toBeCloseTo((200 / 20) * 1000, 6);
    // Normalising only rescales: the ratios of arrival times are kept.
    const raw = arrivalTimes(spec({ normalize: false }), 200);
    expect(t[50]! / t[150]!).toBeCloseTo(raw[50]! / raw[150]!, 9);
  });

  it('rate Infinity: everything at 0', () => {
    expect(Array.from(arrivalTimes(spec({ rate: Infinity }), 5))).toEqual([0, 0, 0, 0, 0]);
  });

  it('ramp-up from 0 to 10 req/s over 10 s: arrivals where the integrated rate says', () => {
    // Λ(t) = t²/2 for t ≤ 10 s, then 50 + 10(t − 10). Constant process: arrival k at Λ = k.
    const s = spec({ process: 'constant', rate: 10, rampUp: { startRate: 0, durationS: 10 } });
    const t = arrivalTimes(s, 60);
    expect(t[0]! / 1000).toBeCloseTo(Math.sqrt(2), 9);
    expect(t[49]! / 1000).toBeCloseTo(10, 9);
    expect(t[59]! / 1000).toBeCloseTo(11, 9);
  });

  it('the unbounded stream is the un-normalised schedule', () => {
    const it = arrivalStream(spec({ seed: 7 }));
    const head = Array.from({ length: 50 }, () => it.next().value);
    expect(head).toEqual(Array.from(arrivalTimes(spec({ seed: 7 }), 50)));
  });
});

describe('Rng', () => {
  it('uniform in [0,1) with mean ½; gamma with the asked mean and variance', () => {
    const r = new Rng(1, 'x');
    const u = Array.from({ length: N }, () => r.next());
    expect(Math.min(...u)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...u)).toBeLessThan(1);
    expect(Math.abs(meanCv(u).mean - 0.5)).toBeLessThan(4 * (0.2887 / Math.sqrt(N)));
    const g = Array.from({ length: N }, () => r.gamma(3, 2));
    const m = meanCv(g);
    expect(Math.abs(m.mean - 6)).toBeLessThan(4 * (Math.sqrt(12) / Math.sqrt(N)));
    expect(m.cv).toBeCloseTo(1 / Math.sqrt(3), 1);
  });
  it('salted streams differ', () => {
    expect(new Rng(1, 'a').next()).not.toBe(new Rng(1, 'b').next());
  });
});
