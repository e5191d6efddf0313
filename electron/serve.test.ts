import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from './serve.ts';
import { decodeWire, encodeWire, type CoreMessage } from '../shared/wire.ts';
import type { RequestBatch, RequestSnapshot, Result, TargetView } from '../shared/api.ts';
import type { MetricsState } from '../shared/metrics-api.ts';

let server: WebServer;
let rendererDir: string;

function get(url: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.on('data', (b) => (body += b));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      })
      .on('error', reject);
  });
}

class Client {
  private n = 0;
  private pending = new Map<number, (r: Result<unknown>) => void>();
  events: { event: string; payload: unknown }[] = [];
  constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const m = decodeWire(String(d)) as CoreMessage;
      if (m.type === 'result') this.pending.get(m.id)?.(m.result);
      else this.events.push({ event: m.event, payload: m.payload });
    });
  }
  call<T>(method: string, ...args: unknown[]): Promise<Result<T>> {
    const id = ++this.n;
    this.ws.send(encodeWire({ type: 'call', id, method, args }));
    return new Promise((r) => this.pending.set(id, r as (x: Result<unknown>) => void));
  }
  async waitFor(pred: () => boolean, ms = 10_000): Promise<void> {
    const end = performance.now() + ms;
    while (!pred()) {
      if (performance.now() > end) throw new Error('timed out waiting for state');
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

function connect(url: string, origin: string | undefined): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

beforeAll(async () => {
  rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-renderer-'));
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  fs.mkdirSync(path.join(rendererDir, 'assets'));
  fs.writeFileSync(path.join(rendererDir, 'assets/app.js'), 'console.log(1)');
  server = await startWebServer({
    port: 0,
    rendererDir,
    userDataDir: null,
    version: 'test',
    startSimulator: true,
  });
});
afterAll(async () => {
  await server.close();
});

describe('web mode', () => {
  it('binds loopback and serves the page (no secrets in it) with a CSP', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await get(`${server.url}/`)).status).toBe(200);
    const ok = await get(server.openUrl);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await get(`${server.url}/assets/app.js`)).status).toBe(200);
    expect((await get(`${server.url}/assets/../../../etc/passwd`)).status).toBe(404);
    expect((await get(`${server.url}/%2e%2e/%2e%2e/etc/passwd`)).status).toBe(404);
  });

  it('refuses sockets without the token or from another origin', async () => {
    const wsUrl = `${server.url.replace('http', 'ws')}/ws`;
    await expect(connect(`${wsUrl}?token=nope`, server.url)).rejects.toThrow(/403/);
    await expect(connect(`${wsUrl}?token=${server.token}`, 'https://evil.example')).rejects.toThrow(/403/);
    await expect(connect(`${wsUrl}?token=${server.token}`, undefined)).rejects.toThrow(/403/);
    const ws = await connect(`${wsUrl}?token=${server.token}`, server.url);
    ws.close();
  });

  it('answers contract calls, validates arguments, and streams a request as batches then a snapshot', async () => {
    const c = new Client(
      await connect(`${server.url.replace('http', 'ws')}/ws?token=${server.token}`, server.url),
    );
    const targets = await c.call<TargetView[]>('listTargets');
    expect(targets.ok).toBe(true);
    const sim = targets.ok ? targets.value.find((t) => t.builtin) : undefined;
    expect(sim?.baseUrl).toBe(server.core.sim?.url);
    const bad = await c.call('fireRequest', { targetId: sim!.id });
    expect(bad.ok).toBe(false);
    const unknown = await c.call('rmRf');
    expect(unknown.ok).toBe(false);

    c.ws.send(encodeWire({ type: 'ready' }));
    const fired = await c.call<{ requestId: string }>('fireRequest', {
      targetId: sim!.id,
      model: 'tokenscope-sim',
      prompt: 'hello',
      params: { maxTokens: 40, ignoreEos: true },
    });
    expect(fired.ok).toBe(true);
    const id = fired.ok ? fired.value.requestId : '';
    await c.waitFor(() => c.events.some((e) => e.event === 'onRequestFinished'));
    const batches = c.events
      .filter((e) => e.event === 'onRequestBatch')
      .map((e) => e.payload as RequestBatch);
    const snap = c.events.find((e) => e.event === 'onRequestFinished')!.payload as RequestSnapshot;
    expect(snap.summary.id).toBe(id);
    expect(snap.summary.state).toBe('done');
    // Batches are contiguous, typed, and together hold every event of the final record.
    let next = 0;
    for (const b of batches) {
      expect(b.from).toBe(next);
      expect(b.t).toBeInstanceOf(Float64Array);
      next += b.t.length;
    }
    expect(next).toBe(snap.record.events.n);
    const times = batches.flatMap((b) => Array.from(b.t));
    expect(times).toEqual(Array.from(snap.record.events.t));
    // ~30 flushes a second at most: 40 tokens at 20 ms/step is ~0.8 s+ of streaming
    expect(batches.length).toBeLessThan(snap.record.events.n);
    const again = await c.call<RequestSnapshot>('getRequest', id);
    expect(again.ok && again.value.record.events.n).toBe(snap.record.events.n);
    c.ws.close();
  });

  it('never hands an API key to the UI and never writes it in clear', async () => {
    const c = new Client(
      await connect(`${server.url.replace('http', 'ws')}/ws?token=${server.token}`, server.url),
    );
    const saved = await c.call<TargetView>('saveTarget', {
      name: 'remote',
      baseUrl: 'http://127.0.0.1:9',
      dialect: 'openai-chat',
      apiKey: 'sk-secret-123',
    });
    expect(saved.ok).toBe(true);
    const list = await c.call<TargetView[]>('listTargets');
    expect(JSON.stringify(list)).not.toContain('sk-secret-123');
    expect(list.ok && list.value.find((t) => t.name === 'remote')?.hasApiKey).toBe(true);
    const curl = await c.call<{ command: string }>('curlFor', {
      targetId: saved.ok ? saved.value.id : '',
      model: 'm',
      prompt: 'x',
    });
    expect(curl.ok && curl.value.command).toContain('$TOKENSCOPE_API_KEY');
    expect(JSON.stringify(curl)).not.toContain('sk-secret-123');
    c.ws.close();
  });

  it("stops scraping a client's watched targets when its socket closes, unless another client watches them", async () => {
    const wsUrl = `${server.url.replace('http', 'ws')}/ws?token=${server.token}`;
    const a = new Client(await connect(wsUrl, server.url));
    const b = new Client(await connect(wsUrl, server.url));
    const observer = new Client(await connect(wsUrl, server.url)); // watches nothing, sees every event
    observer.ws.send(encodeWire({ type: 'ready' }));
    const sim = 'builtin-sim';
    const scrapes = () =>
      observer.events.filter(
        (e) => e.event === 'onMetricsScrape' && (e.payload as { targetId: string }).targetId === sim,
      ).length;
    const stops = () =>
      observer.events.filter((e) => {
        const st = e.payload as MetricsState;
        return (
          e.event === 'onMetricsState' &&
          st.targetId === sim &&
          st.nextAttemptInMs === null &&
          st.status !== 'failing'
        );
      }).length;

    const ra = await a.call<MetricsState[]>('watchMetrics', [sim]);
    expect(ra.ok && ra.value.map((st) => st.targetId)).toEqual([sim]);
    const rb = await b.call<MetricsState[]>('watchMetrics', [sim]);
    expect(rb.ok && rb.value.map((st) => st.targetId)).toEqual([sim]);
    // A page that watches nothing gets no one else's state back, and stops nothing.
    const ro = await observer.call<MetricsState[]>('watchMetrics', []);
    expect(ro.ok && ro.value).toEqual([]);
    await observer.waitFor(() => scrapes() >= 1);

    // A goes away: B still watches, scraping goes on.
    a.ws.close();
    const before = scrapes();
    await observer.waitFor(() => scrapes() >= before + 2, 5000);
    expect(stops()).toBe(0);

    // B goes away too (no unwatch call, as when a tab is closed): the scraper stops.
    b.ws.terminate();
    await observer.waitFor(() => stops() >= 1, 5000);
    const after = scrapes();
    await new Promise((r) => setTimeout(r, 1500)); // more than one scrape interval
    expect(scrapes()).toBe(after);
    observer.ws.close();
  });
});

