import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fireRequest, initialRows } from './client.ts';
import type { EventColumns } from '../../shared/event-columns.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import type { RequestSpec } from '../../shared/request.ts';
import { EV_CONTENT, EV_TERMINAL } from '../../shared/request.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { STREAMING_DIALECT_IDS, type DialectId } from '../../shared/dialects.ts';

let sim: SimServer;

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 3, decodeStepPerSeqMs: 0, prefillMsPerToken: 0, seed: 7 });
});
afterAll(async () => {
  await sim.close();
});

function spec(over: Partial<RequestSpec> = {}): RequestSpec {
  return {
    url: sim.url,
    dialect: 'openai-chat',
    model: 'tokenscope-sim',
    prompt: 'Tell me about lighthouses.',
    params: { maxTokens: 12, ignoreEos: true },
    ...over,
  };
}

describe('each dialect end to end against the simulator', () => {
  for (const d of STREAMING_DIALECT_IDS) {
    it(`${d}: streams, terminates, counts 12 tokens`, async () => {
      const rec = await fireRequest(spec({ dialect: d as DialectId }));
      expect(rec.error).toBeNull();
      expect(rec.status).toBe(200);
      expect(rec.terminated).toBe(true);
      const s = computeRequestStats(rec);
      expect(s.outputTokens).toBe(12);
      expect(s.contentEvents).toBe(12);
      expect(rec.text.length).toBeGreaterThan(0);
      // the text is exactly the concatenation of the content events' deltas
      let joined = '';
      for (let i = 0; i < rec.events.n; i++)
        if (rec.events.flags[i]! & EV_CONTENT) joined += rec.events.text[i];
      expect(joined).toBe(rec.text + rec.reasoning);
      expect(s.ttftMs).not.toBeNull();
      expect(s.ttftMs!).toBeGreaterThanOrEqual(rec.phases.firstByteMs!);
      expect(s.itlChunkMs).toHaveLength(11);
      // phases are ordered
      const p = rec.phases;
      expect(p.connectedMs!).toBeLessThanOrEqual(p.requestWrittenMs!);
      expect(p.requestWrittenMs!).toBeLessThanOrEqual(p.headersMs!);
      expect(p.headersMs!).toBeLessThanOrEqual(p.firstByteMs!);
      expect(p.firstByteMs!).toBeLessThanOrEqual(p.endMs!);
      expect(rec.events.flags[rec.events.n - 1]! & EV_TERMINAL).toBeTruthy();
    });
  }

  it('vLLM continuous usage gives exact per-event tokens; without it tokens come from the usage total', async () => {
    const exact = computeRequestStats(await fireRequest(spec({ continuousUsage: true })));
    expect(exact.tokenSource).toBe('per-event');
    expect(exact.outputTokens).toBe(12);
    const total = computeRequestStats(await fireRequest(spec()));
    expect(total.tokenSource).toBe('usage-total');
    const none = computeRequestStats(await fireRequest(spec({ includeUsage: false })));
    expect(none.tokenSource).toBe('estimated');
    expect(none.tokensExact).toBe(false);
  });

  it('the role-only first chunk is the first event, not the TTFT', async () => {
    const rec = await fireRequest(spec());
    const s = computeRequestStats(rec);
    expect(rec.events.flags[0]! & EV_CONTENT).toBe(0);
    expect(s.firstEventMs).toBe(rec.events.t[0]);
    expect(s.ttftMs).toBeGreaterThanOrEqual(s.firstEventMs!);
  });
});

describe("a load run's record (keepRaw false)", () => {
  it('keeps the whole text and every event, but no text per event', async () => {
    // 40 chunks written one by one (several reads, several decode slices' worth of joins).
    const words = Array.from({ length: 40 }, (_, i) => `w${i}é `);
    const srv = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const next = (): void => {
        if (i === words.length) {
          res.end('data: [DONE]\n\n');
          return;
        }
        res.write(`data: {"choices":[{"index":0,"delta":{"content":"${words[i++]}"}}]}\n\n`);
        setTimeout(next, 1);
      };
      next();
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
      const params = { maxTokens: 64 };
      const full = await fireRequest(spec({ url, params }));
      const run = await fireRequest(spec({ url, params }), { keepRaw: false });
      for (const rec of [full, run]) {
        expect(rec.error?.message ?? null).toBeNull();
        expect(rec.text).toBe(words.join(''));
        expect(computeRequestStats(rec).contentEvents).toBe(40);
      }
      expect(run.raw).toBeNull();
      expect(run.events.text.slice(0, run.events.n).every((t) => t === '')).toBe(true);
      expect(full.events.text.slice(0, full.events.n).join('')).toBe(words.join(''));
    } finally {
      srv.close();
    }
  });

  it('starts its event columns at max_tokens + 8 rows, so a bounded stream never grows them', async () => {
    expect([undefined, null, 0, 12, 56, 256, 1e6].map(initialRows)).toEqual([64, 64, 64, 64, 64, 264, 4096]);
    const rec = await fireRequest(spec({ params: { maxTokens: 300, ignoreEos: true } }), { keepRaw: false });
    expect(rec.events.n).toBeGreaterThan(300);
    expect((rec.events as EventColumns).capacity).toBe(308);
  });
});

