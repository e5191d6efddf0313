import { describe, expect, it } from 'vitest';
import { Listeners } from './listeners.ts';

describe('Listeners', () => {
  it('calls every listener with the value, in the order added', () => {
    const l = new Listeners<string>();
    const got: string[] = [];
    l.add((v) => got.push(`a:${v}`));
    l.add((v) => got.push(`b:${v}`));
    l.emit('x');
    expect(got).toEqual(['a:x', 'b:x']);
  });

  it('removes a listener with the function add returned, and only that one', () => {
    const l = new Listeners();
    let a = 0;
    let b = 0;
    const offA = l.add(() => a++);
    l.add(() => b++);
    l.emit();
    offA();
    offA(); // twice is harmless
    l.emit();
    expect([a, b]).toEqual([1, 2]);
    expect(l.size).toBe(1);
  });

  it('the same function added twice is one listener', () => {
    const l = new Listeners<number>();
    let n = 0;
    const fn = (v: number): void => {
      n += v;
    };
    l.add(fn);
    l.add(fn);
    l.emit(5);
    expect(n).toBe(5);
  });
});
