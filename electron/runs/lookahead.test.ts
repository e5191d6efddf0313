import { describe, expect, it } from 'vitest';
import { Lookahead, ownedFrom, prefillDeadline } from './lookahead.ts';

const make = (made: number[]) => (i: number) => {
  made.push(i);
  return { item: { prompt: 'x'.repeat(10), inputTokens: 1, outputTokens: 1 }, i };
};

describe('prompts prepared ahead', () => {
  it('prepares upcoming items until the deadline and hands them out without building again', () => {
    const made: number[] = [];
    let t = 0;
    const clock = (): number => t++; // each look at the clock: 1 ms later
    const a = new Lookahead(make(made), ownedFrom(undefined, 10));
    a.fillUntil(3, clock);
    expect(made).toEqual([0, 1, 2]);
    expect(a.take(0).i).toBe(0);
    expect(a.take(1).i).toBe(1);
    expect(made).toEqual([0, 1, 2]);
    // Not ready: built on the spot; filling goes on after it.
    expect(a.take(4).i).toBe(4);
    a.fillUntil(Infinity, clock);
    expect(made).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
  });

  it('stops at its budget of characters', () => {
    const made: number[] = [];
    const a = new Lookahead(make(made), ownedFrom(undefined, null), 35);
    a.fillUntil(Infinity, () => 0);
    expect(made).toEqual([0, 1, 2, 3]); // 40 chars: over the 35 budget after the 4th
    a.take(0);
    a.fillUntil(Infinity, () => 0);
    expect(made).toEqual([0, 1, 2, 3, 4]);
  });

  it("prepares a shard's own requests only", () => {
    const made: number[] = [];
    const a = new Lookahead(make(made), ownedFrom({ index: 1, of: 3 }, 10));
    a.fillUntil(Infinity, () => 0);
    expect(made).toEqual([1, 4, 7]);
  });

  it('prepares for at most 2 s before the clock starts, and never into --start-at', () => {
    expect(prefillDeadline(undefined, 50)).toBe(2050);
    const startAt = performance.timeOrigin + 1000;
    expect(prefillDeadline(startAt, 50)).toBe(900);
  });
});
