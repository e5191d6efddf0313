import { describe, expect, it } from 'vitest';
import type { RequestBatch } from '../../../shared/api.ts';
import { decodeWire, encodeWire } from '../../../shared/wire.ts';
import { backoffDelay, WsTransport, type SocketLike } from './ws-transport.ts';
import type { AuthState } from './web-api.ts';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  onmessage: SocketLike['onmessage'] = null;
  constructor(public url: string) {}
  send(data: string) {
    this.sent.push(decodeWire(data));
  }
  close() {
    this.drop();
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: encodeWire(msg) });
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timers: { cb: () => void; ms: number }[] = [];
  const t = new WsTransport({
    url: 'ws://127.0.0.1:1/ws?token=abc',
    createSocket: (u) => {
      const s = new FakeSocket(u);
      sockets.push(s);
      return s;
    },
    setTimer: (cb, ms) => timers.push({ cb, ms }),
    clearTimer: () => {},
    now: () => 1000,
    random: () => 0.5,
  });
  return { t, sockets, timers, last: () => sockets[sockets.length - 1]! };
}

describe('WsTransport', () => {
  it('queues calls until the socket opens, then correlates results by id', async () => {
    const h = harness();
    const p1 = h.t.call('listTargets', []);
    const p2 = h.t.call('getRequest', ['r1']);
    expect(h.last().sent).toEqual([]);
    h.last().open();
    expect(h.last().sent).toEqual([
      { type: 'call', id: 1, method: 'listTargets', args: [] },
      { type: 'call', id: 2, method: 'getRequest', args: ['r1'] },
    ]);
    // Answers out of order still reach the right caller.
    h.last().receive({
      type: 'result',
      id: 2,
      result: { ok: false, error: { kind: 'client', message: 'no such request' } },
    });
    h.last().receive({ type: 'result', id: 1, result: { ok: true, value: [] } });
    await expect(p1).resolves.toEqual({ ok: true, value: [] });
    await expect(p2).resolves.toMatchObject({ ok: false, error: { message: 'no such request' } });
  });

  it('sends ready only once subscribed, and again after each reconnect', () => {
    const h = harness();
    h.last().open();
    expect(h.last().sent).toEqual([]);
    h.t.on('onRequestBatch', () => {});
    h.t.ready();
    expect(h.last().sent).toEqual([{ type: 'ready' }]);
    h.last().drop();
    h.timers.shift()!.cb();
    h.last().open();
    expect(h.sockets).toHaveLength(2);
    expect(h.last().sent).toEqual([{ type: 'ready' }]);
    expect(h.t.connection()).toMatchObject({ status: 'open', reconnects: 1 });
  });

  it('dispatches events with typed arrays restored', () => {
    const h = harness();
    h.last().open();
    const got: RequestBatch[] = [];
    const off = h.t.on('onRequestBatch', (b) => got.push(b));
    h.last().receive({
      type: 'event',
      event: 'onRequestBatch',
      payload: { requestId: 'r', from: 0, t: Float64Array.from([1.25, 2.5]) },
    });
    off();
    h.last().receive({
      type: 'event',
      event: 'onRequestBatch',
      payload: { requestId: 'r', from: 2, t: Float64Array.from([3]) },
    });
    expect(got).toHaveLength(1);
    expect(got[0]!.t).toBeInstanceOf(Float64Array);
    expect(Array.from(got[0]!.t)).toEqual([1.25, 2.5]);
  });

  it('fails calls in flight when the socket drops and reconnects with growing backoff', async () => {
    const h = harness();
    const states: string[] = [];
    h.t.onConnection((s) => states.push(s.status));
    h.last().open();
    const p = h.t.call('listHistory', []);
    h.last().drop();
    await expect(p).resolves.toMatchObject({ ok: false, error: { kind: 'network', code: 'disconnected' } });
    expect(states).toEqual(['open', 'reconnecting']);
    expect(h.timers[0]!.ms).toBe(500);
    h.timers.shift()!.cb();
    h.last().drop(); // still down
    expect(h.timers[0]!.ms).toBe(1000);
    h.timers.shift()!.cb();
    h.last().open();
    expect(h.t.connection()).toMatchObject({ status: 'open', attempt: 0 });
  });

  it('ignores malformed frames and results nobody waits for', () => {
    const h = harness();
    h.last().open();
    const warn = console.warn;
    console.warn = () => {};
    try {
      h.last().onmessage?.({ data: '{not json' });
      h.last().receive({ type: 'result', id: 999, result: { ok: true, value: 1 } });
    } finally {
      console.warn = warn;
    }
    expect(h.t.connection().status).toBe('open');
  });
});

