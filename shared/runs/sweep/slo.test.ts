import { describe, expect, it } from 'vitest';
import { blankOutcome } from '../summary/outcome.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import { judgeSlo, parseSlo } from './slo.ts';
import { SloSearch } from './search.ts';

const outcome = (ttftMs: number, ok = true): RequestOutcome => ({
  ...blankOutcome(ok),
  ttftMs,
  e2eMs: ttftMs + 100,
});
const many = (f: (i: number) => number, n = 200): RequestOutcome[] =>
  Array.from({ length: n }, (_, i) => outcome(f(i)));

describe('parseSlo', () => {
  it('reads terms with their statistic, metric, operator and limit', () => {
    const r = parseSlo('p99_ttft_ms<=500, mean_tpot_ms<50,error_rate<=0.01');
    if (!r.ok) throw new Error(r.error);
    expect(r.value.map((t) => [t.key, t.spec.metric, t.spec.stat, t.op, t.limit])).toEqual([
      ['p99_ttft_ms', 'ttft', 99, '<=', 500],
      ['mean_tpot_ms', 'tpot', 'mean', '<', 50],
      ['error_rate', 'failed', 'mean', '<=', 0.01],
    ]);
  });

  it('refuses what it does not know, saying what it knows', () => {
    for (const bad of ['', 'p99_ttft<=5', 'p42_ttft_ms<=5', 'p99_ttft_ms>=5', 'p99_ttft_ms<=abc']) {
      const r = parseSlo(bad);
      expect(r.ok, bad).toBe(false);
    }
    const r = parseSlo('p95_foo_ms<=1');
    expect(!r.ok && r.error).toContain('error_rate');
  });
});

describe('judgeSlo', () => {
  const terms = (s: string) => {
    const r = parseSlo(s);
    if (!r.ok) throw new Error(r.error);
    return r.value;
  };

  it('pass and fail when the interval is clear of the limit; noise when it straddles it', () => {
    const out = many((i) => 100 + (i % 100)); // p99 ≈ 198
    expect(judgeSlo(terms('p99_ttft_ms<=300'), out).verdict).toBe('pass');
    expect(judgeSlo(terms('p99_ttft_ms<=150'), out).verdict).toBe('fail');
    const v = judgeSlo(terms('p99_ttft_ms<=198'), out);
    expect(v.verdict).toBe('noise');
    const c = v.checks[0]!;
    expect(c.ci![0]).toBeLessThanOrEqual(198);
    expect(c.ci![1]).toBeGreaterThan(198);
    expect(c.value).toBeCloseTo(198, 0);
  });

  it('a fail anywhere fails the step; no successful request fails a latency SLO', () => {
    const out = many((i) => 100 + (i % 100));
    expect(judgeSlo(terms('p99_ttft_ms<=300,p50_ttft_ms<=100'), out).verdict).toBe('fail');
    const none = Array.from({ length: 10 }, () => outcome(0, false));
    const v = judgeSlo(terms('p99_ttft_ms<=300'), none);
    expect(v.verdict).toBe('fail');
    expect(judgeSlo(terms('error_rate<=0.5'), none).verdict).toBe('fail');
  });
});

describe('SloSearch', () => {
  /** A server that meets the SLO below `cap` exactly: the search is pure bookkeeping over verdicts. */
  const run = (s: SloSearch, cap: number, budget: number): number[] => {
    const loads: number[] = [];
    for (let n = 0; n < budget; n++) {
      const next = s.next();
      if (!next) break;
      loads.push(next.load);
      const pass = next.load <= cap;
      s.record(next.load, { verdict: pass ? 'pass' : 'fail', checks: [] }, 1);
    }
    return loads;
  };

  it('rates: from the ceiling, halves down, then bisects to within precision', () => {
    const s = new SloSearch({ kind: 'rate', precision: 0.05 }, 100);
    const loads = run(s, 61, 20);
    expect(loads[0]).toBe(100);
    expect(loads[1]).toBe(50);
    const a = s.answer();
    expect(a.reason).toBe('converged');
    expect(a.passing!.load).toBeLessThanOrEqual(61);
    expect((a.failing!.load - a.passing!.load) / a.passing!.load).toBeLessThanOrEqual(0.05);
    expect(loads.length).toBeLessThanOrEqual(7);
  });

  it('rates: a pass at the ceiling climbs 25 % at a time until a fail', () => {
    const s = new SloSearch({ kind: 'rate' }, 10);
    const loads = run(s, 14, 3);
    expect(loads).toEqual([10, 12.5, 15.63]);
    expect(s.answer().reason).toBe('budget');
  });

  it('concurrency: doubles from 1, bisects to adjacent integers', () => {
    const s = new SloSearch({ kind: 'concurrency' });
    const loads = run(s, 11, 20);
    expect(loads.slice(0, 5)).toEqual([1, 2, 4, 8, 16]);
    const a = s.answer();
    expect([a.passing!.load, a.failing!.load]).toEqual([11, 12]);
  });

  it('none passes: stops at the lowest load', () => {
    const s = new SloSearch({ kind: 'concurrency' });
    expect(run(s, 0, 10)).toEqual([1]);
    expect(s.answer()).toMatchObject({ passing: null, reason: 'none-passes' });
  });

  it('noise repeats the load, then the point estimate decides and says so', () => {
    const s = new SloSearch({ kind: 'rate', maxRuns: 2 }, 10);
    const noise = {
      verdict: 'noise' as const,
      checks: [
        {
          key: 'p99_ttft_ms',
          limit: 1,
          value: 0.9,
          ci: [0.5, 1.2] as [number, number],
          verdict: 'noise' as const,
          pointMeets: true,
        },
      ],
    };
    expect(s.next()).toEqual({ load: 10, repeat: false });
    s.record(10, noise, 1);
    expect(s.next()).toEqual({ load: 10, repeat: true });
    s.record(10, noise, 2);
    expect(s.next()).toEqual({ load: 12.5, repeat: false });
    expect(s.answer().passing).toEqual({ load: 10, decidedBy: 'point', runs: 2 });
  });
});
