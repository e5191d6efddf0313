import { describe, expect, it } from 'vitest';
import type { RequestBatch } from '../../shared/api.ts';
import { EV_CONTENT, EV_TERMINAL } from '../../shared/request.ts';
import { LiveColumns } from './columns.ts';

type Rows = Pick<RequestBatch, 'from' | 't' | 'tokens' | 'read' | 'flags' | 'size' | 'text' | 'raw'>;

function batch(from: number, times: number[], text?: string[]): Rows {
  return {
    from,
    t: Float64Array.from(times),
    tokens: Uint32Array.from(times.map(() => 1)),
    read: Uint32Array.from(times.map((_, i) => from + i)),
    flags: Uint16Array.from(times.map(() => EV_CONTENT)),
    size: Uint32Array.from(times.map(() => 40)),
    text: text ?? times.map((_, i) => `w${from + i} `),
    raw: times.map((_, i) => `{"i":${from + i}}`),
  };
}

describe('LiveColumns', () => {
  it('appends batches in order and keeps text and raw frames', () => {
    const c = new LiveColumns(4);
    expect(c.append(batch(0, [10, 20, 30]))).toBe(3);
    expect(c.append(batch(3, [40, 50]))).toBe(2);
    expect(c.n).toBe(5);
    expect(Array.from(c.t.subarray(0, c.n))).toEqual([10, 20, 30, 40, 50]);
    expect(Array.from(c.read.subarray(0, c.n))).toEqual([0, 1, 2, 3, 4]);
    expect(c.text).toEqual(['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 ']);
    expect(c.raw[4]).toBe('{"i":4}');
    expect(c.fullText).toBe('w0 w1 w2 w3 w4 ');
  });

  it('grows by doubling and keeps earlier rows', () => {
    const c = new LiveColumns(2);
    for (let k = 0; k < 50; k++) c.append(batch(k * 3, [k * 3, k * 3 + 1, k * 3 + 2]));
    expect(c.n).toBe(150);
    expect(c.capacity).toBeGreaterThanOrEqual(150);
    expect(c.capacity & (c.capacity - 1)).toBe(0); // a power of two: doubled, not grown row by row
    for (let i = 0; i < 150; i++) expect(c.t[i]).toBe(i);
  });

  it('skips rows it already holds (a replayed batch)', () => {
    const c = new LiveColumns();
    c.append(batch(0, [1, 2, 3]));
    expect(c.append(batch(1, [2, 3, 4]))).toBe(1);
    expect(c.n).toBe(4);
    expect(Array.from(c.t.subarray(0, 4))).toEqual([1, 2, 3, 4]);
    expect(c.text).toHaveLength(4);
    expect(c.append(batch(0, [1, 2]))).toBe(0);
  });

  it('refuses a batch past the end instead of misplacing its rows', () => {
    const c = new LiveColumns();
    c.append(batch(0, [1, 2]));
    expect(c.append(batch(5, [9]))).toBe(0);
    expect(c.n).toBe(2);
    expect(c.missing).toBe(true);
  });

  it('accepts an empty batch (the first one carries only status and phases)', () => {
    const c = new LiveColumns();
    expect(c.append(batch(0, []))).toBe(0);
    expect(c.n).toBe(0);
    expect(c.missing).toBe(false);
  });

  it('accepts plain arrays where typed arrays were expected', () => {
    const c = new LiveColumns();
    const b = batch(0, [5, 6]);
    c.append({
      ...b,
      t: [5, 6] as unknown as Float64Array,
      flags: [EV_CONTENT, EV_TERMINAL] as unknown as Uint16Array,
    });
    expect(Array.from(c.t.subarray(0, 2))).toEqual([5, 6]);
    expect(c.flags[1]).toBe(EV_TERMINAL);
  });

  it('loads a complete record, replacing partial rows and clearing `missing`', () => {
    const c = new LiveColumns();
    c.append(batch(0, [1]));
    c.append(batch(4, [9]));
    c.load(
      {
        n: 3,
        t: Float64Array.from([1, 2, 3]),
        tokens: Uint32Array.from([1, 2, 0]),
        read: Uint32Array.from([0, 0, 1]),
        flags: Uint16Array.from([1, 1, 32]),
        size: Uint32Array.from([9, 9, 6]),
        text: ['a', 'bc', ''],
      },
      ['r0', 'r1', 'r2'],
    );
    expect(c.n).toBe(3);
    expect(c.missing).toBe(false);
    expect(Array.from(c.tokens.subarray(0, 3))).toEqual([1, 2, 0]);
    expect(c.fullText).toBe('abc');
    expect(c.raw).toEqual(['r0', 'r1', 'r2']);
  });
});
