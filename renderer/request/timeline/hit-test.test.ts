import { describe, expect, it } from 'vitest';
import { hitTest, lowerBound, nearestIndex, visibleRange } from './hit-test.ts';
import { linearScale } from '../../core/charts/scale.ts';

const t = Float64Array.from([10, 20, 20, 20, 50, 100]);

describe('lowerBound / nearestIndex', () => {
  it('finds the insertion point', () => {
    expect(lowerBound(t, t.length, 0)).toBe(0);
    expect(lowerBound(t, t.length, 20)).toBe(1);
    expect(lowerBound(t, t.length, 21)).toBe(4);
    expect(lowerBound(t, t.length, 1000)).toBe(6);
  });
  it('finds the nearest event, ties to the earlier', () => {
    expect(nearestIndex(t, t.length, 0)).toBe(0);
    expect(nearestIndex(t, t.length, 34)).toBe(3);
    expect(nearestIndex(t, t.length, 36)).toBe(4);
    expect(nearestIndex(t, t.length, 75)).toBe(4);
    expect(nearestIndex(t, t.length, 999)).toBe(5);
    expect(nearestIndex(t, 0, 5)).toBe(-1);
  });
  it('only looks at the first n rows (growable arrays have spare capacity)', () => {
    const grown = new Float64Array(16);
    grown.set([1, 2, 3]);
    expect(nearestIndex(grown, 3, 50)).toBe(2);
  });
});

describe('hitTest', () => {
  // 1 px per ms from x = 0.
  const s = linearScale({ min: 0, max: 200 }, 0, 200);
  it('accepts an event within the tolerance', () => {
    expect(hitTest(t, t.length, 52, s.toPx, s.toMs, 6)).toBe(4);
    expect(hitTest(t, t.length, 97, s.toPx, s.toMs, 6)).toBe(5);
  });
  it('rejects the cursor far from any event', () => {
    expect(hitTest(t, t.length, 75, s.toPx, s.toMs, 6)).toBe(-1);
  });
  it('returns the last of coalesced events sharing one time (drawn on top)', () => {
    expect(hitTest(t, t.length, 21, s.toPx, s.toMs, 6)).toBe(3);
  });
  it('scales the tolerance with the zoom', () => {
    const zoomed = linearScale({ min: 45, max: 55 }, 0, 1000); // 100 px per ms
    expect(hitTest(t, t.length, 500, zoomed.toPx, zoomed.toMs, 6)).toBe(4);
    expect(hitTest(t, t.length, 700, zoomed.toPx, zoomed.toMs, 6)).toBe(-1);
  });
});

describe('visibleRange', () => {
  it('returns the rows inside the view, ends included', () => {
    expect(visibleRange(t, t.length, 20, 50)).toEqual([1, 5]);
    expect(visibleRange(t, t.length, 0, 5)).toEqual([0, 0]);
    expect(visibleRange(t, t.length, 0, 1000)).toEqual([0, 6]);
  });
});
