import { describe, expect, it } from 'vitest';
import { LANE_ERROR, LANE_OK, LANE_RUNNING, LaneStore } from './lane-store.ts';
import { runLines } from '../../testing/run-fixture.ts';

const start = (id: string, seq: number, arrivedMs: number, startedMs: number, warmup = false) => ({
  id,
  seq,
  warmup,
  scheduledMs: arrivedMs,
  arrivedMs,
  startedMs,
  queueMs: startedMs - arrivedMs,
});

describe('LaneStore', () => {
  it('opens a lane per request, appends events, finishes lanes; warm-up and other runs are ignored', () => {
    const s = new LaneStore();
    s.reset('run');
    let bumps = 0;
    s.subscribe(() => bumps++);
    s.apply({
      runId: 'run',
      starts: [start('w0', 0, 0, 0, true), start('r0', 0, 0, 0), start('r1', 1, 0, 5)],
      events: [],
      done: [],
    });
    expect(s.n).toBe(2);
    expect(s.ids).toEqual(['r0', 'r1']);
    s.apply({
      runId: 'run',
      starts: [],
      events: [
        { id: 'w0', t: [1], tok: [1] },
        { id: 'r0', t: [10, 20, 1030], tok: [0, 1, 2] },
        { id: 'r1', t: [40], tok: [1] },
      ],
      done: [],
    });
    expect(s.en).toBe(4);
    // TTFT: the first event with a token, relative to the request's send time.
    expect(s.ttftMs[0]).toBe(20);
    expect(s.ttftMs[1]).toBe(35);
    expect(s.outTokens[0]).toBe(3);
    expect(s.tokPerS[0]).toBe(2);
    expect(s.tokPerS[1]).toBe(2);
    expect(s.status[0]).toBe(LANE_RUNNING);
    s.apply({
      runId: 'run',
      starts: [],
      events: [],
      done: [
        { id: 'r0', ok: true, endMs: 1040, ttftMs: 20, errorKind: null, errorMessage: null, outputTokens: 3 },
        {
          id: 'r1',
          ok: false,
          endMs: 50,
          ttftMs: null,
          errorKind: 'server',
          errorMessage: 'boom',
          outputTokens: 1,
        },
      ],
    });
    expect(s.status[0]).toBe(LANE_OK);
    expect(s.status[1]).toBe(LANE_ERROR);
    expect(s.errors.get(1)).toBe('server: boom');
    expect(s.okPerS[1]).toBe(1);
    expect(s.errPerS[0]).toBe(1);
    expect(s.running).toBe(0);
    expect(s.lastMs).toBe(1040);
    s.apply({ runId: 'other', starts: [start('x', 9, 0, 0)], events: [], done: [] });
    expect(s.n).toBe(2);
    expect(bumps).toBe(3);
  });

  it('reuses a row only after its request ended (queue wait included)', () => {
    const s = new LaneStore();
    s.reset('run');
    s.apply({ runId: 'run', starts: [start('a', 0, 0, 0), start('b', 1, 0, 0)], events: [], done: [] });
    s.apply({
      runId: 'run',
      starts: [],
      events: [],
      done: [
        { id: 'a', ok: true, endMs: 100, ttftMs: 5, errorKind: null, errorMessage: null, outputTokens: 1 },
      ],
    });
    // c arrived at 50, before a ended: it may not take a's row; d arrives after: it does.
    s.apply({
      runId: 'run',
      starts: [start('c', 2, 50, 100), start('d', 3, 150, 150)],
      events: [],
      done: [],
    });
    expect(Array.from(s.row.subarray(0, 4))).toEqual([0, 1, 2, 0]);
    expect(s.rows).toBe(3);
  });

  it('rebuilds a finished run from its lines (measured requests only, event times made run-relative)', () => {
    const s = new LaneStore();
    const lines = runLines(5, { warmup: 2 });
    s.loadLines('k', lines);
    expect(s.n).toBe(5);
    expect(s.startedMs[1]).toBe(110);
    expect(s.arrivedMs[1]).toBe(100);
    // r1's first token at 110 + 12.346
    const first = Array.from(s.evT.subarray(0, s.en)).filter(
      (_, e) => s.evLane[e] === 1 && s.evTok[e]! > 0,
    )[0];
    expect(first).toBeCloseTo(122.346, 6);
    expect(s.status[4]).toBe(LANE_ERROR);
    expect(s.errors.get(4)).toMatch(/^http\/status: HTTP 400/);
    // The failed r4 ends last: sent at 400, HTTP error at 4.2 ms.
    expect(s.lastMs).toBeCloseTo(404.2, 6);
    expect(s.rows).toBe(1);
  });
});
