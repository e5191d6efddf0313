import { describe, expect, it } from 'vitest';
import { now } from '../engine/clock.ts';
import { MAX_TIMER_MS, sleepUntil } from './slots.ts';

describe('sleepUntil', () => {
  it('sleeps a gap longer than a Node timer holds (30 days) without a warning, until aborted', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const ctrl = new AbortController();
      let woke = false;
      const sleeping = sleepUntil(now() + 30 * 86_400_000, ctrl.signal).then(() => (woke = true));
      // Before the fix the timer fired after 1 ms, over and over, each with a TimeoutOverflowWarning.
      await new Promise((r) => setTimeout(r, 200));
      expect(woke).toBe(false);
      ctrl.abort();
      await sleeping;
      expect(woke).toBe(true);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings).toEqual([]);
      expect(MAX_TIMER_MS).toBe(2147483647);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('still wakes on time for a short gap', async () => {
    const target = now() + 30;
    await sleepUntil(target);
    expect(now()).toBeGreaterThanOrEqual(target);
  });
});
