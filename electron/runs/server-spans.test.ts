// Done means (issue 28): a run against the simulator with tracing on has, for every request, the
// server phases the simulator ran (its ground truth) within 1 ms, joined by trace id through a real
// OTLP export (the official exporter, protobuf and JSON) to Tokenscope's receiver; and TTFT parts
// that sum to the client's TTFT. Spans of traces the run never sent are counted, never attached.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunFile } from './files/run-file.ts';
import { collectSpans, startSpanReceiver, type SpanReceiver } from './server-spans.ts';
import { ttftParts } from '../../shared/tracing/ttft-parts.ts';
import { summaryText } from '../../shared/runs/summary/text.ts';
import { parseRunText } from '../../shared/runs/run-file/parse.ts';
import { rederiveRun } from '../../shared/runs/summary/rederive.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { runAgainst, tmpDir } from '../testing/runs.ts';

const dir = tmpDir();

for (const protocol of ['http/protobuf', 'http/json'] as const)
  describe(`a traced run against the simulator (${protocol})`, () => {
    let receiver: SpanReceiver;
    let sim: SimServer;
    let r: Awaited<ReturnType<typeof runAgainst>>;
    const out = path.join(dir, `${protocol.replace('/', '-')}.jsonl`);
    beforeAll(async () => {
      receiver = await startSpanReceiver(0);
      sim = await startSim({
        port: 0,
        decodeStepMs: 4,
        prefillMsPerToken: 0.05,
        maxNumSeqs: 2, // a queue forms: queue times are not all zero
        groundTruth: true,
        otlpEndpoint: receiver.url,
        otlpProtocol: protocol,
      });
      r = await runAgainst(
        sim,
        {
          requests: 12,
          maxConcurrency: 4,
          seed: 3,
          prompts: {
            type: 'synthetic',
            inputLen: { type: 'uniform', min: 16, max: 200 },
            outputLen: { type: 'uniform', min: 3, max: 10 },
          },
        },
        { spans: receiver, outFile: out, spanWaitMs: 10_000 },
      );
    }, 60_000);
    afterAll(async () => {
      await sim.close();
      await receiver.close();
    });

    it("joins every request's span: its phases are the simulator's within 1 ms", () => {
      const truth = new Map(sim.groundTruthPhases!().map((p) => [p.requestId, p]));
      const measured = r.lines.filter((l) => !l.warmup);
      expect(measured.length).toBe(12);
      let queued = 0;
      for (const l of measured) {
        expect(l.status).toBe('ok');
        const t = truth.get(l.trace!.requestId)!;
        expect(t, l.id).toBeDefined();
        expect(t.traceparent).toBe(`00-${l.trace!.traceId}-${l.trace!.spanId}-01`);
        const s = l.server!;
        expect(s, l.id).toBeDefined();
        for (const k of ['queueMs', 'prefillMs', 'decodeMs', 'inferenceMs', 'ttftMs', 'e2eMs'] as const)
          expect(Math.abs(s[k]! - t[k]), `${l.id} ${k}`).toBeLessThan(1);
        expect(Math.abs(s.startWallMs - t.arrivalWallMs)).toBeLessThan(1);
        expect(s.completionTokens).toBe(t.completionTokens);
        if (s.queueMs! > 1) queued++;
      }
      expect(queued).toBeGreaterThan(0);
    });

    it("decomposes each client TTFT into parts that sum to it; the server's part fits inside it", () => {
      for (const l of r.lines.filter((x) => !x.warmup)) {
        const p = ttftParts(l.ttftMs, l.server, r.header.clockZeroWall! + l.sentMs!)!;
        expect(p.sharedClock).toBe(true);
        const sum = p.sendMs! + p.preQueueMs + p.queueMs + p.prefillMs + p.returnMs!;
        expect(Math.abs(sum - l.ttftMs!)).toBeLessThan(1e-6);
        // Causality on one clock: the request reaches the server after it was sent, and the first
        // token reaches the client after it left the server (to the clocks' resolution).
        expect(p.sendMs!).toBeGreaterThan(-1);
        expect(p.returnMs!).toBeGreaterThan(-1);
        expect(p.outsideServerMs).toBeCloseTo(p.sendMs! + p.returnMs!, 6);
      }
    });

    it('puts exact server-phase percentiles in the summary and the file, and reads them back', async () => {
      const sp = r.summary.serverPhases!;
      expect(sp).toMatchObject({ requests: 12, joined: 12, sharedClock: true });
      expect(summaryText(r.summary)).toMatch(
        /Server Phases \(spans: 12\/12 requests\)[\s\S]*Queue[\s\S]*send \(derived\)/,
      );
      const queues = r.lines
        .filter((l) => !l.warmup)
        .map((l) => l.server!.queueMs!)
        .sort((a, b) => a - b);
      expect(sp.queueMs!.max).toBe(queues.at(-1));
      expect(sp.queueMs!.min).toBe(queues[0]);
      const f = await readRunFile(out);
      expect(f.ok).toBe(true);
      if (!f.ok) return;
      expect(f.value.summary.serverPhases?.queueMs?.max).toBe(queues.at(-1));
      for (const l of f.value.requests.filter((x) => !x.warmup)) expect(l.server).toBeDefined();
    });

    it('keeps the shared clock when the file is reopened without its summary, or re-derived', async () => {
      // An interrupted run: the spans line was written, the summary line never was.
      const text = await fs.readFile(out, 'utf8');
      const cut = text
        .split('\n')
        .filter((l) => !l.startsWith('{"type":"summary"'))
        .join('\n');
      expect(cut.length).toBeLessThan(text.length);
      const p = parseRunText(cut);
      expect(p.ok).toBe(true);
      if (!p.ok) return;
      expect(p.value.partial).toBe(true);
      const sp = p.value.summary.serverPhases!;
      expect(sp.sharedClock).toBe(true);
      expect(sp.sendMs?.median).toBe(r.summary.serverPhases!.sendMs!.median);
      expect(sp.returnMs?.p99).toBe(r.summary.serverPhases!.returnMs!.p99);
      const again = rederiveRun(r.header, r.lines, r.summary, 'vllm').summary.serverPhases!;
      expect(again.sharedClock).toBe(true);
      expect(again.sendMs).not.toBe(null);
    });
  });

