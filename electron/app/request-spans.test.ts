/**
 * The request debugger's server phases: a request sent from the debugger (RequestService, as the
 * composer sends it) to the simulator with tracing on, its span exported by the official OTLP
 * exporter to the app's receiver, joined by trace id: the phases are the simulator's ground truth
 * within 1 ms and the TTFT parts sum to the client's TTFT. A server that does not trace leaves the
 * snapshot without `server`, and the receiver lets every trace go once its request is done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FireInput, RequestSnapshot } from '../../shared/api.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { ttftParts } from '../../shared/tracing/ttft-parts.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { startSpanReceiver, type SpanReceiver } from '../runs/server-spans.ts';
import { RequestService } from './requests-service.ts';
import { DebuggerSpans } from './request-spans.ts';
import type { ResolvedTarget } from './targets-service.ts';

let receiver: SpanReceiver;
let sim: SimServer;
let plain: SimServer;
let service: RequestService;
const finished: RequestSnapshot[] = [];

beforeAll(async () => {
  receiver = await startSpanReceiver(0);
  sim = await startSim({
    port: 0,
    decodeStepMs: 4,
    prefillMsPerToken: 0.05,
    groundTruth: true,
    otlpEndpoint: receiver.url,
  });
  plain = await startSim({ port: 0, decodeStepMs: 2 });
  service = new RequestService(
    (name, payload) => {
      if (name === 'onRequestFinished') finished.push(payload as RequestSnapshot);
    },
    undefined,
    new DebuggerSpans(receiver, 3_000),
  );
});
afterAll(async () => {
  service.dispose();
  await sim.close();
  await plain.close();
  await receiver.close();
});

const targetOf = (s: SimServer): ResolvedTarget => ({
  id: 't',
  name: 'sim',
  baseUrl: s.url,
  dialect: 'openai-chat',
  headers: {},
  insecureTls: false,
});
const input: FireInput = {
  targetId: 't',
  model: 'tokenscope-sim',
  messages: [{ role: 'user', content: 'Tell me about clocks.' }],
  params: { maxTokens: 12 },
};

async function until<T>(f: () => T | undefined, ms = 10_000): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the debugger's own requests get their server phases", () => {
  it("joins the simulator's span: phases within 1 ms of its ground truth, TTFT parts that sum", async () => {
    const id = service.fire(input, targetOf(sim));
    const snap = await until(() => finished.find((s) => s.summary.id === id && s.server));
    // First the request as the client measured it, then again with the server's span.
    expect(finished.filter((s) => s.summary.id === id).length).toBe(2);
    const rec = snap.record;
    expect(rec.error).toBe(null);
    const truth = sim.groundTruthPhases!().find((p) => p.requestId === rec.trace!.requestId)!;
    expect(truth).toBeDefined();
    const { phases, sharedClock } = snap.server!;
    expect(sharedClock).toBe(true);
    for (const k of ['queueMs', 'prefillMs', 'decodeMs', 'ttftMs', 'e2eMs'] as const)
      expect(Math.abs(phases[k]! - truth[k]), k).toBeLessThan(1);
    expect(Math.abs(phases.startWallMs - truth.arrivalWallMs)).toBeLessThan(1);
    const ttft = computeRequestStats(rec).ttftMs!;
    const p = ttftParts(ttft, phases, rec.startedAtWall)!;
    const sum = p.sendMs! + p.preQueueMs + p.queueMs + p.prefillMs + p.returnMs!;
    expect(Math.abs(sum - ttft)).toBeLessThan(1e-6);
    expect(p.sendMs!).toBeGreaterThan(-1);
    expect(p.returnMs!).toBeGreaterThan(-1);
    // The history keeps it, and the receiver has let the trace go.
    expect(service.get(id)?.server?.phases.spanId).toBe(phases.spanId);
    expect(receiver.spans().some((s) => s.traceId === rec.trace!.traceId)).toBe(false);
  });

  it('a server that does not trace: one snapshot, no server side, nothing held', async () => {
    const before = receiver.spans().length;
    const id = service.fire(input, targetOf(plain));
    await until(() => finished.find((s) => s.summary.id === id));
    await new Promise((r) => setTimeout(r, 3_300)); // past the wait
    expect(finished.filter((s) => s.summary.id === id).length).toBe(1);
    expect(service.get(id)?.server).toBeUndefined();
    expect(receiver.spans().length).toBe(before);
  });
});
