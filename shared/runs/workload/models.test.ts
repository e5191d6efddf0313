/** A model mix in the workload: validated with the field's name, drawn by weight from the seed. */
import { describe, expect, it } from 'vitest';
import { parseWorkload } from './workload.ts';
import { MAX_MIX_MODELS, modelOf, sharesOf, type ModelMix } from './models.ts';

function issuesOf(models: unknown): { path: string; message: string }[] {
  const r = parseWorkload({ requests: 1, models });
  return r.ok ? [] : r.error;
}

describe('workload models', () => {
  it('takes names with weights, and a bare name as weight 1', () => {
    const r = parseWorkload({ requests: 1, models: [{ name: 'base', weight: 3 }, 'lora-a'] });
    expect(r.ok && r.value.models).toEqual([
      { name: 'base', weight: 3 },
      { name: 'lora-a', weight: 1 },
    ]);
  });

  it('names the field of every bad entry', () => {
    expect(issuesOf([{ name: 'a', weight: 0 }])[0]!.path).toBe('models[0].weight');
    expect(issuesOf([{ name: 'a', weight: 'x' }])[0]!.path).toBe('models[0].weight');
    expect(issuesOf([{ name: '' }])[0]!.path).toBe('models[0].name');
    expect(issuesOf([{ name: 'a', share: 2 }])[0]!.path).toBe('models[0]');
    expect(issuesOf([])[0]!.path).toBe('models');
    const twice = issuesOf(['a', 'b', 'a']);
    expect(twice).toEqual([{ path: 'models[2].name', message: '"a" is listed twice' }]);
    const many = issuesOf(Array.from({ length: MAX_MIX_MODELS + 1 }, (_, i) => `m${i}`));
    expect(many[0]).toEqual({ path: 'models', message: `at most ${MAX_MIX_MODELS} models` });
  });

  it('draws the same model for the same place in the run, whatever else is drawn', () => {
    const mix: ModelMix = [
      { name: 'a', weight: 1 },
      { name: 'b', weight: 1 },
    ];
    const first = Array.from({ length: 50 }, (_, i) => modelOf(mix, 7, `main:${i}`));
    const again = Array.from({ length: 50 }, (_, i) => modelOf(mix, 7, `main:${49 - i}`)).reverse();
    expect(again).toEqual(first);
    const otherSeed = Array.from({ length: 50 }, (_, i) => modelOf(mix, 8, `main:${i}`));
    expect(otherSeed).not.toEqual(first);
  });

  it('spreads requests by weight (10,000 draws within 2 % of each share)', () => {
    const mix: ModelMix = [
      { name: 'base', weight: 6 },
      { name: 'lora-a', weight: 3 },
      { name: 'lora-b', weight: 1 },
    ];
    const n = 10_000;
    const counts = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const m = modelOf(mix, 1, `main:${i}`);
      counts.set(m, (counts.get(m) ?? 0) + 1);
    }
    for (const { name, share } of sharesOf(mix))
      expect(Math.abs(counts.get(name)! / n - share)).toBeLessThan(0.02);
    expect(sharesOf(mix).map((s) => s.share)).toEqual([0.6, 0.3, 0.1]);
  });

  it('a mix of one sends every request to it', () => {
    expect(modelOf([{ name: 'only', weight: 5 }], 3, 'main:9')).toBe('only');
  });
});
