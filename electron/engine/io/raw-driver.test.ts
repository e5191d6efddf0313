// The raw HTTP/1.1 driver against servers written at the socket level, so the bytes are exactly
// what a misbehaving server sends: Connection: close, HTTP/1.0 close-delimited streams, a broken
// chunk mid-stream, a pool limit, and headers that would smuggle a second request.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fireRequest } from '../client.ts';
import { io } from './io-engine.ts';
import { until } from '../../testing/until.ts';
import type { RequestSpec } from '../../../shared/request.ts';

const EV = (s: string): string => `data: {"choices":[{"index":0,"delta":{"content":"${s}"}}]}\n\n`;
const DONE = 'data: [DONE]\n\n';

interface Raw {
  url: string;
  connections: number;
  /** Connections the client has not closed yet. */
  open(): number;
  requests: string[];
  close(): Promise<void>;
}

/** A server that answers every request on a connection with `answer(socket, n)` (n: 0-based on that connection). */
async function rawServer(answer: (s: net.Socket, n: number, head: string) => void): Promise<Raw> {
  const socks = new Set<net.Socket>();
  const r: Raw = { url: '', connections: 0, open: () => socks.size, requests: [], close: async () => {} };
  const srv = net.createServer((s) => {
    r.connections++;
    socks.add(s);
    s.on('close', () => socks.delete(s));
    let buf = '';
    let n = 0;
    s.on('data', (b) => {
      buf += b.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.slice(0, end);
        const len = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + len) return;
        buf = buf.slice(end + 4 + len);
        r.requests.push(head);
        answer(s, n++, head);
      }
    });
    s.on('error', () => {});
  });
  await new Promise<void>((res) => srv.listen(0, '127.0.0.1', res));
  r.url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  r.close = () =>
    new Promise<void>((res) => {
      for (const s of socks) s.destroy();
      srv.close(() => res());
    });
  return r;
}

const chunk = (s: string): string => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
const spec = (url: string, over: Partial<RequestSpec> = {}): RequestSpec => ({
  url,
  dialect: 'openai-chat',
  model: 'm',
  prompt: 'hi',
  includeUsage: false,
  timeoutMs: 5000,
  ...over,
});

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});
afterAll(() => io().close());

