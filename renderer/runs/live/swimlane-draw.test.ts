import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillLanes } from '../../testing/lane-fixture.ts';
import { LaneStore } from './lane-store.ts';
import { drawSwimlane, followDomain, laneAtPoint, swimLayout, wholeDomain } from './swimlane-draw.ts';

class FakePath {
  rects: number[][] = [];
  rect(x: number, y: number, w: number, h: number): void {
    this.rects.push([x, y, w, h]);
  }
}

function fakeCtx() {
  const fills: { style: string; rects: number[][] }[] = [];
  const ctx: Record<string, unknown> = {
    fillStyle: '',
    strokeStyle: '',
    fill(p: FakePath) {
      fills.push({ style: String(ctx.fillStyle), rects: p.rects });
    },
  };
  for (const m of [
    'fillRect',
    'strokeRect',
    'beginPath',
    'moveTo',
    'lineTo',
    'stroke',
    'fillText',
    'save',
    'restore',
    'translate',
    'rotate',
    'rect',
    'clip',
    'setLineDash',
  ])
    ctx[m] = () => {};
  return { ctx: ctx as unknown as CanvasRenderingContext2D, fills };
}

const g = globalThis as { Path2D?: unknown };
const saved = g.Path2D;
beforeAll(() => {
  g.Path2D = FakePath;
});
afterAll(() => {
  g.Path2D = saved;
});

function store(): LaneStore {
  return fillLanes(new LaneStore(), [
    {
      id: 'a',
      arrivedMs: 0,
      startedMs: 0,
      t: [100, 200, 201, 300],
      tok: [1, 1, 1, 0],
      ok: true,
      endMs: 1000,
      ttftMs: 100,
      outputTokens: 3,
    },
    {
      id: 'b',
      arrivedMs: 0,
      startedMs: 400,
      t: [600],
      tok: [2],
      ok: false,
      endMs: 800,
      ttftMs: 200,
      outputTokens: 2,
    },
  ]);
}

describe('swimlane drawing', () => {
  it('draws queue, wait, generating and error segments, and one tick per token event and pixel', () => {
    const s = store();
    const L = swimLayout(1058, s.rows); // plot 1000 px wide: 1 px per ms over 0…1000
    const { ctx, fills } = fakeCtx();
    const st = drawSwimlane(ctx, s, L, { min: 0, max: 1000 }, null);
    expect(st.lanes).toBe(2);
    const [queue, wait, gen, err, ticks] = fills;
    // b waited 0…400 ms for a slot.
    expect(queue!.rects).toHaveLength(1);
    expect(queue!.rects[0]![0]).toBeCloseTo(L.left, 6);
    expect(queue!.rects[0]![2]).toBeCloseTo(400, 6);
    // To the first token: a 0…100, b 400…600.
    expect(wait!.rects.map((r) => Math.round(r[2]!))).toEqual([100, 200]);
    expect(gen!.rects.map((r) => Math.round(r[2]!))).toEqual([900]);
    // b failed: its rest in red plus an end mark.
    expect(err!.rects).toHaveLength(2);
    // Ticks at 100, 200 (201 shares the pixel? no: 1 px apart) and 600; the usage-only event at 300 has no tokens.
    expect(ticks!.rects.map((r) => r[0]! - L.left)).toEqual([100, 200, 201, 600]);
    expect(st.ticks).toBe(4);
    // Zoomed out 10×, 200 and 201 fall in one pixel column.
    const z = fakeCtx();
    expect(drawSwimlane(z.ctx, s, L, { min: 0, max: 10_000 }, null).ticks).toBe(3);
  });

  it('finds the lane under the pointer, within 3 px of its ends', () => {
    const s = store();
    const L = swimLayout(1058, s.rows);
    const d = { min: 0, max: 1000 };
    const yRow = (r: number) => L.top + (r + 0.5) * L.rowH;
    expect(laneAtPoint(s, L, d, null, L.left + 500, yRow(0))).toBe(0);
    expect(laneAtPoint(s, L, d, null, L.left + 500, yRow(1))).toBe(1);
    expect(laneAtPoint(s, L, d, null, L.left + 802, yRow(1))).toBe(1);
    expect(laneAtPoint(s, L, d, null, L.left + 810, yRow(1))).toBe(-1);
    expect(laneAtPoint(s, L, d, null, 2, yRow(0))).toBe(-1);
  });

  it('follows the last minute live; shows the whole run at the end', () => {
    expect(followDomain(500)).toEqual({ min: 0, max: 1020 });
    expect(followDomain(100_000)).toEqual({ min: 40_000, max: 101_200 });
    expect(wholeDomain(store())).toEqual({ min: 0, max: 1020 });
  });
});
