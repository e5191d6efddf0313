// Connections through the stream-I/O thread against servers that misbehave the way real ones do:
// one that advertises keep-alive but closes after every streamed response (llama.cpp's server),
// one that dies mid-response on a reused connection. Real HTTP over loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireRequest } from '../client.ts';
import { IoEngine, io, useIo } from './io-engine.ts';
import { defaultEngineConfig } from '../engine-config.ts';
import type { RequestSpec } from '../../../shared/request.ts';

const CHUNKS = [
  'data: {"id":"x","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n',
  'data: {"id":"x","choices":[{"index":0,"delta":{"content":"Hello"}}]}\n\n',
  'data: {"id":"x","choices":[{"index":0,"delta":{"content":" world"},"finish_reason":"stop"}]}\n\n',
  'data: [DONE]\n\n',
];

interface Server {
  url: string;
  connections: number;
  requests: number;
  close(): Promise<void>;
}

/**
 * `mode`:
 * - 'close-after-stream': keep-alive advertised (timeout=5, max=100), the connection closed 5 ms
 *   after each streamed response; a request arriving on it meanwhile is never answered.
 * - 'die-on-reuse': the second request on a connection gets its headers and one chunk, then the
 *   connection is destroyed.
 */
async function server(mode: 'close-after-stream' | 'die-on-reuse'): Promise<Server> {
  const served = new WeakMap<Socket, number>();
  const s: Server = { url: '', connections: 0, requests: 0, close: async () => {} };
  const srv = http.createServer((req, res) => {
    s.requests++;
    req.resume();
    req.on('end', () => {
      const sock = req.socket;
      const n = served.get(sock) ?? 0;
      served.set(sock, n + 1);
      if (mode === 'close-after-stream' && n > 0) return; // doomed connection: never answered
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        connection: 'keep-alive',
        'keep-alive': 'timeout=5, max=100',
      });
      if (mode === 'die-on-reuse' && n > 0) {
        res.write(CHUNKS[0]);
        setTimeout(() => sock.destroy(), 5);
        return;
      }
      let i = 0;
      const tick = (): void => {
        res.write(CHUNKS[i++]);
        if (i < CHUNKS.length) setTimeout(tick, 2);
        else {
          res.end();
          if (mode === 'close-after-stream') setTimeout(() => sock.destroy(), 5);
        }
      };
      tick();
    });
  });
  srv.keepAliveTimeout = 5000;
  srv.on('connection', () => s.connections++);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  s.url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  s.close = () =>
    new Promise<void>((r) => {
      srv.closeAllConnections();
      srv.close(() => r());
    });
  return s;
}

const spec = (url: string): RequestSpec => ({
  url,
  dialect: 'openai-chat',
  model: 'm',
  prompt: 'hi',
  includeUsage: false,
  timeoutMs: 10_000,
});

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});
afterAll(async () => {
  await io().close();
});

// Plain HTTP goes through the raw driver by default; `httpClient: 'node'` (TOKENSCOPE_HTTP_CLIENT=node)
// sends it through Node's client (the path https always takes). Both must keep the same rules.
describe.each(['raw', 'node'] as const)('connections through the stream-I/O thread (%s driver)', (driver) => {
  beforeAll(async () => {
    const e = new IoEngine(defaultEngineConfig({ ioThreads: 1, httpClient: driver })); // its thread is given it as it starts
    useIo(e);
    await e.ready();
  });

  it('a server that closes every kept-alive connection: requests on a reused one are retried once, none fails', async () => {
    const s = await server('close-after-stream');
    cleanup.push(() => s.close());
    const pool = io().createPool({ mode: 'keep-alive', maxSockets: 1 });
    cleanup.push(() => io().closePool(pool));
    const recs = [];
    for (let i = 0; i < 12; i++) recs.push(await fireRequest(spec(s.url), { pool, keepRaw: false }));
    expect(recs.map((r) => r.error)).toEqual(recs.map(() => null));
    expect(recs.every((r) => r.text === 'Hello world')).toBe(true);
    const retried = recs.filter((r) => r.connection?.retries === 1);
    // Sent the next request within ~1 ms of the last one's end, before the server's close:
    // most reuse the doomed socket, and each of those is retried on a new connection.
    expect(retried.length).toBeGreaterThan(0);
    for (const r of retried) {
      expect(r.connection!.reused).toBe(false); // the retry's socket is a new one
      expect(r.connection!.retryReason).toMatch(/reset/i);
    }
    // Each response needed its own connection; a reused socket's request reached the server's
    // parser at most once before the close (or the close came first).
    expect(s.connections).toBe(12);
    expect(s.requests).toBeGreaterThanOrEqual(12);
    expect(s.requests).toBeLessThanOrEqual(12 + retried.length);
  });

  it('the same server with --connection close: a new connection per request, nothing to retry', async () => {
    const s = await server('close-after-stream');
    cleanup.push(() => s.close());
    const pool = io().createPool({ mode: 'close', maxSockets: 4 });
    cleanup.push(() => io().closePool(pool));
    const recs = await Promise.all(
      Array.from({ length: 8 }, () => fireRequest(spec(s.url), { pool, keepRaw: false })),
    );
    expect(recs.every((r) => r.error === null && r.connection?.retries === 0 && !r.connection.reused)).toBe(
      true,
    );
    expect(s.connections).toBe(8);
    expect(s.requests).toBe(8);
  });

  it('a request that received any byte of its response is never retried: its failure is the server’s', async () => {
    const s = await server('die-on-reuse');
    cleanup.push(() => s.close());
    const pool = io().createPool({ mode: 'keep-alive', maxSockets: 1 });
    cleanup.push(() => io().closePool(pool));
    const first = await fireRequest(spec(s.url), { pool, keepRaw: false });
    expect(first.error).toBeNull();
    const second = await fireRequest(spec(s.url), { pool, keepRaw: false });
    expect(second.connection).toEqual({ reused: true, retries: 0, retryReason: null });
    expect(second.status).toBe(200);
    expect(second.events.n).toBe(1); // the role chunk that arrived before the reset is kept
    expect(second.error).toMatchObject({ kind: 'network', code: 'reset' });
    expect(s.requests).toBe(2);
  });
});
