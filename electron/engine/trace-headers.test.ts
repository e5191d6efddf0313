// Every request carries a fresh W3C traceparent (sampled) and an x-request-id, recorded on the
// record; off with traceHeaders: false; the user's own headers win. Checked on the wire against a
// server answering with vLLM's corpus bytes, whose stream `id` and x-request-id echo are kept too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestSpec } from '../../shared/request.ts';
import { readCorpus } from '../testing/framing-corpus.ts';
import { fireRequest } from './client.ts';
import { io } from './io/io-engine.ts';

let server: http.Server;
let base = '';
const seen: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => {
      const rid = req.headers['x-request-id'];
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        ...(typeof rid === 'string' ? { 'x-request-id': rid } : {}),
      });
      res.end(Buffer.from(readCorpus('vllm-chat.sse')));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await io().close();
});

const spec = (p: Partial<RequestSpec> = {}): RequestSpec => ({
  url: base,
  dialect: 'openai-chat',
  model: 'm',
  prompt: 'hi',
  ...p,
});

describe('trace headers', () => {
  it('sends a fresh sampled traceparent and an x-request-id per request, and records them', async () => {
    const a = await fireRequest(spec());
    const b = await fireRequest(spec());
    const [ha, hb] = seen.slice(-2);
    expect(ha?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(a.trace).toBeDefined();
    expect(ha?.traceparent).toBe(`00-${a.trace!.traceId}-${a.trace!.spanId}-01`);
    expect(ha?.['x-request-id']).toBe(a.trace!.requestId);
    expect(b.trace!.traceId).not.toBe(a.trace!.traceId);
    expect(hb?.['x-request-id']).not.toBe(ha?.['x-request-id']);
    // The server's own ids: its x-request-id echo and the stream's `id`.
    expect(a.serverRequestId).toBe(a.trace!.requestId);
    expect(a.responseId).toBe('chatcmpl-8b2b91720edd4372b0579e89255b4828');
  });

  it('sends neither with traceHeaders off', async () => {
    const r = await fireRequest(spec({ traceHeaders: false }));
    const h = seen.at(-1)!;
    expect(h.traceparent).toBeUndefined();
    expect(h['x-request-id']).toBeUndefined();
    expect(r.trace).toBeUndefined();
    expect(r.responseId).toBe('chatcmpl-8b2b91720edd4372b0579e89255b4828');
  });

  it("keeps the user's own traceparent and x-request-id (any case) and records what they carry", async () => {
    const tp = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const r = await fireRequest(spec({ headers: { TraceParent: tp, 'X-Request-Id': 'mine-1' } }));
    const h = seen.at(-1)!;
    expect(h.traceparent).toBe(tp);
    expect(h['x-request-id']).toBe('mine-1');
    expect(r.trace).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      requestId: 'mine-1',
    });
  });
});