describe('backoffDelay', () => {
  it('doubles, caps and jitters by ±20 %', () => {
    expect(backoffDelay(0, 500, 10_000, () => 0.5)).toBe(500);
    expect(backoffDelay(3, 500, 10_000, () => 0.5)).toBe(4000);
    expect(backoffDelay(10, 500, 10_000, () => 0.5)).toBe(10_000);
    expect(backoffDelay(0, 500, 10_000, () => 0)).toBe(400);
    expect(backoffDelay(0, 500, 10_000, () => 1)).toBe(600);
  });
});

describe('WsTransport: a refused token', () => {
  function authHarness(answers: AuthState[]) {
    const sockets: FakeSocket[] = [];
    const timers: { cb: () => void; ms: number }[] = [];
    const states: string[] = [];
    const t = new WsTransport({
      url: 'ws://127.0.0.1:1/ws?token=old',
      createSocket: (u) => {
        const s = new FakeSocket(u);
        sockets.push(s);
        return s;
      },
      setTimer: (cb, ms) => timers.push({ cb, ms }),
      clearTimer: () => {},
      now: () => 1000,
      random: () => 0.5,
      checkAuth: async () => answers.shift() ?? 'ok',
    });
    t.onConnection((c) => states.push(c.status));
    return { t, sockets, timers, states, last: () => sockets[sockets.length - 1]! };
  }
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('stops retrying and says why when the server refuses the token; a new token connects at once', async () => {
    const h = authHarness(['wrong-token']);
    h.last().drop();
    await settle();
    expect(h.t.connection().status).toBe('unauthorized');
    expect(h.t.connection().detail).toMatch(/refused this page’s access token/);
    expect(h.timers).toHaveLength(0); // no retry loop against a 403
    h.t.setToken('new token');
    expect(h.sockets).toHaveLength(2);
    expect(new URL(h.last().url).searchParams.get('token')).toBe('new token');
    h.last().open();
    expect(h.t.connection().status).toBe('open');
  });

  it('names a missing token and a refused Host differently', async () => {
    const a = authHarness(['missing-token']);
    a.last().drop();
    await settle();
    expect(a.t.connection().detail).toMatch(/no access token/);
    const b = authHarness(['host']);
    b.last().drop();
    await settle();
    expect(b.t.connection().detail).toMatch(/--allow-host/);
  });

  it('keeps retrying with backoff when the server is merely unreachable or the token is fine', async () => {
    const h = authHarness(['unreachable', 'ok']);
    h.last().drop();
    await settle();
    expect(h.t.connection().status).toBe('connecting');
    expect(h.timers).toHaveLength(1);
    h.timers[0]!.cb();
    h.last().drop();
    await settle();
    expect(h.timers).toHaveLength(2);
    expect(h.states).not.toContain('unauthorized');
  });
});

describe('WsTransport: calls made before the link is up', () => {
  it('survive failed connects and are sent, once, when a link opens', async () => {
    const h = harness();
    const p = h.t.call('listTargets', []);
    h.last().drop(); // the first connect fails: the call was never sent, so it is not failed
    h.timers[0]!.cb();
    h.last().open();
    expect(h.last().sent).toEqual([{ type: 'call', id: 1, method: 'listTargets', args: [] }]);
    h.last().receive({ type: 'result', id: 1, result: { ok: true, value: ['t'] } });
    await expect(p).resolves.toEqual({ ok: true, value: ['t'] });
  });
});
