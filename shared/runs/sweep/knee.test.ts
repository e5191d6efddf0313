import { describe, expect, it } from 'vitest';
import { elasticity, findKnee, type KneePoint } from './knee.ts';

const mm1 = (from: number, to: number, step: number): KneePoint[] => {
  const pts: KneePoint[] = [];
  for (let i = 0; from + i * step <= to + 1e-9; i++) {
    const r = from + i * step;
    pts.push({ load: r, throughput: r, latency: 1 / (1 - r) });
  }
  return pts;
};

describe('findKnee', () => {
  it('M/M/1: the grid point nearest the analytic knee ρ* = 1 − √((b − a)/(1/(1−b) − 1/(1−a)))', () => {
    for (const [a, b] of [
      [0.05, 0.95],
      [0.1, 0.9],
      [0.2, 0.98],
    ] as const) {
      const pts = mm1(a, b, 0.01);
      const star = 1 - Math.sqrt((b - a) / (1 / (1 - b) - 1 / (1 - a)));
      const k = findKnee(pts)!;
      expect(Math.abs(k.load - star), `[${a}, ${b}]`).toBeLessThanOrEqual(0.01);
      expect(k.elasticity).toBeGreaterThan(0);
    }
  });

  it('a hockey stick: flat latency until throughput plateaus at load 4', () => {
    const pts: KneePoint[] = [1, 2, 3, 4, 5, 6].map((l) => ({
      load: l,
      throughput: Math.min(l, 4) * 100,
      latency: l <= 4 ? 50 + l : 50 * 2 ** (l - 4),
    }));
    const k = findKnee(pts)!;
    expect(k.load).toBe(4);
    expect(k.elasticity).toBe(Infinity);
  });

  it('past saturation throughput may fall: the knee is still the last efficient load', () => {
    const pts: KneePoint[] = [
      { load: 1, throughput: 100, latency: 10 },
      { load: 2, throughput: 190, latency: 11 },
      { load: 4, throughput: 340, latency: 14 },
      { load: 8, throughput: 330, latency: 90 },
      { load: 16, throughput: 320, latency: 200 },
    ];
    expect(findKnee(pts)!.load).toBe(4);
  });

  it('none when latency did not double (noise on a flat curve), or with under 3 points', () => {
    const flat: KneePoint[] = [1, 2, 3, 4, 5].map((l) => ({
      load: l,
      throughput: l * 10,
      latency: 100 + (l % 2) * 60,
    }));
    expect(findKnee(flat)).toBeNull();
    expect(findKnee(flat, 1.5)).not.toBeNull();
    expect(findKnee(flat.slice(0, 2), 1.1)).toBeNull();
    expect(findKnee([])).toBeNull();
  });

  it('elasticity: relative latency rise per relative throughput gain', () => {
    expect(
      elasticity({ load: 1, throughput: 100, latency: 10 }, { load: 2, throughput: 150, latency: 20 }),
    ).toBeCloseTo(2, 9);
    expect(
      elasticity({ load: 1, throughput: 100, latency: 10 }, { load: 2, throughput: 90, latency: 20 }),
    ).toBe(Infinity);
    expect(
      elasticity({ load: 1, throughput: 100, latency: 10 }, { load: 2, throughput: 150, latency: 9 }),
    ).toBe(0);
  });
});
