import { describe, expect, it } from 'vitest';
import { onAbort } from './abort-hub.ts';

describe('onAbort', () => {
  it('calls every waiter still waiting, once, and none that stopped', () => {
    const ac = new AbortController();
    const calls: string[] = [];
    const stopB = onAbort(ac.signal, () => calls.push('b'));
    onAbort(ac.signal, () => calls.push('a'));
    const stopC = onAbort(ac.signal, () => calls.push('c'));
    stopB();
    ac.abort();
    ac.abort();
    stopC(); // after the abort: harmless
    expect(calls).toEqual(['a', 'c']);
  });

  it('adds one listener to the signal however many wait', () => {
    const ac = new AbortController();
    let added = 0;
    const add = ac.signal.addEventListener.bind(ac.signal);
    ac.signal.addEventListener = ((...a: Parameters<typeof add>) => {
      added++;
      add(...a);
    }) as typeof add;
    const stops = Array.from({ length: 1000 }, () => onAbort(ac.signal, () => {}));
    for (const s of stops) s();
    let n = 0;
    onAbort(ac.signal, () => n++);
    ac.abort();
    expect(added).toBe(1);
    expect(n).toBe(1);
  });

  it('keeps signals apart', () => {
    const a = new AbortController();
    const b = new AbortController();
    const calls: string[] = [];
    onAbort(a.signal, () => calls.push('a'));
    onAbort(b.signal, () => calls.push('b'));
    b.abort();
    expect(calls).toEqual(['b']);
  });
});
