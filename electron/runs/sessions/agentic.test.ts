/**
 * Agentic sessions against the simulator (real HTTP over loopback): every step answered with a tool
 * call (share 1) runs to the step cap and the summary says the sessions were capped; each step
 * after the first waits the injected tool latency and resends the calls and results; with share 0
 * every session ends after one step. Tool-call numbers in the summary; bad JSON classified apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../../sim/index.ts';
import { runAgainst } from '../../testing/runs.ts';
import type { DialectId } from '../../../shared/dialects.ts';
import { progressLine } from '../../../shared/runs/live/progress-text.ts';

const LATENCY = 40;
let sim: SimServer;
let never: SimServer;

beforeAll(async () => {
  const o = { port: 0, decodeStepMs: 2, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 };
  sim = await startSim({ ...o, toolCallShare: 1 });
  never = await startSim({ ...o, toolCallShare: 0 });
});
afterAll(async () => {
  await sim.close();
  await never.close();
});

const workload = () => ({
  requests: 3,
  maxConcurrency: 3,
  seed: 2,
  testRequest: false,
  prompts: { type: 'tools' as const, outputLen: 16 },
  sampling: { maxTokens: 16 },
  tools: { agentic: { maxSteps: 3, toolLatencyMs: LATENCY, resultChars: 50 } },
});

describe('agentic sessions against the simulator', () => {
  it.each(['openai-chat', 'anthropic-messages', 'openai-responses'] as DialectId[])(
    '%s: a model that always calls a tool stops at the cap, and the summary says so',
    async (dialect) => {
      const r = await runAgainst(sim, workload(), {
        target: { url: sim.url, dialect, model: 'tokenscope-sim' },
      });
      const lines = r.lines.filter((l) => !l.warmup);
      expect(lines).toHaveLength(9);
      expect(lines.every((l) => l.status === 'ok')).toBe(true);
      for (const s of [0, 1, 2]) {
        const steps = [1, 2, 3].map((t) => lines.find((l) => l.session === s && l.turn === t)!);
        // Each later step carries the calls and results so far: its prompt grows.
        expect(steps[1]!.inputTokens!).toBeGreaterThan(steps[0]!.inputTokens!);
        expect(steps[2]!.inputTokens!).toBeGreaterThan(steps[1]!.inputTokens!);
        expect(steps[0]!.toolWaitMs).toBeUndefined();
        // The wait is measured: at least the injected latency (timers never fire early by more than 1 ms).
        expect(steps[1]!.toolWaitMs!).toBeGreaterThanOrEqual(LATENCY - 1);
        expect(steps.every((l) => l.tools!.calls.length === 1 && l.tools!.calls[0]!.check === 'ok')).toBe(
          true,
        );
      }
      const t = r.summary.tools!;
      expect(t.calls).toBe(9);
      expect(t.failureRate).toBe(0);
      expect(t.agentic).toMatchObject({ sessions: 3, steps: 9, cappedSessions: 3, maxSteps: 3 });
      expect(t.agentic!.toolWaitMs!.min!).toBeGreaterThanOrEqual(2 * (LATENCY - 1));
      // The session's time holds both the server's and the tools'.
      expect(t.agentic!.sessionMs!.min!).toBeGreaterThanOrEqual(t.agentic!.toolWaitMs!.min!);
      expect(t.ttftToolMs!.count).toBe(9);
      expect(t.toolItlMs!.count).toBeGreaterThan(0);
    },
    60_000,
  );

  it('progress counts sessions: the bar and the line follow the sessions ended, the requests have no total', async () => {
    const r = await runAgainst(sim, { ...workload(), maxConcurrency: 1 }); // one session at a time
    const running = r.progress.filter((p) => p.phase === 'running' || p.phase === 'draining');
    expect(running.length).toBeGreaterThan(2);
    for (const p of r.progress.filter((q) => q.phase !== 'test' && q.phase !== 'warmup')) {
      expect(p.total).toBeNull();
      expect(p.sessions!.total).toBe(3);
      if (p.phase !== 'done') expect(p.fraction).toBeCloseTo(p.sessions!.done / 3, 9);
    }
    const dones = running.map((p) => p.sessions!.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b)); // never goes back
    expect(new Set(dones).size).toBeGreaterThan(1); // seen moving while the run went on
    const last = r.progress.at(-1)!;
    expect(last).toMatchObject({ phase: 'done', fraction: 1, sessions: { done: 3, total: 3 }, completed: 9 });
    expect(progressLine(last)).toMatch(
      /^\[#{24}\] 100% · 9 done · 3\/3 sessions · 0 failed · 0 in flight · ETA /,
    );
  }, 60_000);

  it('a model that answers without calling ends every session after one step', async () => {
    const r = await runAgainst(never, workload());
    const lines = r.lines.filter((l) => !l.warmup);
    expect(lines).toHaveLength(3);
    expect(r.summary.tools).toMatchObject({ requests: 3, calls: 0, failureRate: null });
    expect(r.summary.tools!.agentic).toMatchObject({ sessions: 3, steps: 3, cappedSessions: 0 });
  }, 60_000);

  it('malformed arguments are counted as bad JSON, apart from transport errors', async () => {
    const r = await runAgainst(sim, {
      requests: 4,
      maxConcurrency: 4,
      testRequest: false,
      prompts: { type: 'tools' as const },
      sampling: { maxTokens: 12 },
      extraBody: { sim_fault: 'bad-tool-json@0.5' },
    });
    const t = r.summary.tools!;
    expect(t.errors).toBe(0);
    expect(t.calls).toBe(4);
    expect(t.badJson).toBeGreaterThan(0);
    expect(t.badJson).toBeLessThan(4);
    expect(t.failureRate).toBe(t.badJson / 4);
  }, 60_000);
});