describe('spans of traces the run never sent', () => {
  it('are counted and listed, never attached', async () => {
    const receiver = await startSpanReceiver(0);
    const sim = await startSim({ port: 0, decodeStepMs: 2, otlpEndpoint: receiver.url });
    try {
      // Someone else's client: its own trace, straight to the server.
      const foreign = '11111111111111111111111111111111';
      const res = await fetch(`${sim.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${foreign}-2222222222222222-01` },
        body: JSON.stringify({
          model: 'tokenscope-sim',
          messages: [{ role: 'user', content: 'hi' }],
          max_tokens: 3,
        }),
      });
      await res.text();
      const r = await runAgainst(
        sim,
        { requests: 3, maxConcurrency: 1, testRequest: false },
        { spans: receiver, spanWaitMs: 10_000 },
      );
      const lines = r.lines.filter((l) => !l.warmup);
      expect(lines.every((l) => l.server !== undefined)).toBe(true);
      expect(r.summary.serverPhases!.joined).toBe(3);
      expect(await readSpansOf(receiver, foreign)).toBe(true);
      const joined = await collectSpans(receiver, r.lines, sim.url, { waitMs: 0 });
      expect(joined.unmatched.traceIds).toContain(foreign);
      expect(joined.unmatched.spans).toBeGreaterThanOrEqual(1);
      expect(Object.keys(joined.phases).sort()).toEqual(lines.map((l) => l.id).sort());
      for (const p of Object.values(joined.phases)) expect(p.requestId).not.toBe(null);
    } finally {
      await sim.close();
      await receiver.close();
    }
  });
});

/** Whether the receiver has counted a span of that (never expected) trace; it keeps none of them. */
async function readSpansOf(receiver: SpanReceiver, traceId: string): Promise<boolean> {
  const seen = () => receiver.unknown().traceIds.includes(traceId);
  for (let i = 0; i < 100 && !seen(); i++) await new Promise((r) => setTimeout(r, 50));
  return seen() && !receiver.spans().some((s) => s.traceId === traceId);
}

describe('a flood of spans of unknown traces', () => {
  /** An OTLP/JSON export of `n` request-less spans, each its own trace. */
  const exportOf = (batch: number, n: number): string =>
    JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: Array.from({ length: n }, (_, i) => ({
                traceId: (batch * n + i).toString(16).padStart(32, '0'),
                spanId: '00000000000000aa',
                name: 'other',
                startTimeUnixNano: '1700000000000000000',
                endTimeUnixNano: '1700000000001000000',
              })),
            },
          ],
        },
      ],
    });

  it('keeps none of them, counts every one, lists a bounded sample; hostile bodies get a 400 and a count', async () => {
    const receiver = await startSpanReceiver(0);
    try {
      const mine = 'f'.repeat(32);
      receiver.expect(mine);
      const post = (body: string, type = 'application/json') =>
        fetch(receiver.url, { method: 'POST', headers: { 'content-type': type }, body });
      const BATCHES = 40;
      const PER = 2_000;
      for (let b = 0; b < BATCHES; b++) expect((await post(exportOf(b, PER))).status).toBe(200);
      const mineBody = JSON.parse(exportOf(0, 1)) as {
        resourceSpans: { scopeSpans: { spans: { traceId: string }[] }[] }[];
      };
      mineBody.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.traceId = mine;
      expect((await post(JSON.stringify(mineBody))).status).toBe(200);
      expect(receiver.spans().map((s) => s.traceId)).toEqual([mine]);
      const u = receiver.unknown();
      expect(u.spans).toBe(BATCHES * PER);
      expect(u.traceIds.length).toBe(50);
      expect((await post('{"resourceSpans": [', 'application/json')).status).toBe(400);
      expect((await post('\u0000\u00ff garbage', 'application/x-protobuf')).status).toBe(400);
      const st = receiver.stats();
      expect(st.rejected.json).toBe(1);
      expect(st.rejected.protobuf).toBe(1);
      expect(st.spans).toBe(BATCHES * PER + 1);
      const joined = await collectSpans(receiver, [], 'http://127.0.0.1:1', { waitMs: 0 });
      // No line owns the expected trace either: its span is unmatched too, the sample stays bounded.
      expect(joined.unmatched.spans).toBe(BATCHES * PER + 1);
      expect(joined.unmatched.traceIds.length).toBe(50);
    } finally {
      await receiver.close();
    }
  });
});
