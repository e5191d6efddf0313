/**
 * `tokenscope export --otlp URL RUN` against the repo's own receiver over loopback: every measured
 * request arrives as one span in the trace it sent (a new span id, no parent), at the recorded wall
 * time to the microsecond, with one event per chunk whose time and tokens are the run file's. No
 * secret of the run (API key, URL credentials) is in any span; batches are bounded; an endpoint that
 * refuses, or none at all, is a clear error with exit 1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunHeader, RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import { runSpansOf } from '../../shared/tracing/run-spans.ts';
import { exportSpans } from '../otlp/export.ts';
import { readRunFile } from '../runs/files/run-file.ts';
import { startSpanReceiver, type SpanReceiver } from '../runs/server-spans.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { closedPort, runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';

const PASS = 'PW-SECRET-export-1';
const KEY = 'KEY-SECRET-export-2';
const out = path.join(tmpDir('tokenscope-export-otlp-'), 'run.jsonl');
let sim: SimServer;
let receiver: SpanReceiver;
let header: RunHeader;
let lines: RunRequestLine[];

/** Epoch µs of a run-clock time, as the file gives it (3 decimals each), summed as integers. */
const wallUs = (ms: number, t = 0): bigint =>
  BigInt(Math.round(header.clockZeroWall! * 1000)) +
  BigInt(Math.round(ms * 1000)) +
  BigInt(Math.round(t * 1000));
const spanUs = (wallMs: number): bigint => BigInt(Math.round(wallMs * 1000));

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 2 });
  const target = sim.url.replace('http://', `http://tsuser:${PASS}@`);
  const r = await runCli(
    [
      'run',
      '--target',
      target,
      '--api-key',
      KEY,
      '-n',
      '10',
      '-c',
      '3',
      '--warmup',
      '1',
      '--output-len',
      '12',
      '--out',
      out,
      '-q',
    ],
    40_000,
  );
  expect(r.code, r.stderr).toBe(0);
  const f = await readRunFile(out);
  if (!f.ok) throw new Error(f.error);
  ({ header, requests: lines } = f.value);
  receiver = await startSpanReceiver(0);
  // The receiver keeps only traces it was told of (the export continues the run's traces).
  for (const l of lines) if (l.trace) receiver.expect(l.trace.traceId);
}, 60_000);

afterAll(async () => {
  await sim.close();
  await receiver.close();
});

describe('tokenscope export --otlp', () => {
  it("sends every measured request as a span in its own trace, at the file's times, one event per chunk", async () => {
    const r = await runCli(['export', '--otlp', receiver.url, out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/sent 10 spans \(\d+ chunk events\) in 1 batch/);
    const spans = receiver.spans();
    const measured = lines.filter((l) => !l.warmup);
    expect(measured.length).toBe(10);
    expect(spans.length).toBe(10);
    for (const l of measured) {
      const s = spans.find((x) => x.traceId === l.trace!.traceId)!;
      expect(s, l.id).toBeDefined();
      expect(s.parentSpanId).toBe('');
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(s.spanId).not.toBe(l.trace!.spanId);
      expect(s.kind).toBe(3); // CLIENT
      expect(s.serviceName).toBe('tokenscope');
      expect(spanUs(s.startWallMs)).toBe(wallUs(l.sentMs!));
      expect(spanUs(s.endWallMs)).toBe(wallUs(l.sentMs!, l.phases.endMs!));
      expect(s.attributes['tokenscope.request.id']).toBe(l.id);
      expect(s.attributes['tokenscope.x_request_id']).toBe(l.trace!.requestId);
      expect(s.attributes['gen_ai.usage.output_tokens']).toBe(l.outputTokens);
      const ev = s.events!;
      expect(ev.length).toBe(l.events.t.length);
      ev.forEach((e, i) => {
        expect(spanUs(e.timeWallMs), `${l.id} event ${i}`).toBe(wallUs(l.sentMs!, l.events.t[i]!));
        expect(e.attributes['tokenscope.chunk.tokens']).toBe(l.events.tok[i]);
      });
    }
    // Nothing secret anywhere in what was sent.
    const text = JSON.stringify(spans);
    expect(text).not.toContain(PASS);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('tsuser');
  }, 30_000);

  it('batches in bounded sizes', async () => {
    const r = await startSpanReceiver(0);
    try {
      const built = runSpansOf(header, lines, () => Math.random().toString(16).slice(2, 10).padEnd(16, '0'));
      for (const s of built.spans) r.expect(s.traceId);
      const res = await exportSpans(r.url, built.spans, { resource: {}, maxSpans: 4 });
      expect(res).toEqual({ ok: true, value: { spans: 10, batches: 3 } });
      expect(r.stats().exports).toBe(3);
      const events = built.spans.reduce((n, s) => n + s.events.length, 0);
      const byEvents = await exportSpans(r.url, built.spans, {
        resource: {},
        maxEvents: Math.ceil(events / 4),
      });
      expect(byEvents.ok && byEvents.value.batches).toBeGreaterThanOrEqual(4);
      expect(r.spans().length).toBe(20);
    } finally {
      await r.close();
    }
  });

  it('an endpoint that refuses, or none, is a clear error with exit 1', async () => {
    const refusing = http.createServer((req, res) => {
      req.resume();
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('tenant not allowed');
    });
    await new Promise<void>((ok) => refusing.listen(0, '127.0.0.1', ok));
    try {
      const port = (refusing.address() as AddressInfo).port;
      const r = await runCli(['export', '--otlp', `http://127.0.0.1:${port}/v1/traces`, out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('the endpoint refused the spans: HTTP 403 (tenant not allowed)');
    } finally {
      await new Promise((ok) => refusing.close(ok));
    }
    const none = await runCli(['export', '--otlp', `http://127.0.0.1:${await closedPort()}/v1/traces`, out]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    const bad = await runCli([
      'export',
      '--otlp',
      receiver.url,
      path.join(path.dirname(out), 'missing.jsonl'),
    ]);
    expect(bad.code).toBe(2);
  }, 30_000);
});
