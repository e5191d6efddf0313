import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from './serve.ts';
import type { Result } from '../shared/api.ts';
import type { RunDetail } from '../shared/runs-api.ts';
import { detailedResult, rawRequest, type Answer } from './testing/uploads.ts';

let server: WebServer;
let port: number;

/** A raw request, so that Host, Origin and the body are exactly what the test says. */
const request = (
  method: string,
  target: string,
  headers: Record<string, string | number>,
  body?: Buffer | string,
): Promise<Answer> => rawRequest(port, method, target, headers, body);

const local = (): Record<string, string> => ({ host: `127.0.0.1:${port}` });
const authed = (): Record<string, string> => ({ ...local(), authorization: `Bearer ${server.token}` });
const page = (): Record<string, string> => ({ ...authed(), origin: `http://127.0.0.1:${port}` });

/** A vLLM `--save-detailed` result of n requests, larger than a socket message when n is large. */
const vllmResult = (n: number): string =>
  detailedResult(n, {
    outputLen: 3,
    itls: [0.02, 0.03],
    generatedText: 'lorem ipsum dolor sit amet '.repeat(12),
  });

beforeAll(async () => {
  const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-renderer-'));
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  server = await startWebServer({
    port: 0,
    rendererDir,
    userDataDir: null,
    version: 'test',
    startSimulator: false,
    allowedHosts: ['gpu-box.lan'],
  });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server.close();
});

describe('web mode: Host check (DNS rebinding)', () => {
  it('serves the page to loopback names, IP literals and allowed names; refuses any other name', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      'app.localhost',
      '10.0.0.7:80',
      'GPU-BOX.lan:5173',
    ])
      expect((await request('GET', '/', { host })).status, host).toBe(200);
    for (const host of [
      `evil.example:${port}`,
      'evil.example',
      '127.0.0.1.evil.example',
      'gpu-box.lan.evil',
      '',
      'a b',
    ])
      expect((await request('GET', '/', { host })).status, host).toBe(403);
    const refused = await request('GET', '/', { host: 'evil.example' });
    expect(refused.body).toMatch(/--allow-host/);
  });

  it('refuses the socket under a foreign Host even with the right token and a matching Origin', async () => {
    const open = (host: string): Promise<number> =>
      new Promise((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${server.token}`, {
          headers: { host },
          origin: `http://${host}`,
        });
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
        ws.once('error', () => resolve(-1));
      });
    expect(await open(`evil.example:${port}`)).toBe(403);
    expect(await open(`localhost:${port}`)).toBe(101);
  });

  it('refuses the API under a foreign Host', async () => {
    const r = await request('GET', '/api/session', {
      host: 'evil.example',
      authorization: `Bearer ${server.token}`,
    });
    expect(r.status).toBe(403);
  });
});

