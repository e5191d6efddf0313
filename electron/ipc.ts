/**
 * Binds the handler table to Electron IPC: one channel per contract method, the sender checked
 * on every call (it must be our window's main frame, showing our own page; VS Code's
 * validatedIpcMain does the same), arguments validated by `dispatch`. Events to the window are
 * queued until the renderer says it is ready, so nothing sent while it loads is lost.
 */
import { ipcMain, type IpcMainInvokeEvent, type WebContents, type WebFrameMain } from 'electron';
import type { ApiEvent, ApiEvents, ApiHandlers, Result } from '../shared/api.ts';
import { METHOD_NAMES, READY_CHANNEL, eventChannel, methodChannel } from '../shared/api-names.ts';
import { dispatch } from './app/handlers.ts';
import { pushBounded } from '../shared/event-queue.ts';

export interface IpcBinding {
  emit<E extends ApiEvent>(event: E, payload: ApiEvents[E]): void;
  attach(contents: WebContents): void;
  dispose(): void;
}

/** True when the frame is the top frame of the attached window and shows an allowed URL. */
function isTrustedSender(
  frame: WebFrameMain | null | undefined,
  contents: WebContents | null,
  isAllowedUrl: (url: string) => boolean,
): boolean {
  if (!frame || !contents) return false;
  if (frame !== contents.mainFrame) return false;
  if (frame.parent !== null) return false;
  return isAllowedUrl(frame.url);
}

export function bindIpc(handlers: ApiHandlers, isAllowedUrl: (url: string) => boolean): IpcBinding {
  let contents: WebContents | null = null;
  let ready = false;
  let queue: [string, unknown][] = [];

  for (const m of METHOD_NAMES) {
    ipcMain.handle(
      methodChannel(m),
      async (e: IpcMainInvokeEvent, args: unknown): Promise<Result<unknown>> => {
        if (!isTrustedSender(e.senderFrame, contents, isAllowedUrl) || e.sender !== contents)
          return {
            ok: false,
            error: {
              kind: 'client',
              code: 'forbidden',
              message: 'IPC from an untrusted frame was rejected.',
            },
          };
        return dispatch(handlers, m, args);
      },
    );
  }
  const onReady = (e: { sender: WebContents; senderFrame: WebFrameMain | null }): void => {
    if (!isTrustedSender(e.senderFrame, contents, isAllowedUrl) || e.sender !== contents) return;
    ready = true;
    for (const [ch, p] of queue) contents!.send(ch, p);
    queue = [];
  };
  ipcMain.on(READY_CHANNEL, onReady);

  return {
    emit(event, payload) {
      const ch = eventChannel(event);
      if (contents && ready && !contents.isDestroyed()) contents.send(ch, payload);
      // Bounded (shared/event-queue.ts): a window that never becomes ready must not grow memory.
      else pushBounded(queue, [ch, payload]);
    },
    attach(c) {
      contents = c;
      ready = false;
      c.on('did-start-navigation', () => (ready = false));
    },
    dispose() {
      for (const m of METHOD_NAMES) ipcMain.removeHandler(methodChannel(m));
      ipcMain.removeListener(READY_CHANNEL, onReady as never);
    },
  };
}
