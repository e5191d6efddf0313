// Web mode keeps answering while a large vLLM result is imported (issue 24 point 10): the parse —
// one JSON.parse of tens of MB that cannot be sliced — runs on a thread of its own
// (runs/import-thread.ts). While the upload is being imported, a page keeps asking the server for
// something cheap; the longest wait between two answers must stay well under the time the import
// takes on the server (inline, the parse alone blocked every answer for its whole length: 8.9 s
// for 200 MB). The bound is relative to the import's own duration, not to the machine's speed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from './serve.ts';
import type { Result } from '../shared/api.ts';
import { detailedResult, rawRequest } from './testing/uploads.ts';

let server: WebServer;
let port: number;

beforeAll(async () => {
  const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-renderer-'));
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  server = await startWebServer({
    port: 0,
    rendererDir,
    userDataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'ts-serve-import-')),
    version: 'test',
    startSimulator: false,
  });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server.close();
});

const send = (method: string, target: string, headers: Record<string, string | number>, body?: Buffer) =>
  rawRequest(port, method, target, headers, body);

/** A vLLM `--save-detailed` result of n requests with 60 ITLs each: tens of MB of numbers to parse. */
const bigResult = (n: number): Buffer =>
  Buffer.from(
    detailedResult(n, { outputLen: 61, itls: Array.from({ length: 60 }, (_, i) => 0.02 + i / 100_000) }),
  );

describe('web mode during a large import', () => {
  it('answers other requests while the result is parsed', async () => {
    const body = bigResult(40_000);
    expect(body.length).toBeGreaterThan(20 * 1024 * 1024);
    const headers = {
      authorization: `Bearer ${server.token}`,
      origin: `http://127.0.0.1:${port}`,
      host: `127.0.0.1:${port}`,
    };
    let done = false;
    let answered = 0;
    let last = 0;
    let maxGap = 0;
    const t0 = performance.now();
    const imported = send(
      'POST',
      '/api/import?filename=big.json',
      { ...headers, 'content-type': 'application/octet-stream', 'content-length': body.length },
      body,
    ).finally(() => (done = true));
    const pings = (async () => {
      while (!done) {
        const r = await send('GET', '/', { host: `127.0.0.1:${port}` });
        expect(r.status).toBe(200);
        const now = performance.now();
        if (last > 0) maxGap = Math.max(maxGap, now - last);
        last = now;
        answered++;
      }
    })();
    const r = await imported;
    const took = performance.now() - t0;
    await pings;
    expect(r.status, r.body).toBe(200);
    const res = JSON.parse(r.body) as Result<{ keys: string[] }>;
    expect(res.ok).toBe(true);
    console.log(
      `import of ${(body.length / 1e6).toFixed(0)} MB: ${took.toFixed(0)} ms, ${answered} answers meanwhile, longest wait ${maxGap.toFixed(0)} ms`,
    );
    expect(answered).toBeGreaterThan(5);
    expect(maxGap).toBeLessThan(took / 3);
    // …and the imported result lists and opens (its outcomes parsed on the thread too).
    if (!res.ok) return;
    const opened = await server.core.handlers.openRun(res.value.keys[0]!);
    expect(opened.ok && opened.value.summary.vllm.completed).toBe(40_000);
  }, 120_000);
});
