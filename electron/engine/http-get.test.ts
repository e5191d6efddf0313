/** The one small GET: bounds, cancel, encodings and redaction, over real loopback HTTP. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet } from './http-get.ts';

let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/big') return res.end('x'.repeat(100));
    if (req.url === '/gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
      return res.end(zlib.gzipSync('hello gzip'));
    }
    if (req.url === '/echo')
      return res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `bad key ${req.headers.authorization}` } }));
    if (req.url === '/hang') return; // never answers
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('httpGet', () => {
  it('returns the body with when its headers arrived', async () => {
    const r = await httpGet(new URL(`${base}/ok`));
    expect(r.ok && r.value).toMatchObject({
      status: 200,
      body: '{"ok":true}',
      bytes: 11,
      contentType: 'application/json',
    });
    expect(r.ok && r.value.headersAtMs).toBeGreaterThan(0);
  });

  it('a body past the limit fails, saying so', async () => {
    const r = await httpGet(new URL(`${base}/big`), { maxBytes: 10, bodyName: 'model list' });
    expect(!r.ok && r.error).toMatchObject({ kind: 'protocol', code: 'bad-frame' });
    expect(!r.ok && r.error.message).toBe('The model list is larger than 10 bytes; stopped reading.');
  });

  it('gzip: decoded when asked for, refused when not', async () => {
    const yes = await httpGet(new URL(`${base}/gzip`), { decompress: true });
    expect(yes.ok && yes.value).toMatchObject({ body: 'hello gzip', encoding: 'gzip', bytes: 10 });
    const no = await httpGet(new URL(`${base}/gzip`));
    expect(!no.ok && no.error).toMatchObject({ kind: 'protocol', code: 'content-type' });
  });

  it('an echoed key is redacted from the error', async () => {
    const r = await httpGet(new URL(`${base}/echo`), {
      headers: { authorization: 'Bearer sk-very-secret-1234' },
    });
    expect(!r.ok && r.error.status).toBe(401);
    expect(JSON.stringify(r)).not.toContain('sk-very-secret-1234');
  });

  it('a timeout and a cancel end it as the client’s, never hanging', async () => {
    const t = await httpGet(new URL(`${base}/hang`), { timeoutMs: 100 });
    expect(!t.ok && t.error).toMatchObject({
      kind: 'client',
      code: 'timeout',
      message: 'No complete answer within 100 ms.',
    });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const c = await httpGet(new URL(`${base}/hang`), { signal: ac.signal, noun: 'scrape' });
    expect(!c.ok && c.error).toMatchObject({
      kind: 'client',
      code: 'cancelled',
      message: 'The scrape was cancelled.',
    });
    const bad = await httpGet(new URL('ftp://127.0.0.1/x'));
    expect(!bad.ok && bad.error.code).toBe('network-other');
  });
});