describe('faults are classified and keep what arrived', () => {
  const withFault = (fault: string, over: Partial<RequestSpec> = {}) =>
    fireRequest(spec({ headers: { 'x-sim-fault': fault }, ...over }));

  for (const status of [400, 404, 429, 500, 503]) {
    it(`http-${status} → http error with status and body`, async () => {
      const rec = await withFault(`http-${status}`);
      expect(rec.error?.kind).toBe('http');
      expect(rec.error?.status).toBe(status);
      expect(rec.error?.body?.length).toBeGreaterThan(0);
      expect(rec.error?.message).toMatch(new RegExp(`HTTP ${status}`));
      expect(rec.events.n).toBe(0);
    });
  }

  it('error-midstream → server error with the partial text kept', async () => {
    const rec = await withFault('error-midstream:5');
    expect(rec.error?.kind).toBe('server');
    expect(rec.error?.code).toBe('error-event');
    expect(computeRequestStats(rec).contentEvents).toBe(5);
    expect(rec.text.length).toBeGreaterThan(0);
  });

  it('reset → network reset with the partial text kept', async () => {
    const rec = await withFault('reset:4');
    expect(rec.error?.kind).toBe('network');
    expect(rec.error?.code).toBe('reset');
    expect(computeRequestStats(rec).contentEvents).toBe(4);
  });

  it('malformed-json → protocol bad-json; later events still recorded', async () => {
    const rec = await withFault('malformed-json:3');
    expect(rec.error?.kind).toBe('protocol');
    expect(rec.error?.code).toBe('bad-json');
    expect(computeRequestStats(rec).contentEvents).toBeGreaterThan(3);
  });

  it('no-done → protocol truncated', async () => {
    const rec = await withFault('no-done');
    expect(rec.error?.kind).toBe('protocol');
    expect(rec.error?.code).toBe('truncated');
    expect(computeRequestStats(rec).contentEvents).toBe(12);
  });

  it('stall + idle timeout → client idle-timeout, partial kept', async () => {
    const rec = await withFault('stall:3000', { idleTimeoutMs: 300 });
    expect(rec.error?.kind).toBe('client');
    expect(rec.error?.code).toBe('idle-timeout');
    expect(rec.events.n).toBeGreaterThan(0);
  });

  it('slow-first-byte delays the headers and TTFT', async () => {
    const rec = await withFault('slow-first-byte:250');
    expect(rec.error).toBeNull();
    expect(rec.phases.headersMs!).toBeGreaterThanOrEqual(240);
    expect(computeRequestStats(rec).ttftMs!).toBeGreaterThanOrEqual(240);
  });

  it('connection refused → network refused', async () => {
    const srv = http.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const rec = await fireRequest(spec({ url: `http://127.0.0.1:${port}` }));
    expect(rec.error?.kind).toBe('network');
    expect(rec.error?.code).toBe('refused');
  });

  it('DNS failure → network dns', async () => {
    const rec = await fireRequest(spec({ url: 'http://tokenscope-test.invalid:8000' }));
    expect(rec.error?.kind).toBe('network');
    expect(rec.error?.code).toBe('dns');
  });

  it('a 200 JSON body for a streaming request → protocol not-streamed, its text kept', async () => {
    const srv = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices":[{"message":{"content":"not streamed"}}]}\n');
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const rec = await fireRequest(spec({ url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}` }));
    srv.close();
    expect(rec.error?.kind).toBe('protocol');
    expect(rec.error?.code).toBe('not-streamed');
    expect(rec.text).toBe('not streamed');
    expect(rec.bytes).toBeGreaterThan(0);
  });

  it('whole-request timeout → client timeout', async () => {
    const rec = await withFault('stall:3000', { timeoutMs: 200 });
    expect(rec.error?.kind).toBe('client');
    expect(rec.error?.code).toBe('timeout');
  });
});

describe('cancel', () => {
  it('an already-aborted signal resolves as cancelled without sending', async () => {
    const ac = new AbortController();
    ac.abort();
    const rec = await fireRequest(spec(), { signal: ac.signal });
    expect(rec.error?.code).toBe('cancelled');
    expect(rec.status).toBeNull();
    expect(rec.events.n).toBe(0);
  });

  it('closes the connection and the simulator aborts the stream', async () => {
    const ac = new AbortController();
    const long = spec({ params: { maxTokens: 2000, ignoreEos: true } });
    const rec = await fireRequest(long, {
      signal: ac.signal,
      onProgress: (r) => {
        if (r.events.n >= 5) ac.abort();
      },
    });
    expect(rec.error?.kind).toBe('client');
    expect(rec.error?.code).toBe('cancelled');
    expect(rec.events.n).toBeGreaterThanOrEqual(5);
    // The server notices the closed socket and frees the sequence.
    const deadline = performance.now() + 2000;
    while (sim.state().running > 0 && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(sim.state().running).toBe(0);
  });
});

describe('timeouts a timer cannot hold', () => {
  it('a timeout or idle timeout over 2^31 − 1 ms is refused before anything is sent, not fired after 1 ms', async () => {
    for (const over of [{ timeoutMs: 2 ** 31 }, { idleTimeoutMs: 1e12 }, { timeoutMs: Number.NaN }]) {
      const rec = await fireRequest({
        url: 'http://127.0.0.1:9',
        dialect: 'openai-chat',
        model: 'm',
        prompt: 'x',
        ...over,
      });
      expect(rec.error).toMatchObject({ kind: 'client', code: 'invalid-request' });
      expect(rec.error!.message).toMatch(/must be between 0 and 2147483647 ms/);
      expect(rec.phases.connectedMs).toBeNull();
    }
  });
});
