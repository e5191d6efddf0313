import { describe, expect, it } from 'vitest';
import { Ring } from './ring.ts';

describe('Ring', () => {
  it('keeps the newest `capacity` items, oldest first', () => {
    const r = new Ring<number>(3);
    for (let i = 1; i <= 5; i++) r.push(i);
    expect(r.size).toBe(3);
    expect(r.toArray()).toEqual([3, 4, 5]);
    expect(r.at(0)).toBe(3);
    expect(r.last()).toBe(5);
    expect(r.at(3)).toBeUndefined();
  });

  it('does not grow past its capacity however much is pushed', () => {
    const r = new Ring<{ i: number }>(900);
    for (let i = 0; i < 10_000; i++) r.push({ i });
    expect(r.size).toBe(900);
    expect(r.at(0)!.i).toBe(9100);
    expect(r.last()!.i).toBe(9999);
  });

  it('rejects a useless capacity and clears', () => {
    expect(() => new Ring(0)).toThrow(RangeError);
    const r = new Ring<number>(2);
    r.push(1);
    r.clear();
    expect(r.size).toBe(0);
    expect(r.toArray()).toEqual([]);
  });
});
