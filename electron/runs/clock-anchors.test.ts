// A run file lines up with a server's own log: the header's clockZeroWall (the run clock's zero
// as wall time) + a line's sentMs + an event's t is the wall time the event arrived. Checked
// against the simulator's ground-truth log of when it wrote each chunk (wall time, same machine).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimThread, type SimThreadServer } from '../sim/thread.ts';
import { readRunFile } from './files/run-file.ts';
import { runAgainst, tmpDir } from '../testing/runs.ts';

// The simulator in its own thread, as in the app: its stamps are not delayed behind ours.
let sim: SimThreadServer;
beforeAll(async () => {
  sim = await startSimThread({
    port: 0,
    decodeStepMs: 4,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
    groundTruth: true,
  });
});
afterAll(() => sim.close());

describe('clock anchors in the run file', () => {
  it('clockZeroWall + sentMs + event t is when each chunk arrived, right after the server wrote it', async () => {
    const out = path.join(tmpDir(), 'anchors.jsonl');
    const before = performance.timeOrigin + performance.now();
    const r = await runAgainst(
      sim,
      {
        requests: 12,
        maxConcurrency: 4,
        warmup: 2,
        prompts: { type: 'synthetic', inputLen: 8, outputLen: 10 },
      },
      { outFile: out },
    );
    const after = performance.timeOrigin + performance.now();
    const file = await readRunFile(out);
    if (!file.ok) throw new Error(file.error);
    const { header, requests } = file.value;
    // The zero is the measured part's start: after the warm-up, inside the run.
    expect(header.clockZeroWall).toBeGreaterThan(before);
    expect(header.clockZeroWall).toBeLessThan(after);
    expect(header.clockZeroWall).toBeGreaterThanOrEqual(header.startedAtWall);
    const measured = requests.filter((l) => !l.warmup);
    expect(measured).toHaveLength(12);
    const truth = await sim.fetchGroundTruth();
    let matched = 0;
    for (const l of measured) {
      // Sent after it got its slot, a moment later (the hop to the I/O thread).
      expect(l.sentMs).toBeGreaterThanOrEqual(l.startedMs);
      expect(l.sentMs! - l.startedMs).toBeLessThan(50);
      const writes = truth.filter((g) => g.requestId === l.serverRequestId);
      expect(writes.length).toBe(l.events.t.length);
      for (let i = 0; i < writes.length; i++) {
        const arrivedWall = header.clockZeroWall! + l.sentMs! + l.events.t[i]!;
        const lag = arrivedWall - writes[i]!.wallMs;
        // Arrived after the write was issued (times are rounded to µs), and soon after.
        expect(lag).toBeGreaterThan(-0.01);
        expect(lag).toBeLessThan(50);
        matched++;
      }
    }
    expect(matched).toBeGreaterThan(100);
    // The in-memory lines carry the same anchors.
    expect(r.lines.filter((l) => !l.warmup).every((l) => typeof l.sentMs === 'number')).toBe(true);
  });
});
