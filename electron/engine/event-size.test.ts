// Memory stays bounded whatever a server sends: an SSE event (or NDJSON line) that grows past the
// cap without ending stops its request as protocol/event-too-large, with what came before it kept,
// and the client does not buffer the rest.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireRequest } from './client.ts';
import { DEFAULT_LIMITS } from './engine-config.ts';

const MAX_EVENT_CHARS = DEFAULT_LIMITS.maxEventChars;
import { io } from './io/io-engine.ts';

let srv: http.Server;
let url = '';
let sent = 0;
beforeAll(async () => {
  srv = http.createServer((req, res) => {
    req.resume();
    const ndjson = req.url?.startsWith('/api/') === true;
    res.writeHead(200, { 'content-type': ndjson ? 'application/x-ndjson' : 'text/event-stream' });
    res.write(
      ndjson
        ? '{"model":"m","response":"kept","done":false}\n'
        : 'data: {"choices":[{"index":0,"delta":{"content":"kept"}}]}\n\n',
    );
    // Then one line that never ends: 64 KiB at a time, up to 3× the cap, unless the client leaves.
    const block = 'x'.repeat(64 * 1024);
    res.write(ndjson ? '{"response":"' : 'data: "');
    const more = (): void => {
      if (res.destroyed || sent > 3 * MAX_EVENT_CHARS) return void res.end();
      sent += block.length;
      if (res.write(block)) setImmediate(more);
      else res.once('drain', more);
    };
    res.on('close', () => undefined);
    more();
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
});
afterAll(async () => {
  srv.closeAllConnections();
  await new Promise((r) => srv.close(r));
  await io().close();
});

describe('an event that never ends', () => {
  it.each([
    ['openai-chat', 'SSE'],
    ['ollama-generate', 'NDJSON'],
  ] as const)(
    '%s (%s): protocol/event-too-large, the text before it kept, the stream stopped',
    async (dialect, _framing) => {
      sent = 0;
      const rec = await fireRequest({ url, dialect, model: 'm', prompt: 'x', timeoutMs: 60_000 });
      expect(rec.error).toMatchObject({ kind: 'protocol', code: 'event-too-large' });
      expect(rec.error!.message).toMatch(/grew past 8 MiB/);
      expect(rec.text).toBe('kept');
      // Stopped near the cap, not at the server's 3×.
      expect(rec.bytes).toBeGreaterThan(MAX_EVENT_CHARS);
      expect(rec.bytes).toBeLessThan(MAX_EVENT_CHARS + 4 * 1024 * 1024);
    },
  );
});
