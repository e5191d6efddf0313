import { describe, expect, it } from 'vitest';
import { swimLayout } from './swimlane-draw.ts';
import { NO_ZOOM, panRows, panTime, zoomRows, zoomTime } from './swimlane-zoom.ts';

const base = { min: 0, max: 10_000 };

describe('swimlane zoom and pan', () => {
  it('zooming time keeps the time under the cursor in place and stays inside the run', () => {
    const L = swimLayout(846, 100); // plot from x=46 to x=834
    const x = 46 + 0.25 * (834 - 46); // 2.5 s
    const z = zoomTime(NO_ZOOM, base, L, x, 0.5);
    expect(z.domain!.max - z.domain!.min).toBeCloseTo(5000, 6);
    const f = (x - L.left) / (L.right - L.left);
    expect(z.domain!.min + f * 5000).toBeCloseTo(2500, 6);
    // Zooming out past the whole run returns to "no zoom".
    expect(zoomTime(z, base, L, x, 4).domain).toBeNull();
    // Never narrower than 2 ms, never outside [0, 10 s].
    let deep = z;
    for (let i = 0; i < 40; i++) deep = zoomTime(deep, base, L, L.right, 0.5);
    expect(deep.domain!.max - deep.domain!.min).toBeCloseTo(2, 6);
    expect(deep.domain!.max).toBeLessThanOrEqual(10_000);
  });

  it('panning time follows the pointer and is clamped to the run', () => {
    const L = swimLayout(846, 100);
    const z = zoomTime(NO_ZOOM, base, L, L.left, 0.1); // [0, 1 s]
    const moved = panTime(z, base, L, -(L.right - L.left) / 2); // drag left by half the width
    expect(moved.domain!.min).toBeCloseTo(500, 6);
    expect(panTime(z, base, L, 10_000).domain!.min).toBe(0);
    expect(panTime(NO_ZOOM, base, L, 50)).toBe(NO_ZOOM);
  });

  it('zooming rows gives taller lanes around the cursor; the layout clamps the offset', () => {
    const L = swimLayout(846, 768);
    expect(L.rowH).toBeLessThan(1);
    const z = zoomRows(NO_ZOOM, L, L.bottom, 1 / 16); // zoom in at the last row
    expect(z.rowsVisible).toBeCloseTo(48, 6);
    const Z = swimLayout(846, 768, undefined, z.rowsVisible!, z.rowOffset);
    expect(Z.rowH).toBeCloseTo((L.bottom - L.top) / 48, 6);
    expect(Z.rowOffset + 48).toBeCloseTo(768, 6); // the bottom row stays at the bottom
    const up = panRows(z, Z, 10 * Z.rowH); // drag down by 10 rows: earlier rows come into view
    expect(up.rowOffset).toBeCloseTo(z.rowOffset - 10, 6);
    expect(panRows(z, Z, 1e6).rowOffset).toBe(0);
    expect(zoomRows(z, Z, Z.top, 100)).toMatchObject({ rowsVisible: null, rowOffset: 0 });
  });
});
