import { describe, expect, it } from 'vitest';
import { now } from '../engine/clock.ts';
import { ArrivalClock, MAX_TIMER_MS, sleepUntil } from './slots.ts';

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

describe('ArrivalClock', () => {
  // A dispatch loop that is late for every arrival: each release does `workMs` of work.
  async function lateLoop(wait: (target: number) => Promise<void>, releases: number, workMs: number) {
    let ticks = 0;
    const iv = setInterval(() => ticks++, 1);
    const t0 = now();
    let immediates = 0;
    const count = (): void => {
      immediates++;
      setImmediate(count);
    };
    const im = setImmediate(count);
    for (let i = 0; i < releases; i++) {
      await wait(t0 - 1); // already due
      const t = now();
      while (now() - t < workMs); // the release's own work
    }
    clearInterval(iv);
    clearImmediate(im);
    return { ticks, immediates };
  }

  it('gives the event loop a turn while it releases late arrivals back to back', async () => {
    const clock = new ArrivalClock(2);
    const r = await lateLoop((t) => clock.until(t), 400, 0.1); // ~40 ms of releases
    // Every 2 ms of releases the loop yields: immediates ran many times during the loop.
    expect(r.immediates).toBeGreaterThanOrEqual(8);
  });

  it('is needed: sleepUntil alone never yields when late (the loop holds its thread)', async () => {
    const r = await lateLoop((t) => sleepUntil(t), 400, 0.1);
    expect(r.immediates).toBe(0);
    expect(r.ticks).toBe(0);
  });

  it('sleeps until an arrival that is not due yet', async () => {
    const clock = new ArrivalClock();
    const target = now() + 15;
    await clock.until(target);
    expect(now()).toBeGreaterThanOrEqual(target);
  });

  it('wakes at once when the signal aborts', async () => {
    const clock = new ArrivalClock();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 5);
    const t = now();
    await clock.until(now() + 60_000, ac.signal);
    expect(now() - t).toBeLessThan(30_000);
  });
});
