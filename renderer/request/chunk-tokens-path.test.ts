/** The tokens-per-chunk step line: holds each count until the next chunk arrives; integer y ticks. */
import { describe, expect, it } from 'vitest';
import { chunkPlot } from './chunk-tokens-path.ts';

describe('chunkPlot', () => {
  it('steps through the counts at their arrival times', () => {
    const p = chunkPlot([0, 10, 20, 40], [1, 3, 1, 4], { width: 40, height: 40 });
    expect(p.yMax).toBe(4);
    // y: 40 − n/4·40; x: t/40·40.
    expect(p.path).toBe('M0.0,30.0H10.0V10.0H20.0V30.0H40.0V0.0');
    expect(p.yTicks.map((t) => t.label)).toEqual(['0', '1', '2', '3', '4']);
    expect(p.xTicks[0]).toEqual({ x: 0, label: '0' });
  });

  it('one token a chunk: the axis still reaches 2, the line stays at 1', () => {
    const p = chunkPlot([5, 6, 7], [1, 1, 1], { width: 20, height: 20 });
    expect(p.yMax).toBe(2);
    expect(p.path).toBe('M0.0,10.0H10.0V10.0H20.0V10.0');
  });
});
