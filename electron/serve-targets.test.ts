// Web mode keeps a target's URL secrets like its API key: a URL saved with user:password and an
// api_key / jwt query value is shown with *** (listTargets, the metrics state), never written in
// clear to targets.json (web mode cannot encrypt: they stay in memory), and still reaches the
// server. And a target URL must be http(s): file: and javascript: are refused when saved.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from './serve.ts';
import { decodeWire, encodeWire, type CoreMessage } from '../shared/wire.ts';
import type { Result, TargetView } from '../shared/api.ts';

const PASS = 'pw-SECRET-web-1';
const KEY = 'AK-SECRET-web-2';
const JWT = 'JWT-SECRET-web-3';
let server: WebServer;
let upstream: http.Server;
let seen: { url: string; authorization: string }[] = [];
let userDataDir = '';

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: String(req.headers.authorization) });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'm1', object: 'model' }] }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-renderer-'));
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-web-targets-'));
  server = await startWebServer({
    port: 0,
    rendererDir,
    userDataDir,
    version: 'test',
    startSimulator: false,
  });
});
afterAll(async () => {
  await server.close();
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

async function client(): Promise<{
  call: <T>(m: string, ...a: unknown[]) => Promise<Result<T>>;
  close: () => void;
}> {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws?token=${server.token}`, {
    origin: server.url,
  });
  await new Promise((ok, fail) => {
    ws.once('open', ok);
    ws.once('error', fail);
  });
  const pending = new Map<number, (r: Result<unknown>) => void>();
  ws.on('message', (d) => {
    const m = decodeWire(String(d)) as CoreMessage;
    if (m.type === 'result') pending.get(m.id)?.(m.result);
  });
  let n = 0;
  return {
    call: <T>(method: string, ...args: unknown[]) => {
      const id = ++n;
      ws.send(encodeWire({ type: 'call', id, method, args }));
      return new Promise<Result<T>>((r) => pending.set(id, r as (x: Result<unknown>) => void));
    },
    close: () => ws.close(),
  };
}

describe('web mode: URL secrets of targets', () => {
  it('are *** in listTargets and absent from targets.json, and still sent to the server', async () => {
    const c = await client();
    const port = (upstream.address() as AddressInfo).port;
    const saved = await c.call<TargetView>('saveTarget', {
      name: 'gw',
      baseUrl: `http://u:${PASS}@127.0.0.1:${port}/v1?api_key=${KEY}&jwt=${JWT}`,
      dialect: 'openai-chat',
    });
    expect(saved.ok).toBe(true);
    const list = await c.call<TargetView[]>('listTargets');
    const text = JSON.stringify(list) + fs.readFileSync(path.join(userDataDir, 'targets.json'), 'utf8');
    for (const s of [PASS, KEY, JWT]) expect(text).not.toContain(s);
    expect(list.ok && list.value.find((t) => t.name === 'gw')?.baseUrl).toBe(
      `http://***:***@127.0.0.1:${port}/v1?api_key=***&jwt=***`,
    );
    seen = [];
    const fired = await c.call<{ requestId: string }>('fireRequest', {
      targetId: saved.ok ? saved.value.id : '',
      model: 'm1',
      prompt: 'x',
    });
    expect(fired.ok).toBe(true);
    const end = performance.now() + 10_000;
    while (seen.length === 0 && performance.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(seen[0]!.url).toBe(`/v1/chat/completions?api_key=${KEY}&jwt=${JWT}`);
    expect(seen[0]!.authorization).toBe(`Basic ${Buffer.from(`u:${PASS}`).toString('base64')}`);
    c.close();
  });

  it('file:, javascript: and data: URLs are refused at save time with a clear error, and not saved', async () => {
    const c = await client();
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,x']) {
      const r = await c.call<TargetView>('saveTarget', { name: 'bad', baseUrl: bad, dialect: 'openai-chat' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(/baseUrl Only http:\/\/ and https:\/\/ URLs/);
      const m = await c.call<TargetView>('saveTarget', {
        name: 'bad',
        baseUrl: 'http://127.0.0.1:9',
        metricsUrl: bad,
        dialect: 'openai-chat',
      });
      expect(m.ok).toBe(false);
    }
    const list = await c.call<TargetView[]>('listTargets');
    expect(list.ok && list.value.some((t) => t.name === 'bad')).toBe(false);
    c.close();
  });
});
