// The one seeded generator: streams are reproducible per (seed, salt), independent across salts,
// uniform enough for workloads and the simulator, and the hash mixes nearby inputs apart.
import { describe, expect, it } from 'vitest';
import { hash32, Rng } from './prng.ts';

describe('Rng', () => {
  it('replays the same stream for the same seed and salt, and a different one otherwise', () => {
    const draw = (seed: number, salt: string) => {
      const r = new Rng(seed, salt);
      return [...Array(16).keys()].map(() => r.nextU32());
    };
    expect(draw(7, 'arrivals')).toEqual(draw(7, 'arrivals'));
    expect(draw(7, 'arrivals')).not.toEqual(draw(8, 'arrivals'));
    expect(draw(7, 'arrivals')).not.toEqual(draw(7, 'faults'));
  });

  it('next() is uniform on [0, 1): mean, variance and deciles within 4σ over 100k draws', () => {
    const r = new Rng(42, 'uniform');
    const n = 100_000;
    const bins = new Array<number>(10).fill(0);
    let sum = 0;
    let sq = 0;
    for (let i = 0; i < n; i++) {
      const x = r.next();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
      sq += x * x;
      bins[Math.floor(x * 10)]!++;
    }
    const mean = sum / n;
    expect(Math.abs(mean - 0.5)).toBeLessThan(4 * Math.sqrt(1 / 12 / n));
    expect(Math.abs(sq / n - mean * mean - 1 / 12)).toBeLessThan(0.002);
    const sdBin = Math.sqrt(n * 0.1 * 0.9);
    for (const b of bins) expect(Math.abs(b - n / 10)).toBeLessThan(4 * sdBin);
  });

  it('hex(n) gives n lowercase hex digits, different per draw', () => {
    const r = new Rng(1, 'ids');
    const a = r.hex(32);
    const b = r.hex(32);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    expect(r.hex(5)).toMatch(/^[0-9a-f]{5}$/);
  });
});

describe('hash32', () => {
  it('is stable, seed-dependent, and flips about half the bits for a one-character change', () => {
    expect(hash32('hello')).toBe(hash32('hello'));
    expect(hash32('hello', 1)).not.toBe(hash32('hello', 2));
    let flipped = 0;
    const pairs = 2000;
    for (let i = 0; i < pairs; i++) {
      let x = (hash32(`prompt ${i}`) ^ hash32(`prompt ${i + 1}`)) >>> 0;
      while (x) {
        flipped += x & 1;
        x >>>= 1;
      }
    }
    // 32 bits per pair, each flipping with probability ½ for a good avalanche
    expect(flipped / pairs).toBeGreaterThan(15);
    expect(flipped / pairs).toBeLessThan(17);
  });
});
