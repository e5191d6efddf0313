import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./testing/electron-mock.ts'));
const { electronState } = await import('./testing/electron-mock.ts');
const { exposed, invoked, sent } = electronState;

await import('./preload.ts');
const { METHOD_NAMES, methodChannel, READY_CHANNEL } = await import('../shared/api-names.ts');

describe('preload', () => {
  it('exposes exactly the contract methods plus on/ready, never ipcRenderer', async () => {
    const api = exposed.tokenscope!;
    expect(Object.keys(api).sort()).toEqual([...METHOD_NAMES, 'on', 'ready'].sort());
    expect(Object.values(api).every((v) => typeof v === 'function')).toBe(true);
    await (api.listModels as (id: string) => Promise<unknown>)('t1');
    expect(invoked).toEqual([[methodChannel('listModels'), ['t1']]]);
    (api.ready as () => void)();
    expect(sent).toEqual([READY_CHANNEL]);
    expect(() => (api.on as (e: string, cb: () => void) => void)('notAnEvent', () => undefined)).toThrow(
      /unknown event/,
    );
  });
});
