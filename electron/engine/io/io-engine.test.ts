// The stream-I/O engine itself: bytes cross the thread boundary intact (reads bigger than a batch,
// thousands of small ones), times land on this thread's clock, inline mode gives the same record,
// and a thread that dies fails its requests with a classified error instead of hanging them. A
// reader that falls behind stops its socket being read (back-pressure) and gets every byte in order
// once it catches up.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IoEngine, type IoCall, type IoHandler } from './io-engine.ts';
import { READ_COST_BYTES } from './backlog.ts';
import type { IoCtrl, IoRequest } from './protocol.ts';
import { DEFAULT_LIMITS, defaultEngineConfig } from '../engine-config.ts';

const BACKLOG_HIGH_BYTES = DEFAULT_LIMITS.backlogHighBytes;

let srv: http.Server;
let base = '';
beforeAll(async () => {
  srv = http.createServer((req, res) => {
    req.resume();
    const u = new URL(req.url ?? '/', 'http://x');
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    if (u.pathname === '/big') {
      // 1.5 MiB in three writes: reads larger than one 256-KiB batch buffer.
      const block = Buffer.alloc(512 * 1024);
      for (let i = 0; i < block.length; i++) block[i] = (i * 31 + 7) & 0xff;
      res.write(block);
      res.write(block);
      res.end(block);
      return;
    }
    if (u.pathname === '/many') {
      let i = 0;
      const tick = (): void => {
        res.write(`${String(i).padStart(6, '0')}\n`);
        if (++i < 400) setImmediate(tick);
        else res.end();
      };
      tick();
      return;
    }
    if (u.pathname === '/flood') {
      // 8 MiB as fast as the socket takes it, honouring its back-pressure.
      const block = Buffer.alloc(64 * 1024);
      let sent = 0;
      const more = (): void => {
        while (sent < 128) {
          for (let i = 0; i < block.length; i += 4) block.writeUInt32LE(sent * block.length + i, i);
          sent++;
          if (sent === 128) res.end(block);
          else if (!res.write(block)) {
            res.once('drain', more);
            return;
          }
        }
      };
      more();
      return;
    }
    if (u.pathname === '/hang') {
      res.flushHeaders(); // headers sent, body never ends
      return;
    }
    res.end('ok');
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
});
afterAll(async () => {
  srv.closeAllConnections();
  await new Promise((r) => srv.close(r));
});

const req = (path: string): IoRequest => ({
  url: base + path,
  method: 'GET',
  headers: {},
  body: '',
  timeoutMs: 10_000,
  idleTimeoutMs: 0,
  insecureTls: false,
  pool: null,
});

interface Got {
  bytes: Buffer;
  reads: number[];
  ctrl: IoCtrl[];
}

/** Collects a request's bytes, reporting each read decoded at once (as the client does). */
function collect(engine: IoEngine, path: string, onCtrl?: (ev: IoCtrl) => void): Promise<Got> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    const got: Got = { bytes: Buffer.alloc(0), reads: [], ctrl: [] };
    const h: IoHandler = {
      read(t, chunk) {
        got.reads.push(t);
        parts.push(Buffer.from(chunk)); // a copy: the memory goes back to the I/O thread
        call.consumed(chunk.length + READ_COST_BYTES);
      },
      ctrl(ev) {
        got.ctrl.push(ev);
        onCtrl?.(ev);
        if (ev.k === 'end' || ev.k === 'error') {
          got.bytes = Buffer.concat(parts);
          resolve(got);
        }
      },
    };
    const call: IoCall = engine.fire(req(path), h);
  });
}

