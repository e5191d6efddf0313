// Requests handed over ahead of their send start at their instant, never before it, in time order
// whatever order they came in; a cancelled one never starts; draining gives back what waited.
import { describe, expect, it } from 'vitest';
import { TimedStarts } from './timed-starts.ts';

function starts(): { q: TimedStarts<string>; got: { slot: number; item: string; t: number }[] } {
  const got: { slot: number; item: string; t: number }[] = [];
  const q = new TimedStarts<string>((slot, item) => got.push({ slot, item, t: performance.now() }));
  return { q, got };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('TimedStarts', () => {
  it('starts each at its instant or after, in time order, one already due at once', async () => {
    const { q, got } = starts();
    const t = performance.now();
    const plan = [
      { slot: 1, at: t + 40 },
      { slot: 2, at: t + 15 },
      { slot: 3, at: t + 15 },
      { slot: 4, at: t + 30 },
    ];
    for (const p of plan) q.add(p.slot, p.at, `r${p.slot}`);
    q.add(5, t - 1, 'r5'); // past: started within the call
    expect(got.map((g) => g.slot)).toEqual([5]);
    expect(q.size).toBe(4);
    await sleep(80);
    expect(got.map((g) => g.slot)).toEqual([5, 2, 3, 4, 1]);
    for (const p of plan) {
      const g = got.find((x) => x.slot === p.slot)!;
      expect(g.item).toBe(`r${p.slot}`);
      expect(g.t).toBeGreaterThanOrEqual(p.at);
    }
    expect(q.size).toBe(0);
  });

  it('a cancelled request never starts; the others still do; drain returns what waited', async () => {
    const { q, got } = starts();
    const t = performance.now();
    q.add(1, t + 10, 'a');
    q.add(2, t + 20, 'b');
    q.add(3, t + 10_000, 'c');
    expect(q.cancel(1)).toBe(true);
    expect(q.cancel(1)).toBe(false);
    expect(q.cancel(99)).toBe(false);
    await sleep(50);
    expect(got.map((g) => g.slot)).toEqual([2]);
    expect(q.drain()).toEqual([{ slot: 3, at: t + 10_000, item: 'c' }]);
    expect(q.size).toBe(0);
    await sleep(5);
    expect(got.map((g) => g.slot)).toEqual([2]);
  });

  it('an earlier request handed over later re-arms the timer for it', async () => {
    const { q, got } = starts();
    const t = performance.now();
    q.add(1, t + 200, 'late');
    q.add(2, t + 10, 'early');
    await sleep(60);
    expect(got.map((g) => g.slot)).toEqual([2]);
    q.drain();
  });
});
