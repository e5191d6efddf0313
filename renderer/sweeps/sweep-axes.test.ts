/** A sweep chart's axes: ticks that reach the highest point (none clipped), log ticks 1-2-5 over the range. */
import { describe, expect, it } from 'vitest';
import { coverTicks, logTicks } from './sweep-axes.ts';

describe('sweep axes', () => {
  it('coverTicks goes one tick past a maximum that niceTicks would leave outside', () => {
    const t = coverTicks(0, 54, 5);
    expect(t[t.length - 1]).toBeGreaterThanOrEqual(54);
    expect(t[0]).toBe(0);
    expect(coverTicks(0, 40, 4)).toEqual([0, 10, 20, 30, 40]);
  });

  it('logTicks spans lo…hi with 1-2-5 steps', () => {
    expect(logTicks(9.8, 153)).toEqual([5, 10, 20, 50, 100, 200]);
    expect(logTicks(20, 70)).toEqual([20, 50, 100]);
  });
});