describe.each([1, 0])('IoEngine with %i I/O thread(s)', (threads) => {
  const engine = new IoEngine(defaultEngineConfig({ ioThreads: threads }));
  afterAll(() => engine.close());

  it('a request handed over ahead starts at its instant; one cancelled before it never starts', async () => {
    await engine.ready();
    const at = performance.now() + 60;
    const timed = new Promise<Got>((resolve) => {
      const ctrl: IoCtrl[] = [];
      engine.fire(
        { ...req('/'), at },
        {
          read: () => undefined,
          ctrl: (ev) => (
            ctrl.push(ev),
            ev.k === 'end' && resolve({ bytes: Buffer.alloc(0), reads: [], ctrl })
          ),
        },
      );
    });
    const cancelled = new Promise<IoCtrl[]>((resolve) => {
      const ctrl: IoCtrl[] = [];
      const call = engine.fire(
        { ...req('/'), at: performance.now() + 5_000 },
        { read: () => undefined, ctrl: (ev) => (ctrl.push(ev), ev.k === 'error' && resolve(ctrl)) },
      );
      setTimeout(() => call.cancel(), 20);
    });
    const got = await timed;
    const start = got.ctrl.find((c) => c.k === 'start')!;
    expect(start.t).toBeGreaterThanOrEqual(at - 0.5); // the threads' clocks agree within the offset's error
    expect(start.t - at).toBeLessThan(50);
    const c = await cancelled;
    expect(c.map((e) => e.k)).toEqual(['error']); // no start: never sent
    const e = c[0] as Extract<IoCtrl, { k: 'error' }>;
    expect(e.error.code).toBe('cancelled');
    expect(e.error.message).toMatch(/before its planned send/);
  });

  it('reads larger than a batch arrive whole and in order', async () => {
    await engine.ready();
    expect(engine.mode.threads).toBe(threads);
    const got = await collect(engine, '/big');
    expect(got.ctrl.at(-1)!.k).toBe('end');
    expect(got.bytes.length).toBe(3 * 512 * 1024);
    for (let i = 0; i < got.bytes.length; i += 4099)
      expect(got.bytes[i]).toBe(((i % (512 * 1024)) * 31 + 7) & 0xff);
  });

  it('many small reads: every byte, times increasing, on this thread’s clock, between start and end', async () => {
    const before = performance.now();
    const got = await collect(engine, '/many');
    const after = performance.now();
    const text = got.bytes.toString('latin1');
    expect(text.split('\n').filter(Boolean)).toEqual(
      Array.from({ length: 400 }, (_, i) => String(i).padStart(6, '0')),
    );
    const start = got.ctrl.find((c) => c.k === 'start')!.t;
    const end = got.ctrl.at(-1)!.t;
    expect(start).toBeGreaterThanOrEqual(before);
    expect(end).toBeLessThanOrEqual(after);
    for (let i = 1; i < got.reads.length; i++)
      expect(got.reads[i]!).toBeGreaterThanOrEqual(got.reads[i - 1]!);
    expect(got.reads[0]!).toBeGreaterThanOrEqual(start);
    expect(got.reads.at(-1)!).toBeLessThanOrEqual(end);
    // The phases come in order: start, socket, connected, written, headers, …, end.
    expect(got.ctrl.map((c) => c.k)).toEqual(['start', 'socket', 'connected', 'written', 'headers', 'end']);
  });

  it('a reader that falls behind stops the socket being read, then gets every byte in order', async () => {
    engine.resetStats();
    const got = await new Promise<{ stalledAt: number; bytes: Buffer; last: IoCtrl }>((resolve) => {
      const parts: Buffer[] = [];
      let size = 0;
      let owed = 0;
      let stalledAt = -1;
      let quiet: NodeJS.Timeout | undefined;
      const h: IoHandler = {
        read(_t, chunk) {
          parts.push(Buffer.from(chunk));
          size += chunk.length;
          owed += chunk.length + READ_COST_BYTES;
          if (stalledAt >= 0) {
            call.consumed(owed);
            owed = 0;
            return;
          }
          // Decoding nothing until no read came for 300 ms (the socket stopped), then catching up.
          clearTimeout(quiet);
          quiet = setTimeout(() => {
            stalledAt = size;
            call.consumed(owed);
            owed = 0;
          }, 300);
        },
        ctrl(ev) {
          if (ev.k === 'end' || ev.k === 'error')
            resolve({ stalledAt, bytes: Buffer.concat(parts), last: ev });
        },
      };
      const call: IoCall = engine.fire(req('/flood'), h);
    });
    expect(got.last.k).toBe('end');
    // Stopped at the bound (one read past it at most), not after the 8 MiB the server had to send.
    expect(got.stalledAt).toBeGreaterThan(0);
    expect(got.stalledAt).toBeLessThanOrEqual(BACKLOG_HIGH_BYTES + 64 * 1024);
    expect(got.bytes.length).toBe(128 * 64 * 1024);
    for (let i = 0; i < got.bytes.length; i += 4 * 1021) expect(got.bytes.readUInt32LE(i)).toBe(i);
    // The hold is counted, with its length: the reader took nothing for its 300-ms quiet spell.
    const s = (await engine.stats()).io!;
    expect(s.holds).toBeGreaterThanOrEqual(1);
    expect(s.heldMaxMs).toBeGreaterThanOrEqual(250);
    expect(s.heldMs).toBeGreaterThanOrEqual(s.heldMaxMs);
  });

  it('the loop figures count the reads it stamped', async () => {
    engine.resetStats();
    await collect(engine, '/many');
    const s = await engine.stats();
    // A reader that keeps up never holds a stream back.
    expect(s.io!.holds).toBe(0);
    expect(s.io!.heldMs).toBe(0);
    expect(s.threads).toBe(threads);
    expect(s.io).not.toBeNull();
    expect(s.io!.reads).toBeGreaterThan(0);
    expect(s.io!.loopDelayMaxMs).toBeGreaterThanOrEqual(s.io!.loopDelayP99Ms);
  });
});

describe('a stream-I/O thread that dies', () => {
  it('fails the requests it held with client/io-thread; later requests still run', async () => {
    const engine = new IoEngine(defaultEngineConfig({ ioThreads: 1 }));
    try {
      await engine.ready();
      const hung = collect(engine, '/hang', (ev) => {
        // Headers arrived: the thread holds an open stream. Kill it.
        if (ev.k === 'headers')
          void (
            engine as unknown as { threads: { worker: { terminate(): Promise<number> } }[] }
          ).threads[0]!.worker.terminate();
      });
      const got = await hung;
      const last = got.ctrl.at(-1)!;
      expect(last.k).toBe('error');
      expect(last.k === 'error' && last.error).toMatchObject({ kind: 'client', code: 'io-thread' });
      expect(engine.mode.threads).toBe(0);
      // With no thread left the engine runs requests inline.
      const next = await collect(engine, '/');
      expect(next.bytes.toString()).toBe('ok');
    } finally {
      await engine.close();
    }
  });
});
