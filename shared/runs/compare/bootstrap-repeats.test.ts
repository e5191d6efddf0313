import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng.ts';
import { bootstrapRun, diffInterval } from './bootstrap.ts';
import { driftFactor } from './bootstrap-repeats.ts';
import type { SampleSpec } from './bootstrap-samples.ts';
import { poolRuns } from './pooled.ts';
import { drawRun } from '../../testing/test-population.ts';

/** Three repeats of one workload, each run shifted as a whole by a drift of σ (lognormal). */
function pooledRepeats(rng: Rng, sigma: number) {
  const parts = [0, 1, 2].map(() => {
    const r = drawRun(rng, { n: 60, scale: Math.exp(sigma * rng.normal()) });
    return { header: null, ...r };
  });
  return poolRuns(parts);
}

describe('pooled repeats: between-run variance', () => {
  it('repeats that agree widen nothing; repeats that drift widen the interval by what they show', () => {
    const reps = Float64Array.from({ length: 400 }, (_, b) => 100 + Math.sin(b) * 2);
    expect(driftFactor(reps, [100, 100.5, 99.6], [50, 50, 50])).toBe(1);
    expect(driftFactor(reps, [90, 100, 115], [50, 50, 50])).toBeGreaterThan(2);
  });

  it('two pooled columns of one drifting workload are called different rarely, not one time in four', () => {
    // Every repeat's times × e^(0.1·Z): one run-to-run drift of ~10 %. Within-repeat resampling
    // alone sees none of it and calls the two pooled columns different far more often than 5 %.
    const spec: SampleSpec = { metric: 'ttft', stat: 'mean' };
    const pairs = 60;
    let withDrift = 0;
    let withoutDrift = 0;
    for (let k = 0; k < pairs; k++) {
      const rng = new Rng(300 + k, 'drift');
      const [a, b] = [pooledRepeats(rng, 0.1), pooledRepeats(rng, 0.1)];
      const clear = (ci: [number, number] | null) => !!ci && (ci[0] > 0 || ci[1] < 0);
      const boot = (p: typeof a, salt: string, strata: number[] | null) =>
        bootstrapRun(p.outcomes, [spec], { replicates: 400, seed: k, salt, strata }).replicates.get(
          'ttft:mean',
        )!;
      if (clear(diffInterval(boot(a, 'A', a.strata), boot(b, 'B', b.strata), 'relative'))) withDrift++;
      if (clear(diffInterval(boot(a, 'A', null), boot(b, 'B', null), 'relative'))) withoutDrift++;
    }
    console.log(`called different: ${withDrift} of ${pairs} with the drift, ${withoutDrift} without`);
    expect(withoutDrift / pairs).toBeGreaterThan(0.2);
    expect(withDrift / pairs).toBeLessThanOrEqual(0.12);
  }, 60_000);
});
