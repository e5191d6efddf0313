import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentileSorted } from '../../stats/summary.ts';
import { bootstrapRun, diffInterval, outcomesFromCounts } from './bootstrap.ts';
import { argsort } from './bootstrap-cluster.ts';
import { specKey, type SampleSpec } from './bootstrap-samples.ts';
import { Rng } from '../../prng.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import { computeRunSummary } from '../summary/summary.ts';

function outcome(over: Partial<RequestOutcome>): RequestOutcome {
  return {
    ...outcomesFromCounts(1, 0)[0]!,
    ...over,
  };
}

/** Requests with a per-request level (a slow request's gaps are all slow) and noise around it. */
function synthRun(rng: Rng, n: number, scale: number, gaps = 8, failShare = 0): RequestOutcome[] {
  const out: RequestOutcome[] = [];
  for (let i = 0; i < n; i++) {
    const level = 20 * scale * Math.exp(0.4 * rng.normal());
    const itl = Array.from({ length: gaps }, () => level * Math.exp(0.3 * rng.normal()));
    const ttft = 100 * scale * Math.exp(0.5 * rng.normal());
    const e2e = ttft + itl.reduce((a, b) => a + b, 0);
    out.push(
      outcome({
        ok: rng.next() >= failShare,
        ttftMs: ttft,
        e2eMs: e2e,
        tpotMs: (e2e - ttft) / gaps,
        outputTokens: gaps + 1,
        itlChunkMs: itl,
        itlTokenMs: itl,
      }),
    );
  }
  return out;
}