/** One raw HTTP request (any request line at all) and the status line of the answer, or 'closed'. */
function rawRequest(url: string, requestLine: string, extra = ''): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(port), '127.0.0.1', () =>
      s.write(`${requestLine}\r\nHost: 127.0.0.1:${port}\r\n${extra}Connection: close\r\n\r\n`),
    );
    let buf = '';
    s.on('data', (b) => (buf += b.toString('latin1')));
    s.on('error', () => resolve(buf.split('\r\n')[0] || 'closed'));
    s.on('close', () => resolve(buf.split('\r\n')[0] || 'closed'));
  });
}

describe('web mode survives hostile input', () => {
  it('malformed request targets get 400, on the page and the socket path alike, and the server still answers', async () => {
    for (const target of ['/%', '/%C0%AE', '/%E0%A4%A', 'http://[::1/'])
      expect(await rawRequest(server.url, `GET ${target} HTTP/1.1`)).toMatch(/^HTTP\/1\.1 400/);
    const upgrade =
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
    expect(await rawRequest(server.url, 'GET http://[::1/ws HTTP/1.1', upgrade)).toMatch(/^HTTP\/1\.1 400/);
    expect((await get(`${server.url}/`)).status).toBe(200);
  });

  it('socket messages that are not an object, or too large, close at most that socket', async () => {
    const wsUrl = `${server.url.replace('http', 'ws')}/ws?token=${server.token}`;
    const ws = await connect(wsUrl, server.url);
    const c = new Client(ws);
    for (const m of ['null', '42', '"x"', '[]', 'not json', '{"type":"call","id":99999}', '{"type":"call"}'])
      ws.send(m);
    // Still answering on the same socket.
    const info = await c.call<{ version: string }>('getAppInfo');
    expect(info.ok).toBe(true);
    // Over maxPayload (8 MiB): that socket is closed, the process and other sockets live on.
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send(Buffer.alloc(9 * 1024 * 1024, 0x20));
    expect(await closed).toBe(1009); // message too big
    const ws2 = await connect(wsUrl, server.url);
    const again = await new Client(ws2).call<{ version: string }>('getAppInfo');
    expect(again.ok).toBe(true);
    ws2.close();
  });
});

describe('web mode: the built-in simulator', () => {
  it('listens on the port given (serve --sim-port)', async () => {
    const free = net.createServer();
    await new Promise<void>((ok) => free.listen(0, '127.0.0.1', ok));
    const port = (free.address() as net.AddressInfo).port;
    await new Promise<void>((ok) => free.close(() => ok()));
    const pinned = await startWebServer({
      port: 0,
      rendererDir,
      userDataDir: null,
      version: 'test',
      startSimulator: true,
      simPort: port,
    });
    try {
      expect(pinned.core.sim?.port).toBe(port);
      expect(pinned.core.sim?.url).toBe(`http://127.0.0.1:${port}`);
      expect((await get(`http://127.0.0.1:${port}/v1/models`)).body).toContain('tokenscope-sim');
    } finally {
      await pinned.close();
    }
  });
});
