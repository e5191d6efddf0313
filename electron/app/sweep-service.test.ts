/**
 * The app's sweeps through the contract (dispatch validates the arguments as both transports do):
 * a short auto sweep and a two-step SLO search against the built-in simulator, their events in
 * order, the sweep file listed and opened, a run refused while a sweep holds the server, bad plans
 * and keys refused.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../shared/api.ts';
import type { SweepFile } from '../../shared/runs/sweep/file.ts';
import type { SweepEvent, SweepList } from '../../shared/sweeps-api.ts';
import { tmpDir } from '../testing/runs.ts';
import { testCore, type RecordedEvent } from '../testing/core.ts';
import { untilValue } from '../testing/until.ts';
import type { Core } from './core.ts';
import { dispatch } from './handlers.ts';
import { SIM_TARGET_ID as SIM } from './targets-service.ts';

let core: Core;
let events: RecordedEvent[] = [];

function call<T>(method: string, ...args: unknown[]): Promise<Result<T>> {
  return dispatch(core.handlers, method, args) as Promise<Result<T>>;
}

async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = await call<T>(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value;
}

function sweepEvents(sweepId: string): SweepEvent[] {
  return events
    .filter((e) => e.event === 'onSweepProgress')
    .map((e) => e.payload as SweepEvent)
    .filter((e) => e.sweepId === sweepId);
}

function done(sweepId: string): Promise<Extract<SweepEvent, { kind: 'done' }>> {
  return untilValue(
    () => sweepEvents(sweepId).find((e): e is Extract<SweepEvent, { kind: 'done' }> => e.kind === 'done'),
    { timeoutMs: 60_000, everyMs: 20, what: 'the sweep to end' },
  );
}

const workload = {
  requests: 12,
  rate: 'inf',
  seed: 5,
  testRequest: false,
  prompts: { type: 'synthetic', inputLen: 16, outputLen: 8 },
};

beforeAll(async () => {
  ({ core, events } = await testCore({ runsDir: path.join(tmpDir('tokenscope-app-sweeps-'), 'not-yet') }));
});

afterAll(async () => {
  await core.close();
});

describe('sweeps through the contract', () => {
  it('runs an auto sweep on the simulator, a step at a time, and reports each step', async () => {
    const { sweepId, key } = await value<{ sweepId: string; key: string }>('startSweep', {
      targetId: SIM,
      workload,
      name: 'auto',
      plan: { rate: 'auto', steps: 1, refine: 0 },
    });
    expect(key).toMatch(/^sweep-\d{8}-\d{6}(-[0-9a-f]{6})?\.json$/);
    // The server is held: a run is refused while the sweep goes on.
    const run = await call('startRun', { targetId: SIM, workload });
    expect(run.ok).toBe(false);
    if (!run.ok) expect(run.error.code).toBe('busy');

    const end = await done(sweepId);
    expect(end.error).toBeNull();
    expect(end.cancelled).toBe(false);
    const file = end.file!;
    // Baseline (concurrency 1), ceiling (rate inf), one rate between their request rates (no
    // refinement after it: refine 0).
    expect(file.steps.map((s) => s.role)).toEqual(['baseline', 'ceiling', 'step']);
    const ev = sweepEvents(sweepId);
    const kinds = ev.map((e) => e.kind).filter((k) => k !== 'step-progress');
    expect(kinds).toEqual([
      'started',
      'step-started',
      'step-finished',
      'step-started',
      'step-finished',
      'step-started',
      'step-finished',
      'done',
    ]);
    const finished = ev.filter(
      (e): e is Extract<SweepEvent, { kind: 'step-finished' }> => e.kind === 'step-finished',
    );
    // Each step's numbers arrive with it, and the file grows a step at a time.
    finished.forEach((f, i) => {
      expect(f.step.index).toBe(i);
      expect(f.step.numbers.completed).toBe(12);
      expect(f.step.numbers.outputTokPerS).toBeGreaterThan(0);
      expect(f.file.steps).toHaveLength(i + 1);
    });
    const between = file.steps[2]!.load;
    expect(between.kind).toBe('rate');
    const lo = file.steps[0]!.numbers.requestsPerS;
    const hi = file.steps[1]!.numbers.requestsPerS;
    expect(between.value).toBeGreaterThan(lo);
    expect(between.value).toBeLessThan(hi);

    const list = await value<SweepList>('listSweeps');
    expect(list.sweeps.map((s) => [s.key, s.steps, s.plan, s.running])).toEqual([
      [key, 3, 'rate-auto', false],
    ]);
    const opened = await value<SweepFile>('openSweep', key);
    expect(opened.steps.map((s) => s.numbers.outputTokPerS)).toEqual(
      file.steps.map((s) => s.numbers.outputTokPerS),
    );
  });

  it("an SLO search reports each search step's verdict", async () => {
    const { sweepId } = await value<{ sweepId: string }>('startSweep', {
      targetId: SIM,
      workload,
      plan: { slo: 'p99_e2el_ms<=600000', maxSteps: 2 },
    });
    const end = await done(sweepId);
    expect(end.error).toBeNull();
    const verdicts = sweepEvents(sweepId).filter((e) => e.kind === 'slo-verdict');
    expect(verdicts.map((v) => (v.kind === 'slo-verdict' ? v.verdict : null))).toEqual(['pass']);
    expect(end.file!.slo?.passing?.load).toBeGreaterThan(0);
  });

  it("refuses a bad plan naming the form's fields (not the CLI's flags), and keys that leave the folder", async () => {
    const r = await call('startSweep', { targetId: SIM, workload, plan: { rate: '2,abc' } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('Rates (req/s): "abc" is not a rate above 0 or inf');
    const slo = await call('startSweep', { targetId: SIM, workload, plan: { slo: 'p99_ttft<=5' } });
    expect(!slo.ok && slo.error.message).toMatch(/^SLO terms: /);
    expect(!slo.ok && slo.error.message).not.toContain('--');
    const conc = await call('startSweep', { targetId: SIM, workload, plan: { concurrency: '1,2.5' } });
    expect(!conc.ok && conc.error.message).toBe('Concurrencies: whole numbers above 0');
    const none = await call('startSweep', { targetId: SIM, workload, plan: {} });
    expect(!none.ok && none.error.message).toContain('give --concurrency LIST');
    expect((await call('openSweep', '../x.json')).ok).toBe(false);
    expect((await call('openSweep', 'nope.json')).ok).toBe(false);
  });
});