describe('argsort', () => {
  it('orders any doubles, negatives, zeros and infinities included', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true }), { maxLength: 300 }), (xs) => {
        const v = Float64Array.from(xs);
        const idx = argsort(v);
        const got = Array.from(idx, (i) => v[i]!);
        const want = [...xs].sort((a, b) => a - b);
        // -0 and 0 compare equal; the order between them does not matter.
        expect(got.map((x) => (x === 0 ? 0 : x))).toEqual(want.map((x) => (x === 0 ? 0 : x)));
        expect(new Set(idx).size).toBe(xs.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('bootstrapRun', () => {
  it('its point estimates are the summary’s numbers to the last digit', () => {
    const o = synthRun(new Rng(3, 't'), 300, 1, 12, 0.1);
    const s = computeRunSummary({ outcomes: o, durationS: 10, config: {} as never });
    const specs: SampleSpec[] = (['ttft', 'tpot', 'itl', 'e2el'] as const).flatMap((metric) =>
      (['mean', 50, 90, 99] as const).map((stat) => ({ metric, stat })),
    );
    const r = bootstrapRun(o, [...specs, { metric: 'failed', stat: 'mean' }], { replicates: 4 });
    for (const m of ['ttft', 'tpot', 'itl', 'e2el'] as const) {
      const st = s.stats[m]!;
      expect(r.point.get(`${m}:mean`)).toBeCloseTo(st.mean, 9);
      expect(r.point.get(`${m}:50`)).toBe(st.median);
      expect(r.point.get(`${m}:90`)).toBe(st.p90);
      expect(r.point.get(`${m}:99`)).toBe(st.p99);
    }
    expect(r.point.get('failed:mean')).toBe(s.vllm.failed / o.length);
  });

  it('a replicate’s quantile equals numpy’s on the resample written out in full (window and fallback)', () => {
    // Property: whatever the weights, the windowed walk gives the exact pooled percentile. Few
    // requests with many values make replicates fall outside the window, exercising the fallback.
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 30 }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.constantFrom(50, 90, 99),
        (lists, seed, p) => {
          const o = lists.map((l) => outcome({ itlChunkMs: l }));
          const spec: SampleSpec = { metric: 'itl', stat: p as 50 | 90 | 99 };
          const B = 20;
          const r = bootstrapRun(o, [spec, { metric: 'itl', stat: 'mean' }], { replicates: B, seed });
          // Replay the same weights: the stream is the run's own.
          const rng = new Rng(seed, '');
          const n = o.length;
          for (let b = 0; b < B; b++) {
            const w = new Uint32Array(n);
            for (let k = 0; k < n; k++) w[Math.floor((rng.nextU32() * n) / 4294967296)]! += 1;
            const all: number[] = [];
            lists.forEach((l, i) => {
              for (let c = 0; c < w[i]!; c++) all.push(...l);
            });
            const got = r.replicates.get(specKey(spec))![b]!;
            const mean = r.replicates.get('itl:mean')![b]!;
            if (all.length === 0) {
              expect(got).toBeNaN();
              expect(mean).toBeNaN();
              continue;
            }
            all.sort((x, y) => x - y);
            expect(got).toBeCloseTo(percentileSorted(all, p), 9);
            expect(mean).toBeCloseTo(all.reduce((x, y) => x + y, 0) / all.length, 9);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the same inputs give the same replicates; another salt gives others', () => {
    const o = synthRun(new Rng(1, 'x'), 50, 1);
    const a = bootstrapRun(o, [{ metric: 'ttft', stat: 99 }], { replicates: 50, salt: 'A' });
    const b = bootstrapRun(o, [{ metric: 'ttft', stat: 99 }], { replicates: 50, salt: 'A' });
    const c = bootstrapRun(o, [{ metric: 'ttft', stat: 99 }], { replicates: 50, salt: 'B' });
    expect(Array.from(a.replicates.get('ttft:99')!)).toEqual(Array.from(b.replicates.get('ttft:99')!));
    expect(Array.from(a.replicates.get('ttft:99')!)).not.toEqual(Array.from(c.replicates.get('ttft:99')!));
  });
});

describe('diffInterval', () => {
  it('covers a known difference about 95 % of the time (synthetic runs, many seeds)', () => {
    // B is 10 % slower than A in every request's level: the true relative difference of every
    // mean and quantile of TTFT and of pooled ITL is exactly +10 %.
    const trials = 500;
    const hits = { 'ttft:mean': 0, 'ttft:90': 0, 'itl:mean': 0, 'itl:50': 0 };
    const specs: SampleSpec[] = [
      { metric: 'ttft', stat: 'mean' },
      { metric: 'ttft', stat: 90 },
      { metric: 'itl', stat: 'mean' },
      { metric: 'itl', stat: 50 },
    ];
    for (let t = 0; t < trials; t++) {
      const rng = new Rng(1000 + t, 'coverage');
      const a = bootstrapRun(synthRun(rng, 300, 1), specs, { replicates: 400, seed: t, salt: 'A' });
      const b = bootstrapRun(synthRun(rng, 300, 1.1), specs, { replicates: 400, seed: t, salt: 'B' });
      for (const k of Object.keys(hits) as (keyof typeof hits)[]) {
        const ci = diffInterval(a.replicates.get(k)!, b.replicates.get(k)!, 'relative')!;
        if (ci[0] <= 0.1 && 0.1 <= ci[1]) hits[k]++;
      }
    }
    for (const [k, h] of Object.entries(hits)) {
      const coverage = h / trials;
      console.log(`coverage ${k}: ${(coverage * 100).toFixed(1)} %`);
      expect(coverage, k).toBeGreaterThanOrEqual(0.93);
      expect(coverage, k).toBeLessThanOrEqual(0.97);
    }
  }, 120_000);

  it('a difference that is there is found; the same requests twice are not distinguishable', () => {
    const rng = new Rng(5, 'd');
    const spec: SampleSpec = { metric: 'itl', stat: 99 };
    const runA = synthRun(rng, 2000, 1);
    const a = bootstrapRun(runA, [spec], { salt: 'A' });
    const same = bootstrapRun(runA, [spec], { salt: 'B' });
    const slower = bootstrapRun(synthRun(rng, 2000, 1.3), [spec], { salt: 'C' });
    const ciSame = diffInterval(a.replicates.get('itl:99')!, same.replicates.get('itl:99')!, 'relative')!;
    const ciSlow = diffInterval(a.replicates.get('itl:99')!, slower.replicates.get('itl:99')!, 'relative')!;
    expect(ciSame[0]).toBeLessThan(0);
    expect(ciSame[1]).toBeGreaterThan(0);
    // Found, and plausibly sized: the interval clears zero and reaches toward the true +30 %.
    expect(ciSlow[0]).toBeGreaterThan(0.05);
    expect(ciSlow[1]).toBeGreaterThan(0.2);
    expect(ciSlow[1] - ciSlow[0]).toBeLessThan(0.4);
  });

  it('absolute differences for shares; too many undefined replicates give no interval', () => {
    const a = bootstrapRun(outcomesFromCounts(90, 10), [{ metric: 'failed', stat: 'mean' }], { salt: 'A' });
    const b = bootstrapRun(outcomesFromCounts(60, 40), [{ metric: 'failed', stat: 'mean' }], { salt: 'B' });
    const ci = diffInterval(a.replicates.get('failed:mean')!, b.replicates.get('failed:mean')!, 'absolute')!;
    expect(ci[0]).toBeGreaterThan(0.15);
    expect(ci[1]).toBeLessThan(0.45);
    // One successful TTFT in ten requests: most replicates draw none.
    const sparse = [outcome({ ttftMs: 5 }), ...outcomesFromCounts(0, 9)];
    const r = bootstrapRun(sparse, [{ metric: 'ttft', stat: 'mean' }], { replicates: 200 });
    expect(
      diffInterval(r.replicates.get('ttft:mean')!, r.replicates.get('ttft:mean')!, 'relative'),
    ).toBeNull();
  });
});
