import { describe, expect, it } from 'vitest';
import { SlicedQueue } from './sliced-queue.ts';

/** Until every setImmediate queued so far (and those they queue, `turns` deep) has run. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}

describe('SlicedQueue', () => {
  it('runs items in arrival order, none before the event loop turns', async () => {
    const done: number[] = [];
    const q = new SlicedQueue<{ n: number }>(1000, (i) => done.push(i.n));
    for (const n of [3, 1, 2]) q.add({ n });
    expect(done).toEqual([]);
    await turns(1);
    expect(done).toEqual([3, 1, 2]);
    expect(q.size).toBe(0);
  });

  it('yields to the event loop once a slice has used its time, and goes on after', async () => {
    // A clock that moves 1 ms per item run: a 2 ms slice runs two items, then yields.
    let t = 0;
    const order: string[] = [];
    const q = new SlicedQueue<{ s: string }>(
      2,
      (i) => {
        order.push(i.s);
        t += 1;
      },
      () => t,
    );
    for (const s of ['a', 'b', 'c', 'd', 'e']) q.add({ s });
    // Queued after the queue's first slice, in the same loop turn: runs between its slices.
    setImmediate(() => order.push('loop'));
    await turns(4);
    expect(order).toEqual(['a', 'b', 'loop', 'c', 'd', 'e']);
  });

  it('runs at least one item per slice however slow it is', async () => {
    let t = 0;
    const done: number[] = [];
    const q = new SlicedQueue<{ n: number }>(
      1,
      (i) => {
        done.push(i.n);
        t += 100;
      },
      () => t,
    );
    q.add({ n: 1 });
    q.add({ n: 2 });
    await turns(1);
    expect(done).toEqual([1]);
    await turns(1);
    expect(done).toEqual([1, 2]);
  });

  it('queues an item once; one re-added while it runs runs again after the others', async () => {
    const done: string[] = [];
    let again = true;
    const x = { s: 'x' };
    const q = new SlicedQueue<{ s: string }>(1000, (i) => {
      done.push(i.s);
      if (i === x && again) {
        again = false;
        q.add(x);
      }
    });
    q.add(x);
    q.add({ s: 'y' });
    q.add(x);
    expect(q.size).toBe(2);
    await turns(1);
    expect(done).toEqual(['x', 'y', 'x']);
  });

  it('finds a queued item until it has run', async () => {
    const q = new SlicedQueue<{ slot: number }>(1000, () => {});
    const seven = { slot: 7 };
    q.add(seven);
    expect(q.find((f) => f.slot === 7)).toBe(seven);
    expect(q.find((f) => f.slot === 8)).toBeUndefined();
    await turns(1);
    expect(q.find((f) => f.slot === 7)).toBeUndefined();
  });

  it('keeps order through a ring that wraps and grows while items are added as others run', async () => {
    // 5 first, then each run adds one more until 60 ran: the ring (16) wraps, then grows.
    const done: number[] = [];
    let next = 5;
    const q = new SlicedQueue<{ n: number }>(1000, (i) => {
      done.push(i.n);
      if (next < 60) q.add({ n: next++ });
      if (i.n === 10) for (let k = 0; k < 30 && next < 60; k++) q.add({ n: next++ });
    });
    for (let n = 0; n < 5; n++) q.add({ n });
    await turns(1);
    expect(done).toEqual(Array.from({ length: 60 }, (_, n) => n));
    expect(q.size).toBe(0);
    // Queued again after it ran: it is not marked as queued any more.
    const a = { n: 99 };
    q.add(a);
    await turns(1);
    q.add(a);
    expect(q.size).toBe(1);
  });

  it('an item in two queues is queued in each', async () => {
    const ran: string[] = [];
    const a = new SlicedQueue<{ id: string }>(1000, (i) => ran.push(`a:${i.id}`));
    const b = new SlicedQueue<{ id: string }>(1000, (i) => ran.push(`b:${i.id}`));
    const item = { id: 'x' };
    a.add(item);
    b.add(item);
    expect([a.size, b.size]).toEqual([1, 1]);
    await turns(1);
    expect(ran.sort()).toEqual(['a:x', 'b:x']);
  });
});
