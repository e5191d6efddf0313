import { describe, expect, it } from 'vitest';
import { fitCanvas } from './canvas.ts';

/** A canvas and context that record what fitCanvas did (no DOM canvas under node). */
function fake(width = 0, height = 0) {
  const sets: number[][] = [];
  const canvas = { width, height, style: { width: '', height: '' } };
  const ctx = { setTransform: (...a: number[]) => sets.push(a) };
  return { canvas, ctx, sets };
}

describe('fitCanvas', () => {
  it('sizes the backing store in device pixels and scales the context to CSS pixels', () => {
    const { canvas, ctx, sets } = fake();
    expect(fitCanvas(canvas as never, ctx as never, 300.4, 120, { dpr: 2, setStyle: true })).toBe(2);
    expect(canvas).toMatchObject({ width: 601, height: 240, style: { width: '300.4px', height: '120px' } });
    expect(sets).toEqual([[2, 0, 0, 2, 0, 0]]);
  });

  it('leaves an already-sized canvas alone (a resize would clear it) but still resets the transform', () => {
    const { canvas, ctx, sets } = fake(450, 180);
    canvas.style.width = 'keep';
    fitCanvas(canvas as never, ctx as never, 300, 120, { dpr: 1.5, setStyle: true });
    expect(canvas).toMatchObject({ width: 450, height: 180, style: { width: 'keep' } });
    expect(sets).toEqual([[1.5, 0, 0, 1.5, 0, 0]]);
  });

  it('without setStyle the CSS size is left to the stylesheet; a zero or missing ratio counts as 1', () => {
    const { canvas, ctx } = fake();
    expect(fitCanvas(canvas as never, ctx as never, 200, 100, { dpr: 0 })).toBe(1);
    expect(canvas).toMatchObject({ width: 200, height: 100, style: { width: '', height: '' } });
  });
});
