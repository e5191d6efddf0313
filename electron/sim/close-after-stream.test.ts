/**
 * llama.cpp's connection habit (close-after-stream.ts): keep-alive advertised, the connection
 * closed after every streamed response, so a pooled client that reuses the socket at once is reset
 * before any response byte. Plain node:http clients, as the engine's connection driver uses.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LLAMACPP_KEEP_ALIVE } from './close-after-stream.ts';
import { parseFault } from './faults.ts';
import { startSim, type SimServer } from './index.ts';
import { chatBody } from '../testing/sim.ts';

interface Outcome {
  status: number | null;
  headers: http.IncomingHttpHeaders;
  bytes: number;
  /** The request went out on a socket taken from the agent's pool. */
  reused: boolean;
  /** 'response' fired: at least the status line arrived. */
  gotResponse: boolean;
  error: NodeJS.ErrnoException | null;
  socket: Socket | null;
}

const N = 8;

/** One chat request; resolves on the response's 'end' (or the request's error), never rejects. */
function send(
  sim: SimServer,
  agent: http.Agent | false,
  body: Record<string, unknown> = chatBody(),
  headers: Record<string, string> = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const o: Outcome = {
      status: null,
      headers: {},
      bytes: 0,
      reused: false,
      gotResponse: false,
      error: null,
      socket: null,
    };
    const req = http.request(
      `${sim.url}/v1/chat/completions`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        o.gotResponse = true;
        o.status = res.statusCode ?? null;
        o.headers = res.headers;
        res.on('data', (c: Buffer) => (o.bytes += c.length));
        res.on('end', () => resolve(o));
        res.on('error', (e) => {
          o.error = e;
          resolve(o);
        });
      },
    );
    req.on('socket', (s) => {
      o.socket = s;
      o.reused = req.reusedSocket;
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      o.error = e;
      resolve(o);
    });
    req.end(JSON.stringify(body));
  });
}

/** N requests one after the other, each sent as soon as the previous one ended. */
async function sequential(sim: SimServer, agent: http.Agent | false, n = N): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (let i = 0; i < n; i++) out.push(await send(sim, agent));
  return out;
}

function closed(socket: Socket | null, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    if (!socket || socket.destroyed) return resolve(true);
    const t = setTimeout(() => resolve(false), timeoutMs);
    socket.once('close', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

const keepAlive = (): http.Agent => new http.Agent({ keepAlive: true, maxSockets: 1 });
const failedBeforeResponse = (o: Outcome): boolean => o.error !== null && !o.gotResponse;

let sim: SimServer; // llama.cpp mode for every request
let plain: SimServer; // ordinary keep-alive, the mode per request only
beforeAll(async () => {
  // 20 ms: the client's next request is on the wire long before the close, even on a busy machine.
  sim = await startSim({
    decodeStepMs: 1,
    decodeStepPerSeqMs: 0,
    closeAfterStream: true,
    closeAfterStreamMs: 20,
  });
  plain = await startSim({ decodeStepMs: 1, decodeStepPerSeqMs: 0 });
});
afterAll(async () => {
  await sim.close();
  await plain.close();
});

describe('closeAfterStream (llama.cpp keep-alive)', () => {
  it('is off by default, 5 ms after the last byte when on, and a fault kind with its own delay', async () => {
    expect(plain.options.closeAfterStream).toBe(false);
    const s = await startSim({ closeAfterStream: true });
    try {
      expect(s.options.closeAfterStreamMs).toBe(5);
    } finally {
      await s.close();
    }
    expect(parseFault('close-after-stream:30')).toEqual({ kind: 'close-after-stream', param: 30 });
  });

  it('advertises keep-alive on a streamed response, then closes the connection', async () => {
    const agent = keepAlive();
    try {
      for (let i = 0; i < 3; i++) {
        const o = await send(sim, agent);
        expect(o.error).toBeNull();
        expect(o.status).toBe(200);
        expect(o.bytes).toBeGreaterThan(0);
        expect(o.headers['content-type']).toMatch(/^text\/event-stream/);
        expect(o.headers.connection).toBe('keep-alive');
        expect(o.headers['keep-alive']).toBe(LLAMACPP_KEEP_ALIVE);
        // Nothing else is sent: the server closes the pooled socket on its own.
        expect(o.reused).toBe(false);
        expect(await closed(o.socket)).toBe(true);
      }
    } finally {
      agent.destroy();
    }
  });

  it('a request that reuses the pooled socket at once is reset before any response byte', async () => {
    const agent = keepAlive();
    let out: Outcome[];
    try {
      out = await sequential(sim, agent);
    } finally {
      agent.destroy();
    }
    const failed = out.filter(failedBeforeResponse);
    // Each failure leaves the pool empty, so the next request opens a new connection and succeeds:
    // about every other request fails.
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const o of failed) {
      expect(o.reused).toBe(true);
      expect(o.bytes).toBe(0);
      expect(['ECONNRESET', 'EPIPE']).toContain(o.error?.code);
    }
    for (const o of out.filter((x) => !failedBeforeResponse(x))) {
      expect(o.error).toBeNull();
      expect(o.status).toBe(200);
      expect(o.reused).toBe(false);
    }
    expect(out[0]?.error).toBeNull();
  });

  it('with Connection: close from the client every request succeeds', async () => {
    const out = await sequential(sim, false);
    for (const o of out) {
      expect(o.error).toBeNull();
      expect(o.status).toBe(200);
      expect(o.headers.connection).toBe('close');
      expect(o.headers['keep-alive']).toBeUndefined();
    }
  });

  it('keeps the connection of a non-streamed response', async () => {
    const agent = keepAlive();
    try {
      const a = await send(sim, agent, chatBody({ stream: false }));
      const b = await send(sim, agent, chatBody({ stream: false }));
      for (const o of [a, b]) {
        expect(o.error).toBeNull();
        expect(o.status).toBe(200);
      }
      expect(b.reused).toBe(true);
      expect(b.socket).toBe(a.socket);
    } finally {
      agent.destroy();
    }
  });

  it('per request: the fault close-after-stream[:ms] does it on an ordinary sim', async () => {
    const agent = keepAlive();
    try {
      // Without the fault the streamed connection is kept and reused.
      const a = await send(plain, agent);
      const b = await send(plain, agent);
      expect([a.error, b.error]).toEqual([null, null]);
      expect(b.reused).toBe(true);
      expect(b.headers['keep-alive']).not.toBe(LLAMACPP_KEEP_ALIVE);
      // With it: advertised, closed, and a request reusing the socket at once is reset.
      const f = { 'x-sim-fault': 'close-after-stream:20' };
      const c = await send(plain, agent, chatBody(), f);
      expect(c.error).toBeNull();
      expect(c.headers['x-sim-fault']).toBe('close-after-stream:20');
      expect(c.headers['keep-alive']).toBe(LLAMACPP_KEEP_ALIVE);
      const d = await send(plain, agent);
      expect(failedBeforeResponse(d)).toBe(true);
      expect(d.reused).toBe(true);
      expect(await closed(c.socket)).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
