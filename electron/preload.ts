/**
 * The preload bridge: named methods only, generated from the contract's method list; never
 * ipcRenderer itself (electron/fiddle and VS Code do the same). Runs sandboxed, so it is
 * bundled as CommonJS with nothing but 'electron' external.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  EVENT_NAMES,
  METHOD_NAMES,
  READY_CHANNEL,
  eventChannel,
  methodChannel,
} from '../shared/api-names.ts';

const api: Record<string, unknown> = {};
for (const m of METHOD_NAMES) {
  api[m] = (...args: unknown[]) => ipcRenderer.invoke(methodChannel(m), args);
}
api.on = (event: string, cb: (payload: unknown) => void): (() => void) => {
  if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`unknown event ${event}`);
  const listener = (_e: IpcRendererEvent, payload: unknown): void => cb(payload);
  ipcRenderer.on(eventChannel(event), listener);
  return () => ipcRenderer.removeListener(eventChannel(event), listener);
};
api.ready = (): void => ipcRenderer.send(READY_CHANNEL);

contextBridge.exposeInMainWorld('tokenscope', api);
