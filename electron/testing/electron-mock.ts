/**
 * The one stand-in for the 'electron' module in tests (Electron cannot run here, and requiring it
 * in plain Node tries a download). It records what the code under test hands to Electron —
 * exposed APIs, IPC handlers and listeners, windows and their handlers, session hooks — in
 * `electronState`, for the test to inspect and call. Use:
 *
 *   vi.mock('electron', () => import('./testing/electron-mock.ts'));
 *   const { electronState } = await import('./testing/electron-mock.ts');
 */

type Fn = (...a: unknown[]) => unknown;

export interface WindowRecord {
  options: Record<string, unknown>;
  loaded: string[];
}

export const electronState = {
  // preload side
  exposed: {} as Record<string, Record<string, unknown>>,
  invoked: [] as [string, unknown][],
  sent: [] as string[],
  /** What ipcRenderer.invoke answers (default: a successful null). */
  invokeAnswer: (async () => ({ ok: true, value: null })) as (ch: string, args: unknown) => Promise<unknown>,
  // main side: IPC
  handlers: new Map<string, (e: unknown, args: unknown) => Promise<unknown>>(),
  listeners: new Map<string, Fn>(),
  // main side: app, windows, session
  userData: '',
  appListeners: new Map<string, Fn>(),
  sandboxEnabled: false,
  windows: [] as WindowRecord[],
  webContentsListeners: new Map<string, Fn>(),
  windowOpenHandler: null as ((d: { url: string }) => { action: string }) | null,
  permissionRequest: null as ((wc: unknown, perm: string, cb: (ok: boolean) => void) => void) | null,
  permissionCheck: null as (() => boolean) | null,
  headersHook: null as
    ((d: { responseHeaders: Record<string, string[]> }, cb: (r: unknown) => void) => void) | null,
  openedExternal: [] as string[],
  /** Resolves when a window has loaded its page. */
  loaded: null as Promise<void> | null,
};

let loadedResolve: () => void = () => undefined;
electronState.loaded = new Promise<void>((r) => (loadedResolve = r));

export const contextBridge = {
  exposeInMainWorld: (k: string, v: Record<string, unknown>): void => {
    electronState.exposed[k] = v;
  },
};

export const ipcRenderer = {
  invoke: async (ch: string, args: unknown): Promise<unknown> => {
    electronState.invoked.push([ch, args]);
    return electronState.invokeAnswer(ch, args);
  },
  on: (): void => undefined,
  removeListener: (): void => undefined,
  send: (ch: string): void => {
    electronState.sent.push(ch);
  },
};

export const ipcMain = {
  handle: (ch: string, fn: (e: unknown, args: unknown) => Promise<unknown>): void => {
    if (electronState.handlers.has(ch)) throw new Error(`second handler for ${ch}`);
    electronState.handlers.set(ch, fn);
  },
  removeHandler: (ch: string): void => {
    electronState.handlers.delete(ch);
  },
  on: (ch: string, fn: Fn): void => {
    electronState.listeners.set(ch, fn);
  },
  removeListener: (ch: string): void => {
    electronState.listeners.delete(ch);
  },
};

export class BrowserWindow {
  static all: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.all;
  }
  webContents = {
    mainFrame: { url: '', parent: null },
    on: (ev: string, fn: Fn): void => {
      electronState.webContentsListeners.set(ev, fn);
    },
    setWindowOpenHandler: (fn: (d: { url: string }) => { action: string }): void => {
      electronState.windowOpenHandler = fn;
    },
    send: (): void => undefined,
    isDestroyed: (): boolean => false,
  };
  private rec: WindowRecord;
  constructor(options: Record<string, unknown>) {
    this.rec = { options, loaded: [] };
    electronState.windows.push(this.rec);
    BrowserWindow.all.push(this);
  }
  once(): void {}
  show(): void {}
  async loadURL(u: string): Promise<void> {
    this.rec.loaded.push(u);
    loadedResolve();
  }
}

export const app = {
  requestSingleInstanceLock: (): boolean => true,
  whenReady: async (): Promise<void> => undefined,
  on: (ev: string, fn: Fn): void => {
    electronState.appListeners.set(ev, fn);
  },
  getPath: (): string => electronState.userData,
  getVersion: (): string => '0.0.0-test',
  enableSandbox: (): void => {
    electronState.sandboxEnabled = true;
  },
  quit: (): void => undefined,
};

export const safeStorage = { isEncryptionAvailable: (): boolean => false };

export const shell = {
  openExternal: async (u: string): Promise<void> => {
    electronState.openedExternal.push(u);
  },
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (fn: typeof electronState.permissionRequest): void => {
      electronState.permissionRequest = fn;
    },
    setPermissionCheckHandler: (fn: typeof electronState.permissionCheck): void => {
      electronState.permissionCheck = fn;
    },
    webRequest: {
      onHeadersReceived: (fn: typeof electronState.headersHook): void => {
        electronState.headersHook = fn;
      },
    },
  },
};
