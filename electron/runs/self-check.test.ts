import { describe, expect, it } from 'vitest';
import { LIVE_CPU_MIN_MS, SELF_CHECK_THRESHOLDS, SelfCheckMonitor } from './self-check.ts';

describe('SelfCheckMonitor', () => {
  it('gives no live CPU figure until a second of the run is behind it, then the mean so far', async () => {
    const m = new SelfCheckMonitor();
    try {
      // Start-up work a few ms into a run would read as ~100 % of a core: not reported.
      const until = performance.now() + 20;
      while (performance.now() < until);
      expect(m.live().cpuPct).toBeNull();
      await new Promise((r) => setTimeout(r, LIVE_CPU_MIN_MS + 50));
      const cpu = m.live().cpuPct;
      expect(cpu).not.toBeNull();
      // 20 ms busy in ~1.07 s, plus the test runner's own work: far from a full core.
      expect(cpu!).toBeGreaterThan(0);
      expect(cpu!).toBeLessThan(80);
    } finally {
      m.dispose();
    }
  });

  it('flags a large schedule lag (requests left late against their plan), not a small one', () => {
    const lagged = new SelfCheckMonitor();
    for (let i = 0; i < 100; i++) lagged.recordLag(i < 90 ? 2 : 424);
    const a = lagged.result(null);
    expect(a.scheduleLagP99Ms).toBe(424);
    expect(a.reasons).toContain(`schedule lag p99 424.0 ms > ${SELF_CHECK_THRESHOLDS.scheduleLagP99Ms} ms`);
    expect(a.thresholds.scheduleLagP99Ms).toBe(50);
    const fine = new SelfCheckMonitor();
    for (let i = 0; i < 100; i++) fine.recordLag(3);
    expect(fine.result(null).reasons.some((r) => r.startsWith('schedule lag'))).toBe(false);
  });
});

describe('streams held back (engine/io/backlog.ts)', () => {
  const io = (holds: number, heldMs: number, heldMaxMs: number) => ({
    threads: 1,
    loopDelayP99Ms: 0.5,
    loopDelayMaxMs: 2,
    stalls: 0,
    stallMs: 0,
    gcCount: 0,
    gcPauseMs: 0,
    gcMaxMs: 0,
    cpuPct: 10,
    reads: 1000,
    holds,
    heldMs,
    heldMaxMs,
  });

  it('a hold longer than the stall bound flags the run, saying how many, how long and the longest', () => {
    const r = new SelfCheckMonitor().result(io(3, 40.5, 31.2));
    expect(r.flagged).toBe(true);
    expect(r.reasons).toContain(
      'streams held back 3 times (41 ms in all, the longest 31.2 ms > 5 ms): the measuring thread fell behind, so the reads after a hold are stamped late',
    );
  });

  it('no hold, or only short ones, does not', () => {
    for (const figures of [io(0, 0, 0), io(2, 3, 2.5)]) {
      const r = new SelfCheckMonitor().result(figures);
      expect(r.reasons.filter((x) => x.startsWith('streams held back'))).toEqual([]);
      expect(r.flagged).toBe(false);
    }
  });
});
