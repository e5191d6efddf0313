// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { RunProgress } from '../../../shared/runs/live/progress-types.ts';
import { progressLine } from '../../../shared/runs/live/progress-text.ts';
import type { LiveRun } from '../run-store.ts';
import { phaseOf } from './LiveDashboard.tsx';

const progress = (phase: RunProgress['phase'], queued: number): RunProgress =>
  ({
    runId: 'r',
    phase,
    elapsedMs: 1000,
    total: 300,
    durationMs: null,
    arrived: 300,
    started: 300 - queued,
    completed: 100,
    failed: 0,
    inFlight: 32,
    queued,
    maxInFlight: 32,
    warmupDone: 0,
    warmupTotal: 0,
    outputTokens: 0,
    fraction: 0.33,
    etaMs: 2000,
    live: { ttft: null, itl: null },
    selfCheck: { eventLoopDelayP99Ms: 1, cpuPct: null },
  }) as unknown as RunProgress;

describe('the live phase', () => {
  it('is "running" while requests still wait for a slot, "draining" only once none does', () => {
    const live = (p: RunProgress) => ({ progress: p, finished: null }) as unknown as LiveRun;
    expect(phaseOf(live(progress('draining', 167)))).toBe('running');
    expect(phaseOf(live(progress('draining', 0)))).toBe('draining');
    expect(progressLine(progress('draining', 167))).toMatch(/167 queued · ETA/);
    expect(progressLine(progress('draining', 0))).toMatch(/· draining/);
  });

  it('a run by sessions stays "running" while its sessions send their next steps, with an ETA', () => {
    const live = (p: RunProgress) => ({ progress: p, finished: null }) as unknown as LiveRun;
    const p = { ...progress('draining', 0), total: null, sessions: { done: 4, total: 12 } };
    expect(phaseOf(live(p))).toBe('running');
    expect(progressLine(p)).toMatch(/100 done · 4\/12 sessions · 0 failed · 32 in flight · ETA 2s/);
  });
});
