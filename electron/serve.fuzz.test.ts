/**
 * Web mode under random input: request lines, targets, headers and bodies over raw TCP, and
 * messages on an authenticated socket. Bounded in count and time; afterwards the server must still
 * answer the page and a contract call, and nothing may have thrown (vitest fails a run on any
 * uncaught exception or unhandled rejection).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from './serve.ts';
import { decodeWire, encodeWire, type CoreMessage } from '../shared/wire.ts';
import { METHOD_NAMES } from '../shared/api-names.ts';

let server: WebServer;
let port: number;
const FUZZ_MS = 8_000;

beforeAll(async () => {
  const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-renderer-'));
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  server = await startWebServer({
    port: 0,
    rendererDir,
    userDataDir: null,
    version: 'test',
    startSimulator: false,
  });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server.close();
});

/**
 * Sends raw bytes; resolves with what came back once a response head is complete, the server
 * closes, or `waitMs` pass (an incomplete request is simply waited on by the server).
 */
function raw(bytes: Buffer, waitMs = 150): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let got = '';
    const done = (): void => {
      clearTimeout(timer);
      s.destroy();
      resolve(got);
    };
    const timer = setTimeout(done, waitMs);
    s.on('data', (b) => {
      got += b.toString('latin1');
      if (got.includes('\r\n\r\n')) done();
    });
    s.on('error', () => undefined);
    s.on('close', done);
    s.write(bytes);
  });
}

const piece = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '%',
    '%C0%AE',
    '%00',
    '%2e%2e/',
    '..',
    '//',
    '[::1',
    'http://[::1/',
    '?token=',
    '#',
    '\u0000',
    '\r\n',
    ' ',
    'ΩЖ漢',
  ),
  fc.stringMatching(/^[%A-Za-z0-9./?=&[\]:@-]{0,60}$/),
);
const target = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
const method = fc.constantFrom(
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'OPTIONS',
  'DELETE',
  'CONNECT',
  'G\u0000T',
  'BREW',
  '',
);
const headerName = fc.oneof(
  fc.constantFrom(
    'Host',
    'Origin',
    'Authorization',
    'Content-Length',
    'Transfer-Encoding',
    'Upgrade',
    'Connection',
    'Sec-WebSocket-Key',
    'Sec-WebSocket-Version',
  ),
  fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/),
);
const headerValue = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    'websocket',
    'Upgrade',
    'chunked',
    '-1',
    '99999999999',
    'Bearer x',
    'localhost',
    'evil.example',
    '[::1',
    '13',
    'dGhlIHNhbXBsZSBub25jZQ==',
  ),
);
const requestBytes = fc
  .record({
    method,
    // Mostly a path, so the request gets past the Host check to the router.
    target: fc.oneof({ weight: 4, arbitrary: target.map((t) => `/${t}`) }, { weight: 1, arbitrary: target }),
    goodHost: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
    version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2', 'HTTP/9.9', ''),
    headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 8 }),
    body: fc.oneof(fc.constant(''), fc.string({ maxLength: 200 }), fc.constant('0\r\n\r\n')),
  })
  .map(({ method, target, goodHost, version, headers, body }) => {
    const all = goodHost ? [['Host', `127.0.0.1:${port}`] as const, ...headers] : headers;
    return Buffer.from(
      `${method} ${target} ${version}\r\n${all.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${body}`,
      'utf8',
    );
  });

const socketMessage = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc
    .record({
      type: fc.constantFrom('call', 'ready', 'result', 'event', 'nope'),
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
      method: fc.oneof(
        fc.constantFrom(...METHOD_NAMES),
        fc.string({ maxLength: 20 }),
        fc.constant('__proto__'),
        fc.constant('constructor'),
      ),
      args: fc.oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.jsonValue()),
    })
    .map((m) => JSON.stringify(m)),
);

async function stillServing(): Promise<void> {
  const page = await raw(
    Buffer.from(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    5_000,
  );
  expect(page).toMatch(/^HTTP\/1\.1 200/);
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${server.token}`, { origin: server.url });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const answer = new Promise<CoreMessage>((resolve) =>
    ws.once('message', (d) => resolve(decodeWire(String(d)) as CoreMessage)),
  );
  ws.send(encodeWire({ type: 'call', id: 1, method: 'getAppInfo', args: [] }));
  const m = await answer;
  expect(m.type).toBe('result');
  if (m.type === 'result') expect(m.result.ok).toBe(true);
  ws.close();
}

describe('web mode fuzz', () => {
  it(
    'random request lines, targets, headers and bodies never take it down',
    { timeout: 60_000 },
    async () => {
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(requestBytes, async (bytes) => {
          const got = await raw(bytes);
          sent++;
          // Whatever came back is HTTP or nothing (a closed connection), never a crash.
          if (got !== '') expect(got).toMatch(/^HTTP\/1\.[01] \d{3}/);
        }),
        { numRuns: 3_000, interruptAfterTimeLimit: FUZZ_MS, seed: 20261124 },
      );
      expect(sent).toBeGreaterThan(20);
      await stillServing();
    },
  );

  it(
    'random socket messages (any JSON, text, unknown methods, bad arguments) never take it down',
    { timeout: 60_000 },
    async () => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${server.token}`, { origin: server.url });
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(socketMessage, async (text) => {
          ws.send(text);
          sent++;
          // A call with a numeric id is answered; give the server a moment between messages.
          await new Promise((r) => setImmediate(r));
        }),
        { numRuns: 5_000, interruptAfterTimeLimit: FUZZ_MS, seed: 20261124 },
      );
      ws.send(Buffer.from([0xff, 0xfe, 0x00])); // binary, not UTF-8
      expect(sent).toBeGreaterThan(50);
      expect(ws.readyState).toBe(WebSocket.OPEN);
      ws.close();
      await stillServing();
    },
  );
});
