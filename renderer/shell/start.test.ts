import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestBatch, RequestSnapshot, RequestSummary } from '../../shared/api.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { setTransport } from '../core/api.ts';
import { liveStore } from '../request/live-store.ts';
import { FakeTransport } from '../testing/fake-transport.ts';
import { handMadeRecord } from '../testing/record-fixture.ts';
import { useAppStore } from '../core/app-store.ts';
import { DERIVE_INTERVAL_MS, fire } from '../request/controller.ts';
import { startController } from './start.ts';
import { EMPTY_SLOT, useRequestStore } from '../request/request-store.ts';

const rec = handMadeRecord({ id: 'r1' });

function summary(state: RequestSummary['state']): RequestSummary {
  return {
    id: 'r1',
    targetId: 'builtin-sim',
    targetName: 'Built-in simulator',
    model: 'tokenscope-sim',
    dialect: 'openai-chat',
    startedAtWall: 1,
    state,
    ttftMs: null,
    e2eMs: null,
    outputTokens: 0,
    errorKind: null,
    promptPreview: 'hi',
  };
}

function batch(from: number, to: number): RequestBatch {
  const e = rec.events;
  return {
    requestId: 'r1',
    from,
    t: e.t.slice(from, to),
    tokens: e.tokens.slice(from, to),
    read: e.read.slice(from, to),
    flags: e.flags.slice(from, to),
    size: e.size.slice(from, to),
    text: e.text.slice(from, to),
    raw: rec.raw!.slice(from, to),
    phases: { ...rec.phases, endMs: null },
    status: 200,
    bytes: 100,
    reads: to,
  };
}

let t: FakeTransport;
let stop: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  useRequestStore.setState({
    current: EMPTY_SLOT,
    compare: EMPTY_SLOT,
    history: [],
    firing: false,
    fireError: null,
  });
  t = new FakeTransport({
    getAppInfo: () => ({
      ok: true,
      value: { version: 't', mode: 'web', simUrl: null, secretsPersisted: false },
    }),
    listTargets: () => ({
      ok: true,
      value: [
        {
          id: 'builtin-sim',
          name: 'Built-in simulator',
          baseUrl: 'http://127.0.0.1:1',
          dialect: 'openai-chat',
          hasApiKey: false,
          builtin: true,
        },
      ],
    }),
    listHistory: () => ({ ok: true, value: [] }),
    fireRequest: () => {
      // The core announces the request before answering the call.
      t.emit('onRequestStarted', summary('running'));
      return { ok: true, value: { requestId: 'r1' } };
    },
  });
  setTransport(t);
  stop = startController();
});

afterEach(() => {
  stop();
  setTransport(null);
  vi.useRealTimers();
});

describe('controller', () => {
  it('subscribes to every event before saying ready, then loads the lists', async () => {
    expect(t.subscribers('onRequestBatch')).toBe(1);
    expect(t.subscribers('onRequestFinished')).toBe(1);
    expect(t.readySent).toBe(1);
    await vi.runAllTimersAsync();
    expect(useAppStore.getState().targets.map((x) => x.id)).toEqual(['builtin-sim']);
  });

  it('streams batches into the live store and recomputes stats at most every 200 ms', async () => {
    await fire({ targetId: 'builtin-sim', model: 'tokenscope-sim', prompt: 'hi' });
    expect(useRequestStore.getState().current).toMatchObject({ id: 'r1', state: 'running' });
    expect(useRequestStore.getState().history.map((h) => h.id)).toEqual(['r1']);

    t.emit('onRequestBatch', batch(0, 2));
    t.emit('onRequestBatch', batch(2, 4));
    // Every row is in the live store at once…
    expect(liveStore.get('r1')!.cols.n).toBe(4);
    // …but the summary store waits for its next tick.
    const before = useRequestStore.getState().current.stats;
    expect(before?.events ?? 0).toBe(0);
    await vi.advanceTimersByTimeAsync(DERIVE_INTERVAL_MS);
    const mid = useRequestStore.getState().current.stats!;
    expect(mid.events).toBe(4);
    expect(mid.ttftMs).toBe(12.3456);
    expect(useRequestStore.getState().current.state).toBe('running');
  });

  it('takes the final snapshot as the truth and marks the request done at once', async () => {
    await fire({ targetId: 'builtin-sim', model: 'tokenscope-sim', prompt: 'hi' });
    t.emit('onRequestBatch', batch(0, 3));
    const snap: RequestSnapshot = {
      summary: { ...summary('done'), ttftMs: 12.3456 },
      input: { targetId: 'builtin-sim', model: 'tokenscope-sim', prompt: 'hi' },
      record: rec,
    };
    t.emit('onRequestFinished', snap);
    const cur = useRequestStore.getState().current;
    expect(cur.state).toBe('done');
    expect(cur.stats).toEqual(computeRequestStats(rec));
    expect(cur.digest?.finishReason).toBe('length');
    expect(useRequestStore.getState().history[0]!.state).toBe('done');
  });

  it('reports a refused fire as a value, not a crash', async () => {
    t.handlers.fireRequest = () => ({
      ok: false,
      error: { kind: 'client', message: 'Invalid arguments for fireRequest: model too short' },
    });
    expect(await fire({ targetId: 'x', model: 'm' })).toBe(false);
    expect(useRequestStore.getState().fireError).toMatch(/Invalid arguments/);
    expect(useRequestStore.getState().firing).toBe(false);
  });

  it('reloads the lists after a reconnect', async () => {
    await vi.runAllTimersAsync();
    const before = t.calls.filter((c) => c.method === 'listHistory').length;
    t.setConnection({ status: 'reconnecting' });
    t.setConnection({ status: 'open', reconnects: 1 });
    await vi.runAllTimersAsync();
    expect(t.calls.filter((c) => c.method === 'listHistory').length).toBe(before + 1);
  });
});
