import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng.ts';
import { bootstrapRun, diffInterval, outcomesFromCounts } from './bootstrap.ts';
import { failureRateInterval, wilson, zOf } from './failure-interval.ts';

describe('failure-rate intervals', () => {
  it('z and Wilson’s interval match their tables', () => {
    expect(zOf(0.95)).toBeCloseTo(1.959964, 5);
    expect(zOf(0.98)).toBeCloseTo(2.326348, 5);
    // Wilson 95 % for 4 of 100: [1.57 %, 9.84 %] (Newcombe 1998, table I's method).
    const [lo, hi] = wilson(4, 100, zOf(0.95));
    expect(lo).toBeCloseTo(0.01566, 4);
    expect(hi).toBeCloseTo(0.09837, 4);
  });

  it('0 → 4 failures of 100 is not clear (the bootstrap said it was); 0 → 12 is', () => {
    const boot = (failed: number, salt: string) =>
      bootstrapRun(outcomesFromCounts(100 - failed, failed), [{ metric: 'failed', stat: 'mean' }], {
        salt,
      }).replicates.get('failed:mean')!;
    const bootCi = diffInterval(boot(0, 'A'), boot(4, 'B'), 'absolute')!;
    expect(bootCi[0]).toBeGreaterThan(0); // the percentile bootstrap's false "worse"
    const ci = failureRateInterval({ failed: 0, n: 100 }, { failed: 4, n: 100 })!;
    expect(ci[0]).toBeLessThan(0);
    expect(failureRateInterval({ failed: 0, n: 100 }, { failed: 12, n: 100 })![0]).toBeGreaterThan(0);
    expect(failureRateInterval({ failed: 0, n: 100 }, { failed: 0, n: 100 })).toBeNull();
    // Drift between pooled repeats widens it.
    const wide = failureRateInterval({ failed: 5, n: 100, drift: 2 }, { failed: 9, n: 100, drift: 2 })!;
    const narrow = failureRateInterval({ failed: 5, n: 100 }, { failed: 9, n: 100 })!;
    expect(wide[1] - wide[0]).toBeGreaterThan(1.5 * (narrow[1] - narrow[0]));
  });

  it('covers the true difference about 95 % of the time at low rates', () => {
    let hit = 0;
    const trials = 2000;
    const rng = new Rng(11, 'fail');
    const draw = (n: number, p: number) => {
      let x = 0;
      for (let i = 0; i < n; i++) if (rng.next() < p) x++;
      return x;
    };
    for (let t = 0; t < trials; t++) {
      const a = draw(100, 0.03);
      const b = draw(100, 0.06);
      const ci = failureRateInterval({ failed: a, n: 100 }, { failed: b, n: 100 }) ?? [0, 0];
      if (ci[0] <= 0.03 && 0.03 <= ci[1]) hit++;
    }
    expect(hit / trials).toBeGreaterThanOrEqual(0.94);
    expect(hit / trials).toBeLessThanOrEqual(0.985);
  });
});
