import { describe, expect, it } from 'vitest';
import { cachedPerHit, expectedHits, groupOf, steadyRatio } from './prefix-groups.ts';

describe('prefix groups', () => {
  it('draws groups from the seed: the same for a seed, spread over every group', () => {
    const a = Array.from({ length: 400 }, (_, i) => groupOf(7, 'main', i, 8));
    expect(Array.from({ length: 400 }, (_, i) => groupOf(7, 'main', i, 8))).toEqual(a);
    const counts = new Array<number>(8).fill(0);
    for (const g of a) counts[g]!++;
    for (const c of counts) expect(c).toBeGreaterThan(25); // 50 expected each
    expect(Array.from({ length: 400 }, (_, i) => groupOf(8, 'main', i, 8))).not.toEqual(a);
    expect(Array.from({ length: 400 }, (_, i) => groupOf(7, 'warmup', i, 8))).not.toEqual(a);
  });

  it('expects full blocks of the prefix on every request after its group first appears', () => {
    expect(cachedPerHit(200)).toBe(192);
    expect(cachedPerHit(15)).toBe(0);
    const e = expectedHits({ groups: 4, prefixLen: 256 }, 3, 100, () => 320);
    const firsts = new Set(Array.from({ length: 100 }, (_, i) => groupOf(3, 'main', i, 4))).size;
    expect(firsts).toBe(4);
    expect(e.hitRequests).toBe(96);
    expect(e.cachedTokens).toBe(96 * 256);
    expect(e.ratio).toBeCloseTo((96 * 256) / (100 * 320), 12);
    expect(steadyRatio({ groups: 4, prefixLen: 256 }, 320)).toBeCloseTo(0.8, 12);
    expect(expectedHits({ groups: 4, prefixLen: 256 }, 3, 0, () => 320)).toEqual({
      hitRequests: 0,
      cachedTokens: 0,
      ratio: 0,
    });
  });
});
