import { describe, expect, it } from 'vitest';
import { FinishQueue } from './finish-queue.ts';

/** Busy-waits `ms` (a task that takes that long). */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('FinishQueue', () => {
  it('runs tasks in order, in slices that let the event loop turn between them', async () => {
    const q = new FinishQueue();
    const order: string[] = [];
    for (let i = 0; i < 6; i++)
      q.push(() => {
        order.push(`task ${i}`);
        spin(1.5);
      });
    // Queued after the tasks: runs only when a slice yields, before the last task.
    setImmediate(() => order.push('loop'));
    expect(q.pending).toBe(6);
    await q.idle();
    expect(order.filter((s) => s.startsWith('task'))).toEqual([0, 1, 2, 3, 4, 5].map((i) => `task ${i}`));
    const loop = order.indexOf('loop');
    expect(loop).toBeGreaterThan(0);
    expect(loop).toBeLessThan(order.length - 1);
    expect(q.pending).toBe(0);
  });

  it('goes on past a task that throws and keeps the first error', async () => {
    const q = new FinishQueue();
    const ran: number[] = [];
    q.push(() => ran.push(1));
    q.push(() => {
      throw new Error('first');
    });
    q.push(() => {
      throw new Error('second');
    });
    q.push(() => ran.push(4));
    await q.idle();
    expect(ran).toEqual([1, 4]);
    expect(q.error?.message).toBe('first');
  });

  it('is idle at once when empty, and again after tasks queued by a task', async () => {
    const q = new FinishQueue();
    await q.idle();
    const ran: string[] = [];
    q.push(() => {
      ran.push('a');
      q.push(() => ran.push('b'));
    });
    await q.idle();
    expect(ran).toEqual(['a', 'b']);
  });

  it('has room while at most its backlog waits, and says when there is room again', async () => {
    const q = new FinishQueue(3);
    const ran: number[] = [];
    // Each task outlasts a slice: one runs per event-loop turn.
    const task = (i: number) => () => {
      spin(3);
      ran.push(i);
    };
    for (let i = 0; i < 3; i++) q.push(task(i));
    expect(q.room()).toBeNull();
    for (let i = 3; i < 6; i++) q.push(task(i));
    const room = q.room();
    expect(room).not.toBeNull();
    let pendingWhenRoom = -1;
    await room!.then(() => (pendingWhenRoom = q.pending));
    // Woken as soon as the backlog was down to 3, not only when everything had run.
    expect(pendingWhenRoom).toBe(3);
    expect(ran).toEqual([0, 1, 2]);
    await q.idle();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    expect(q.room()).toBeNull();
  });
});
