import { describe, expect, it } from 'vitest';
import { SlicedQueue } from './sliced-queue.ts';

/** Until every setImmediate queued so far (and those they queue, `turns` deep) has run. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}

describe('SlicedQueue', () => {
  it('runs items in arrival order, none before the event loop turns', async () => {
    const done: number[] = [];
    const q = new SlicedQueue<number>(1000, (n) => done.push(n));
    for (const n of [3, 1, 2]) q.add(n);
    expect(done).toEqual([]);
    await turns(1);
    expect(done).toEqual([3, 1, 2]);
    expect(q.size).toBe(0);
  });

  it('yields to the event loop once a slice has used its time, and goes on after', async () => {
    // A clock that moves 1 ms per item run: a 2 ms slice runs two items, then yields.
    let t = 0;
    const order: string[] = [];
    const q = new SlicedQueue<string>(
      2,
      (s) => {
        order.push(s);
        t += 1;
      },
      () => t,
    );
    for (const s of ['a', 'b', 'c', 'd', 'e']) q.add(s);
    // Queued after the queue's first slice, in the same loop turn: runs between its slices.
    setImmediate(() => order.push('loop'));
    await turns(4);
    expect(order).toEqual(['a', 'b', 'loop', 'c', 'd', 'e']);
  });

  it('runs at least one item per slice however slow it is', async () => {
    let t = 0;
    const done: number[] = [];
    const q = new SlicedQueue<number>(
      1,
      (n) => {
        done.push(n);
        t += 100;
      },
      () => t,
    );
    q.add(1);
    q.add(2);
    await turns(1);
    expect(done).toEqual([1]);
    await turns(1);
    expect(done).toEqual([1, 2]);
  });

  it('queues an item once; one re-added while it runs runs again after the others', async () => {
    const done: string[] = [];
    let again = true;
    const q = new SlicedQueue<string>(1000, (s) => {
      done.push(s);
      if (s === 'x' && again) {
        again = false;
        q.add('x');
      }
    });
    q.add('x');
    q.add('y');
    q.add('x');
    expect(q.size).toBe(2);
    await turns(1);
    expect(done).toEqual(['x', 'y', 'x']);
  });

  it('finds a queued item until it has run', async () => {
    const q = new SlicedQueue<{ slot: number }>(1000, () => {});
    q.add({ slot: 7 });
    expect(q.find((f) => f.slot === 7)).toEqual({ slot: 7 });
    expect(q.find((f) => f.slot === 8)).toBeUndefined();
    await turns(1);
    expect(q.find((f) => f.slot === 7)).toBeUndefined();
  });
});