describe('raw HTTP/1.1 driver', () => {
  it('a chunked stream: events, request id, one read per write; the request on the wire is well formed', async () => {
    const s = await rawServer((sock) => {
      sock.write(
        'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Request-Id: abc\r\nTransfer-Encoding: chunked\r\n\r\n',
      );
      let i = 0;
      const parts = [EV('a'), EV('b') + EV('c'), DONE];
      const tick = (): void => {
        sock.write(chunk(parts[i++]!));
        if (i < parts.length) setTimeout(tick, 15);
        else sock.write('0\r\n\r\n');
      };
      setTimeout(tick, 5);
    });
    cleanup.push(() => s.close());
    const rec = await fireRequest(spec(s.url, { headers: { 'x-custom': 'yes' }, apiKey: 'sk-secret' }));
    expect(rec.error).toBeNull();
    expect(rec.text).toBe('abc');
    expect(rec.serverRequestId).toBe('abc');
    expect(rec.events.n).toBe(4);
    // b and c came in one write: one read, one stamp, both flagged coalesced.
    expect(rec.events.t[1]).toBe(rec.events.t[2]);
    expect(rec.events.t[2]! - rec.events.t[0]!).toBeGreaterThan(10);
    const head = s.requests[0]!;
    expect(head).toMatch(/^POST \/v1\/chat\/completions HTTP\/1\.1\r\n/);
    expect(head).toMatch(/\r\nHost: 127\.0\.0\.1:\d+\r\n/);
    expect(head).toMatch(/\r\nx-custom: yes\r\n/);
    expect(head).toMatch(/\r\nauthorization: Bearer sk-secret\r\n/);
    expect(head).toMatch(/\r\nConnection: close$/); // a single request: no pool
  });

  it('HTTP/1.0 without a length: the stream ends with the connection, cleanly', async () => {
    const s = await rawServer((sock) => {
      sock.write('HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n');
      sock.write(EV('x'));
      setTimeout(() => sock.end(DONE), 10);
    });
    cleanup.push(() => s.close());
    const rec = await fireRequest(spec(s.url));
    expect(rec.error).toBeNull();
    expect(rec.text).toBe('x');
    expect(rec.terminated).toBe(true);
  });

  it('a broken chunk mid-stream: protocol/bad-frame, what arrived before it kept', async () => {
    const s = await rawServer((sock) => {
      sock.write('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n');
      sock.write(chunk(EV('kept')));
      setTimeout(() => sock.write('zz\r\nnot a chunk\r\n'), 10);
    });
    cleanup.push(() => s.close());
    const rec = await fireRequest(spec(s.url));
    expect(rec.text).toBe('kept');
    expect(rec.error).toMatchObject({ kind: 'protocol', code: 'bad-frame' });
    expect(rec.error!.message).toMatch(/chunk size/);
  });

  it('Connection: close from the server: the pool does not reuse that connection', async () => {
    const s = await rawServer((sock) => {
      const body = EV('z') + DONE;
      sock.end(
        `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
    });
    cleanup.push(() => s.close());
    const pool = io().createPool({ mode: 'keep-alive', maxSockets: 1 });
    cleanup.push(() => io().closePool(pool));
    for (let i = 0; i < 4; i++) {
      const rec = await fireRequest(spec(s.url), { pool, keepRaw: false });
      expect(rec.error).toBeNull();
      expect(rec.connection).toEqual({ reused: false, retries: 0, retryReason: null });
    }
    expect(s.connections).toBe(4);
  });

  it('a keep-alive pool reuses connections and never opens more than maxSockets', async () => {
    const s = await rawServer((sock) => {
      const body = EV('k') + DONE;
      setTimeout(
        () =>
          sock.write(
            `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          ),
        10,
      );
    });
    cleanup.push(() => s.close());
    const pool = io().createPool({ mode: 'keep-alive', maxSockets: 2 });
    cleanup.push(() => io().closePool(pool));
    const recs = await Promise.all(
      Array.from({ length: 8 }, () => fireRequest(spec(s.url), { pool, keepRaw: false })),
    );
    expect(recs.every((r) => r.error === null && r.text === 'k')).toBe(true);
    expect(s.connections).toBe(2);
    expect(recs.filter((r) => r.connection!.reused)).toHaveLength(6);
    expect(s.requests.every((h) => /\r\nConnection: keep-alive$/.test(h))).toBe(true);
  });

  it('closing a pool closes every idle connection in it', async () => {
    const s = await rawServer((sock) => {
      const body = EV('k') + DONE;
      setTimeout(
        () =>
          sock.write(
            `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          ),
        10,
      );
    });
    cleanup.push(() => s.close());
    const pool = io().createPool({ mode: 'keep-alive', maxSockets: 4 });
    const recs = await Promise.all(
      Array.from({ length: 8 }, () => fireRequest(spec(s.url), { pool, keepRaw: false })),
    );
    expect(recs.every((r) => r.error === null)).toBe(true);
    expect(s.connections).toBe(4);
    expect(s.open()).toBe(4); // kept alive, idle in the pool
    io().closePool(pool);
    await until(
      () => s.open() === 0,
      5000,
      5,
      () => `${s.open()} of 4 idle connections still open`,
    );
  });

  it('a header value with CR/LF is refused before anything is sent (no request smuggling)', async () => {
    const s = await rawServer(() => {});
    cleanup.push(() => s.close());
    const rec = await fireRequest(spec(s.url, { headers: { 'x-evil': 'a\r\nGET /admin HTTP/1.1' } }));
    expect(rec.error).toMatchObject({ kind: 'client', code: 'invalid-request' });
    // Refused by the client's check of every header value, before the driver's own (same kind).
    expect(rec.error!.message).toMatch(
      /Header x-evil contains a control character .*cannot be sent in an HTTP header/,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(s.connections).toBe(0);
  });
});
