// The read queue gives back, in order, exactly the bytes, stamps and read indices it was given —
// across page boundaries, reads larger than a page, empty reads and a queue drained and refilled —
// and its pages go back to the thread's pool for the next request.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { freePages, PAGE_BYTES, ReadQueue } from './read-queue.ts';

const bytesOf = (n: number, seed: number): Uint8Array => {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (seed * 31 + i * 7) & 0xff;
  return b;
};

describe('ReadQueue', () => {
  it('returns every read as pushed, in order, under any interleaving of pushes and shifts', () => {
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.record({ push: fc.integer({ min: 0, max: 3 * PAGE_BYTES }) }) },
      { weight: 1, arbitrary: fc.record({ push: fc.integer({ min: 0, max: 64 }) }) },
      { weight: 3, arbitrary: fc.constant({ shift: true }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const q = new ReadQueue();
        const model: { bytes: Uint8Array; t: number; i: number }[] = [];
        let next = 0;
        for (const o of ops) {
          if ('push' in o) {
            const b = bytesOf(o.push, next);
            // The caller's buffer is reused after the push (the I/O batches are): bytes are copied.
            q.push(b, next * 1.25 + 0.001, next);
            model.push({ bytes: b.slice(), t: next * 1.25 + 0.001, i: next });
            b.fill(0xee);
            next++;
          } else {
            const want = model.shift();
            const got = q.shift();
            if (!want) expect(got).toBeNull();
            else {
              expect(got).not.toBeNull();
              expect(Buffer.from(got!).equals(Buffer.from(want.bytes))).toBe(true);
              expect(q.t).toBe(want.t);
              expect(q.readIndex).toBe(want.i);
            }
          }
          expect(q.count).toBe(model.length);
          expect(q.bytes).toBe(model.reduce((s, m) => s + m.bytes.length, 0));
        }
        q.release();
        expect(q.count).toBe(0);
        expect(q.shift()).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('drops what waits, and says how much', () => {
    const q = new ReadQueue();
    q.push(bytesOf(100, 1), 1, 0);
    q.push(bytesOf(PAGE_BYTES + 5, 2), 2, 1);
    expect(q.dropAll()).toEqual({ reads: 2, bytes: PAGE_BYTES + 105 });
    expect(q.count).toBe(0);
    expect(q.shift()).toBeNull();
  });

  it('reuses pages: a drained queue writes its page again, a released one gives it to the next queue', () => {
    const a = new ReadQueue();
    for (let i = 0; i < 200; i++) a.push(bytesOf(250, i), i, i); // ~4 pages of 250-byte reads
    for (let i = 0; i < 150; i++) a.shift();
    const before = freePages();
    // The pages it read past are back in the pool; the one it reads now and those after are not.
    expect(before).toBeGreaterThanOrEqual(2);
    a.release();
    const pooled = freePages();
    expect(pooled).toBeGreaterThan(before);
    const b = new ReadQueue();
    b.push(bytesOf(10, 9), 0, 0);
    expect(freePages()).toBe(pooled - 1); // taken from the pool, not allocated
    expect(Array.from(b.shift()!)).toEqual(Array.from(bytesOf(10, 9)));
    b.release();
    expect(freePages()).toBe(pooled);
  });
});
