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
    const flat: KneePoint[] = [1, 2, 3, 4].map((l) => ({
      load: l,
      throughput: l * 10,
      latency: 100 + ((l + 1) % 2) * 60,
    }));
    expect(findKnee(flat)).toBeNull();
    expect(findKnee(flat, 1.5)).not.toBeNull();
    expect(findKnee(flat.slice(0, 2), 1.1)).toBeNull();
    expect(findKnee([])).toBeNull();
  });

  // The E2E curve of a rate-auto sweep on a machine at load 16 (steady steps, in order of load):
  // the last good step had the lowest p99, and the point Kneedle picked was followed by a fall.
  // It was printed as "to the next step latency rose 0× as fast as throughput".
  const busy: KneePoint[] = [
    [35.6, 365.8],
    [70.4, 226.6],
    [104.7, 190.8],
    [128.0, 473.1],
    [174.9, 169.3],
    [185.1, 471.1],
    [199.2, 108.3],
  ].map(([t, l], i) => ({ load: i, throughput: t!, latency: l! }));

  it('none when the last step is no slower than the first (a falling chord: noise, not a curve)', () => {
    expect(findKnee(busy)).toBeNull();
    const rising = [...busy.slice(0, -1), { load: 6, throughput: 199.2, latency: 980 }];
    expect(findKnee(rising)).not.toBeNull();
  });

  it('a knee is followed by latency rising faster than throughput (elasticity > 1), never by a fall', () => {
    // Farthest below the chord: load 2 (latency 60), but latency falls after it; the knee is the
    // next-farthest point whose next step rises faster than throughput.
    const pts: KneePoint[] = [
      { load: 0, throughput: 100, latency: 100 },
      { load: 1, throughput: 200, latency: 90 },
      { load: 2, throughput: 300, latency: 60 },
      { load: 3, throughput: 310, latency: 55 },
      { load: 4, throughput: 320, latency: 400 },
    ];
    const k = findKnee(pts)!;
    expect(k.load).toBe(3);
    expect(k.elasticity).toBeGreaterThan(1);
    for (let n = 3; n <= busy.length; n++) {
      const kb = findKnee(busy.slice(0, n), 1.5);
      if (kb) expect(kb.elasticity, `first ${n}`).toBeGreaterThan(1);
    }
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
