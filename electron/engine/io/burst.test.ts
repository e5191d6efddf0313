// Reads win over new work on the stream-I/O thread: an opening burst of requests (all sent by the
// measuring side at once) is started in slices, and a stream already running has its reads
// stamped between them instead of waiting until every connection of the burst is opened
// (issue 26, point 1: 256 requests at once held the thread 35–66 ms).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IoEngine, type IoHandler } from './io-engine.ts';
import { defaultEngineConfig } from '../engine-config.ts';
import type { IoCtrl, IoRequest } from './protocol.ts';

let srv: http.Server;
let base = '';
const timers = new Set<NodeJS.Timeout>();
beforeAll(async () => {
  srv = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    if (req.url === '/drip') {
      // A byte every millisecond: some are always waiting to be read.
      const t = setInterval(() => res.write('x'), 1);
      timers.add(t);
      res.on('close', () => {
        clearInterval(t);
        timers.delete(t);
      });
      return;
    }
    res.flushHeaders(); // the burst's requests: headers, then nothing until cancelled
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', 1024, r));
  base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const t of timers) clearInterval(t);
  srv.closeAllConnections();
  await new Promise((r) => srv.close(r));
});

const req = (path: string): IoRequest => ({
  url: base + path,
  method: 'GET',
  headers: {},
  body: '',
  timeoutMs: 20_000,
  idleTimeoutMs: 0,
  insecureTls: false,
  pool: null,
});

describe('an opening burst on the stream-I/O thread', () => {
  it('is started in slices, with a running stream read between them', async () => {
    const engine = new IoEngine(defaultEngineConfig({ ioThreads: 1 }));
    await engine.ready();
    try {
      // What the I/O thread did, in its order: 'r' a read of the running stream, 's' a burst request started.
      const seq: string[] = [];
      let reads = 0;
      let streaming!: () => void;
      const started = new Promise<void>((r) => (streaming = r));
      const drip = engine.fire(req('/drip'), {
        read() {
          seq.push('r');
          if (++reads === 20) streaming();
        },
        ctrl() {},
      });
      await started;
      const N = 300;
      let ended = 0;
      let allEnded!: () => void;
      const done = new Promise<void>((r) => (allEnded = r));
      let startedN = 0;
      let allStarted!: () => void;
      const burstStarted = new Promise<void>((r) => (allStarted = r));
      const handler: IoHandler = {
        read() {},
        ctrl(ev: IoCtrl) {
          if (ev.k === 'start') {
            seq.push('s');
            if (++startedN === N) allStarted();
          }
          if ((ev.k === 'end' || ev.k === 'error') && ++ended === N) allEnded();
        },
      };
      const calls = Array.from({ length: N }, () => engine.fire(req('/hold'), handler));
      await burstStarted;
      for (const c of calls) c.cancel();
      await done;
      drip.cancel();
      const first = seq.indexOf('s');
      const last = seq.lastIndexOf('s');
      const between = seq.slice(first, last).filter((x) => x === 'r').length;
      // Starting 300 connections takes far more than a slice; the stream's bytes were read in between.
      expect(between).toBeGreaterThan(0);
      // … in more than one pause of the burst (not one lucky break).
      const runs = seq
        .slice(first, last + 1)
        .join('')
        .split(/r+/)
        .filter((x) => x.length > 0);
      expect(runs.length).toBeGreaterThanOrEqual(2);
    } finally {
      await engine.close();
    }
  });
});