describe('web mode: HTTP API', () => {
  it('tells a page whether its token is missing, wrong or good', async () => {
    const missing = await request('GET', '/api/session', local());
    expect(missing.status).toBe(401);
    expect((JSON.parse(missing.body) as Result<never>).ok).toBe(false);
    expect(missing.body).toMatch(/missing-token/);
    const wrong = await request('GET', '/api/session', { ...local(), authorization: 'Bearer nope' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatch(/wrong-token/);
    expect((await request('GET', '/api/session', authed())).status).toBe(204);
    expect((await request('GET', '/api/nothing', authed())).status).toBe(404);
  });

  it('imports a detailed result larger than a socket message, streamed, and it opens', async () => {
    const body = Buffer.from(vllmResult(40_000));
    expect(body.length).toBeGreaterThan(8 * 1024 * 1024); // the socket's maxPayload
    const r = await request(
      'POST',
      `/api/import?filename=${encodeURIComponent('big result.json')}`,
      { ...page(), 'content-type': 'application/octet-stream', 'content-length': body.length },
      body,
    );
    expect(r.status, r.body).toBe(200);
    const res = JSON.parse(r.body) as Result<{ keys: string[]; warnings: string[] }>;
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.keys).toHaveLength(1);
    const opened = await server.core.handlers.openRun(res.value.keys[0]!);
    expect(opened.ok).toBe(true);
    if (opened.ok) {
      const d: RunDetail = opened.value;
      expect(d.entry.imported).toBe(true);
      expect(d.summary.vllm.completed).toBe(40_000);
    }
    // The uploaded bytes are kept as they came: the raw export gives them back.
    const back = await request(
      'GET',
      `/api/export?key=${encodeURIComponent(res.value.keys[0]!)}&format=raw`,
      authed(),
    );
    expect(back.status).toBe(200);
    expect(back.headers['content-disposition']).toMatch(/^attachment; filename=/);
    expect(back.body.length).toBe(body.length);
    expect(back.body === body.toString('utf8')).toBe(true);
  });

  it('refuses uploads from another origin, without a token, or declared over the limit', async () => {
    const body = vllmResult(3);
    const cross = await request(
      'POST',
      '/api/import?filename=r.json',
      { ...authed(), origin: 'https://evil.example' },
      body,
    );
    expect(cross.status).toBe(403);
    const noToken = await request(
      'POST',
      '/api/import?filename=r.json',
      { ...local(), origin: `http://127.0.0.1:${port}` },
      body,
    );
    expect(noToken.status).toBe(401);
    const huge = await request('POST', '/api/import?filename=r.json', {
      ...page(),
      'content-length': 2 * 1024 ** 3,
    }).catch((e: Error) => ({ status: -1, body: e.message, headers: {} }));
    expect(huge.status).toBe(413);
    const noName = await request('POST', '/api/import', page(), body);
    expect(noName.status).toBe(400);
  });

  it('a garbage upload is a clear failure that names the file, and nothing is kept', async () => {
    const before = await server.core.runs.list();
    const r = await request('POST', '/api/import?filename=notes.txt', page(), 'hello, not a result');
    expect(r.status).toBe(400);
    const res = JSON.parse(r.body) as Result<never>;
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.message).toMatch(/notes\.txt/);
    expect((await server.core.runs.list()).runs).toHaveLength(before.runs.length);
  });

  it('uploads with a malformed chunk size get 400 and leave no open file nor temp file behind', async () => {
    // A private temp folder, so that other processes' uploads do not count.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-upload-leak-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    const fds = (): number => fs.readdirSync('/proc/self/fd').length;
    const bad = (): Promise<string> =>
      new Promise((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1');
        let got = '';
        s.on('data', (b: Buffer) => (got += b.toString('latin1')));
        s.on('close', () => resolve(got.split('\r\n')[0] ?? ''));
        s.on('error', reject);
        s.write(
          `POST /api/import?filename=r.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
            `Authorization: Bearer ${server.token}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
            'Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nZZZ\r\nmore\r\n',
        );
      });
    try {
      await bad(); // a first one opens whatever is opened once
      const before = fds();
      for (let i = 0; i < 50; i++) expect(await bad()).toMatch(/^HTTP\/1\.1 400/);
      // The clean-up is asynchronous: wait for it, bounded.
      const end = performance.now() + 10_000;
      while ((fds() > before + 3 || fs.readdirSync(tmp).length > 0) && performance.now() < end)
        await new Promise((r) => setTimeout(r, 20));
      expect(fs.readdirSync(tmp)).toEqual([]);
      expect(fds()).toBeLessThanOrEqual(before + 3);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('an export of an unknown run is a Result, not a crash', async () => {
    const r = await request('GET', '/api/export?key=nope.jsonl&format=csv', authed());
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect((JSON.parse(r.body) as Result<never>).ok).toBe(false);
    const bad = await request('GET', '/api/export?key=../../etc/passwd&format=raw', authed());
    expect(bad.status).toBe(400);
  });

  it('a report of unknown, foreign or no runs is a Result; its route needs the token', async () => {
    const none = await request('GET', '/api/report', authed());
    expect(none.status).toBe(400);
    expect((JSON.parse(none.body) as Result<never>).ok).toBe(false);
    const unknown = await request('GET', '/api/report?key=nope.jsonl', authed());
    expect(unknown.status).toBe(404);
    const foreign = await request('GET', '/api/report?key=../../etc/passwd', authed());
    expect(foreign.status).toBe(400);
    const defs = await request('GET', '/api/report?key=nope.jsonl&definitions=mine', authed());
    expect(defs.status).toBe(400);
    expect((await request('GET', '/api/report?key=nope.jsonl', local())).status).toBe(401);
  });
});
