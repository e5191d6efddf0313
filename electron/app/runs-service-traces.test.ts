/**
 * The run form's "listen for server traces" through the contract (dispatch validates the arguments
 * as the app's IPC and web mode's socket both do): a run against a simulator that exports its spans
 * to the run's own receiver gets summary.serverPhases as a CLI run does, with every request joined;
 * a port already taken refuses the run with a clear error and starts nothing.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result, TargetView } from '../../shared/api.ts';
import type { OtlpExported, RunDetail, RunFinished, RunList } from '../../shared/runs-api.ts';
import { startSpanReceiver } from '../runs/server-spans.ts';
import { closedPort } from '../testing/cli.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { tmpDir } from '../testing/runs.ts';
import { testCore, type RecordedEvent } from '../testing/core.ts';
import { until, untilValue } from '../testing/until.ts';
import type { Core } from './core.ts';
import { dispatch } from './handlers.ts';

let core: Core;
let events: RecordedEvent[] = [];
let sim: SimServer;
let target = '';
let port = 0;

function call<T>(method: string, ...args: unknown[]): Promise<Result<T>> {
  return dispatch(core.handlers, method, args) as Promise<Result<T>>;
}

/** A port free a moment ago: the simulator must know where to send before the run listens. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return p;
}

const workload = {
  requests: 8,
  maxConcurrency: 4,
  seed: 5,
  prompts: { type: 'synthetic', inputLen: 40, outputLen: 6 },
};

beforeAll(async () => {
  ({ core, events } = await testCore({ runsDir: tmpDir('tokenscope-app-traces-') }));
  port = await freePort();
  sim = await startSim({ port: 0, decodeStepMs: 2, otlpEndpoint: `http://127.0.0.1:${port}/v1/traces` });
  const saved = await call<TargetView>('saveTarget', {
    name: 'traced sim',
    baseUrl: sim.url,
    dialect: 'openai-chat',
  });
  if (!saved.ok) throw new Error(saved.error.message);
  target = saved.value.id;
});

afterAll(async () => {
  await core.close();
  await sim.close();
});

describe('a run that listens for server traces', () => {
  it("joins the simulator's spans: summary.serverPhases, every request, in the file too", async () => {
    const started = await call<{ runId: string; key: string }>('startRun', {
      targetId: target,
      workload,
      otlpListen: { port },
    });
    expect(started.ok, started.ok ? '' : started.error.message).toBe(true);
    if (!started.ok) return;
    const { runId, key } = started.value;
    const fin = await untilValue(
      () => events.find((e) => e.event === 'onRunFinished' && e.payload.runId === runId),
      { timeoutMs: 30_000, everyMs: 20, what: 'the run finished' },
    );
    const f = fin.payload as RunFinished;
    expect(f.error).toBe(null);
    const sp = f.summary!.serverPhases!;
    expect(sp).toMatchObject({ requests: 8, joined: 8, sharedClock: true });
    expect(sp.queueMs).not.toBe(null);
    expect(sp.sendMs).not.toBe(null);
    const opened = await call<RunDetail>('openRun', key);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.value.summary.serverPhases?.joined).toBe(8);
    // The receiver closed with the run: the port is free again.
    const again = net.createServer();
    await new Promise<void>((r, j) => {
      again.once('error', j);
      again.listen(port, '127.0.0.1', r);
    });
    await new Promise((r) => again.close(r));
  });

  it('refuses a run when the port is taken, saying so, and starts nothing', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const taken = (holder.address() as AddressInfo).port;
    try {
      const before = events.filter((e) => e.event === 'onRunStarted').length;
      const r = await call('startRun', { targetId: target, workload, otlpListen: { port: taken } });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.message).toContain(`127.0.0.1:${taken}`);
      expect(r.error.message).toMatch(/port is taken/);
      expect(events.filter((e) => e.event === 'onRunStarted').length).toBe(before);
      // The service is free for the next run.
      const next = await call<{ runId: string }>('startRun', {
        targetId: target,
        workload: { ...workload, requests: 1 },
      });
      expect(next.ok).toBe(true);
      if (next.ok)
        await until(
          () => events.some((e) => e.event === 'onRunFinished' && e.payload.runId === next.value.runId),
          30_000,
          20,
        );
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });

  it("exports a run as OTLP spans to an endpoint (the run view's button): one per request, in its trace", async () => {
    const runs = await call<RunList>('listRuns');
    if (!runs.ok) throw new Error(runs.error.message);
    const key = runs.value.runs[0]!.key;
    const opened = await call<RunDetail>('openRun', key);
    if (!opened.ok) throw new Error(opened.error.message);
    const receiver = await startSpanReceiver(0);
    const measured = opened.value.lines!.filter((l) => !l.warmup);
    for (const l of measured) receiver.expect(l.trace!.traceId);
    try {
      const r = await call<OtlpExported>('exportRunOtlp', key, receiver.url);
      expect(r.ok, r.ok ? '' : r.error.message).toBe(true);
      expect(r.ok && r.value.spans).toBe(measured.length);
      expect(
        receiver
          .spans()
          .map((s) => s.traceId)
          .sort(),
      ).toEqual(measured.map((l) => l.trace!.traceId).sort());
      const refused = await call('exportRunOtlp', key, `http://127.0.0.1:${await closedPort()}/v1/traces`);
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.error.message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+/);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a port out of range at the contract', async () => {
    const r = await call('startRun', { targetId: target, workload, otlpListen: { port: 70000 } });
    expect(r.ok).toBe(false);
  });
});
