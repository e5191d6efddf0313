import { describe, expect, it } from 'vitest';
import type { Heatmap } from './heatmap-bins.ts';
import { heatColor, heatFraction, heatmapHit, heatmapLayout } from './heatmap-draw.ts';

describe('heatmap colours', () => {
  it('runs from dark blue (few) to pale (most), on a square-root scale', () => {
    expect(heatColor(0)).toBe('rgb(20,34,64)');
    expect(heatColor(1)).toBe('rgb(255,240,200)');
    expect(heatColor(0.5)).toBe('rgb(91,157,255)');
    expect(heatFraction(25, 100)).toBe(0.5);
    expect(heatFraction(0, 100)).toBe(0);
    expect(heatFraction(3, 0)).toBe(0);
  });
});

describe('heatmapHit', () => {
  const m: Heatmap = {
    cols: [
      { t0: 0, t1: 1000 },
      { t0: 1000, t1: 2000 },
    ],
    les: [0.1, 1, Infinity],
    counts: new Float64Array(6),
    max: 0,
  };
  // Plot from x 92 to 292 (200 px for 2 s), y 6 to 96 (3 rows of 30 px, highest bucket on top).
  const l = { ...heatmapLayout(302, 118) };

  it('finds the step and bucket under the pointer', () => {
    expect(l.right - l.left).toBe(200);
    expect(heatmapHit(m, { from: 0, to: 2 }, [0, 2000], l, 150, 10)).toEqual({ col: 0, row: 2 });
    expect(heatmapHit(m, { from: 0, to: 2 }, [0, 2000], l, 250, 90)).toEqual({ col: 1, row: 0 });
  });

  it('misses outside the plot', () => {
    expect(heatmapHit(m, { from: 0, to: 2 }, [0, 2000], l, 50, 50)).toBeNull();
    expect(heatmapHit(m, { from: 0, to: 2 }, [0, 2000], l, 150, 110)).toBeNull();
  });
});
