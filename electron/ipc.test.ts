import { beforeEach, describe, expect, it, vi } from 'vitest';

// Electron cannot run here (and must not be required in plain Node: it tries to download), so the
// module is mocked: ipcMain records the handlers it is given.
vi.mock('electron', () => import('./testing/electron-mock.ts'));
const { electronState } = await import('./testing/electron-mock.ts');
const { handlers, listeners } = electronState;

const { bindIpc } = await import('./ipc.ts');
const { API_METHODS } = await import('../shared/api.ts');
const { METHOD_NAMES, methodChannel, eventChannel, READY_CHANNEL } = await import('../shared/api-names.ts');
import type { ApiHandlers } from '../shared/api.ts';

const APP_URL = 'file:///app/out/renderer/index.html';

function fakeContents() {
  const sent: [string, unknown][] = [];
  const mainFrame = { url: APP_URL, parent: null };
  return {
    mainFrame,
    sent,
    send: (ch: string, p: unknown) => sent.push([ch, p]),
    isDestroyed: () => false,
    on: () => undefined,
  };
}

function stubHandlers(calls: string[]): ApiHandlers {
  const h: Record<string, (...a: unknown[]) => Promise<unknown>> = {};
  for (const m of METHOD_NAMES)
    h[m] = async (...a: unknown[]) => {
      calls.push(`${m}:${JSON.stringify(a)}`);
      return { ok: true, value: m };
    };
  return h as unknown as ApiHandlers;
}

describe('ipc binding', () => {
  beforeEach(() => {
    handlers.clear();
    listeners.clear();
  });

  it('the preload name list equals the contract schemas', () => {
    expect([...METHOD_NAMES].sort()).toEqual(Object.keys(API_METHODS).sort());
  });

  it('wires every contract method to exactly one handler', async () => {
    const calls: string[] = [];
    const b = bindIpc(stubHandlers(calls), (u) => u === APP_URL);
    const wc = fakeContents();
    b.attach(wc as never);
    expect([...handlers.keys()].sort()).toEqual(METHOD_NAMES.map(methodChannel).sort());
    // each channel reaches its own handler
    const r = (await handlers.get(methodChannel('listTargets'))!(
      { sender: wc, senderFrame: wc.mainFrame },
      [],
    )) as { ok: boolean; value: string };
    expect(r).toEqual({ ok: true, value: 'listTargets' });
    expect(calls).toEqual(['listTargets:[]']);
    b.dispose();
    expect(handlers.size).toBe(0);
  });

  it('rejects a sender from a foreign frame, a subframe and another page', async () => {
    const calls: string[] = [];
    const b = bindIpc(stubHandlers(calls), (u) => u === APP_URL);
    const wc = fakeContents();
    b.attach(wc as never);
    const h = handlers.get(methodChannel('listTargets'))!;
    const sub = { url: APP_URL, parent: wc.mainFrame };
    const other = { url: 'https://evil.example/', parent: null };
    for (const ev of [
      { sender: wc, senderFrame: sub },
      { sender: wc, senderFrame: other },
      { sender: fakeContents(), senderFrame: wc.mainFrame },
      { sender: wc, senderFrame: null },
    ]) {
      const r = (await h(ev, [])) as { ok: boolean; error: { code: string } };
      expect(r.ok).toBe(false);
      expect(r.error.code).toBe('forbidden');
    }
    // a main frame that navigated elsewhere is refused too
    wc.mainFrame.url = 'https://evil.example/';
    expect(((await h({ sender: wc, senderFrame: wc.mainFrame }, [])) as { ok: boolean }).ok).toBe(false);
    expect(calls).toEqual([]);
  });

  it('rejects bad arguments by schema before any handler runs', async () => {
    const calls: string[] = [];
    const wc = fakeContents();
    const binding = bindIpc(stubHandlers(calls), (u) => u === APP_URL);
    binding.attach(wc as never);
    const fire = handlers.get(methodChannel('fireRequest'))!;
    const ev = { sender: wc, senderFrame: wc.mainFrame };
    for (const bad of [
      [],
      [{}],
      [{ targetId: 'x', model: '' }],
      [{ targetId: 'x', model: 'm', params: { maxTokens: -1 } }],
      'nope',
      null,
    ]) {
      const r = (await fire(ev, bad)) as { ok: boolean; error: { code: string } };
      expect(r.ok).toBe(false);
      expect(r.error.code).toBe('invalid-arguments');
    }
    const good = (await fire(ev, [{ targetId: 'x', model: 'm', prompt: 'hi' }])) as { ok: boolean };
    expect(good.ok).toBe(true);
    expect(calls).toEqual(['fireRequest:[{"targetId":"x","model":"m","prompt":"hi"}]']);
  });

  it('queues events until the renderer is ready, then delivers them in order', () => {
    const b = bindIpc(stubHandlers([]), (u) => u === APP_URL);
    const wc = fakeContents();
    b.attach(wc as never);
    b.emit('onTargetsChanged', []);
    b.emit('onRequestStarted', { id: 'a' } as never);
    expect(wc.sent).toEqual([]);
    // a ready from a foreign frame is ignored
    listeners.get(READY_CHANNEL)!({
      sender: wc,
      senderFrame: { url: 'https://evil.example/', parent: null },
    });
    expect(wc.sent).toEqual([]);
    listeners.get(READY_CHANNEL)!({ sender: wc, senderFrame: wc.mainFrame });
    expect(wc.sent.map((s) => s[0])).toEqual([
      eventChannel('onTargetsChanged'),
      eventChannel('onRequestStarted'),
    ]);
    b.emit('onRequestFinished', { x: 1 } as never);
    expect(wc.sent.at(-1)).toEqual([eventChannel('onRequestFinished'), { x: 1 }]);
  });
});
