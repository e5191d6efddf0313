import { describe, expect, it } from 'vitest';
import { FrameScheduler } from './scheduler.ts';

function manualHost() {
  const queue: (() => void)[] = [];
  return {
    host: { request: (cb: () => void) => void queue.push(cb) },
    flush() {
      const q = queue.splice(0);
      for (const cb of q) cb();
      return q.length;
    },
    get queued() {
      return queue.length;
    },
  };
}

describe('FrameScheduler', () => {
  it('runs a job once per frame however often it is requested', () => {
    const h = manualHost();
    const s = new FrameScheduler(h.host);
    let runs = 0;
    const job = () => runs++;
    for (let i = 0; i < 100; i++) s.schedule(job);
    expect(h.queued).toBe(1);
    expect(runs).toBe(0);
    h.flush();
    expect(runs).toBe(1);
    expect(s.frames).toBe(1);
    h.flush();
    expect(runs).toBe(1); // nothing new asked for, nothing drawn
  });

  it('runs phase-1 jobs after every phase-0 job of the same frame', () => {
    const h = manualHost();
    const s = new FrameScheduler(h.host);
    const order: string[] = [];
    s.schedule(() => order.push('probe'), 1);
    s.schedule(() => order.push('timeline'));
    s.schedule(() => order.push('text'));
    h.flush();
    expect(order).toEqual(['timeline', 'text', 'probe']);
  });

  it('keeps drawing the others when one job throws', () => {
    const h = manualHost();
    const s = new FrameScheduler(h.host);
    let ok = 0;
    const origError = console.error;
    console.error = () => {};
    try {
      s.schedule(() => {
        throw new Error('boom');
      });
      s.schedule(() => ok++);
      h.flush();
    } finally {
      console.error = origError;
    }
    expect(ok).toBe(1);
  });

  it('cancels a pending job', () => {
    const h = manualHost();
    const s = new FrameScheduler(h.host);
    let runs = 0;
    const job = () => runs++;
    s.schedule(job);
    s.cancel(job);
    h.flush();
    expect(runs).toBe(0);
  });
});
