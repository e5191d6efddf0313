import { afterAll, describe, expect, it, vi } from 'vitest';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';

// Electron's security checklist, checked on the real main.ts with a mocked 'electron' module:
// what the window is created with, and what its handlers do with navigation, popups,
// permissions and headers.
const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-main-'));
const appListeners = new Map<string, (...a: unknown[]) => void>();
const wcListeners = new Map<string, (...a: unknown[]) => void>();
const created: { options: Record<string, unknown>; loaded: string[] }[] = [];
let windowOpenHandler: ((d: { url: string }) => { action: string }) | null = null;
let permissionRequest: ((wc: unknown, perm: string, cb: (ok: boolean) => void) => void) | null = null;
let permissionCheck: (() => boolean) | null = null;
let headersHook:
  ((d: { responseHeaders: Record<string, string[]> }, cb: (r: unknown) => void) => void) | null = null;
const opened: string[] = [];
let readyResolve: () => void = () => undefined;
const ready = new Promise<void>((r) => (readyResolve = r));
let sandboxEnabled = false;

vi.mock('electron', () => {
  class BrowserWindow {
    static all: BrowserWindow[] = [];
    static getAllWindows() {
      return BrowserWindow.all;
    }
    webContents = {
      mainFrame: { url: '', parent: null },
      on: (ev: string, fn: (...a: unknown[]) => void) => wcListeners.set(ev, fn),
      setWindowOpenHandler: (fn: (d: { url: string }) => { action: string }) => (windowOpenHandler = fn),
      send: () => undefined,
      isDestroyed: () => false,
    };
    private rec: { options: Record<string, unknown>; loaded: string[] };
    constructor(options: Record<string, unknown>) {
      this.rec = { options, loaded: [] };
      created.push(this.rec);
      BrowserWindow.all.push(this);
    }
    once() {}
    show() {}
    async loadURL(u: string) {
      this.rec.loaded.push(u);
      readyResolve();
    }
  }
  return {
    app: {
      requestSingleInstanceLock: () => true,
      whenReady: async () => undefined,
      on: (ev: string, fn: (...a: unknown[]) => void) => appListeners.set(ev, fn),
      getPath: () => userData,
      getVersion: () => '0.0.0-test',
      enableSandbox: () => (sandboxEnabled = true),
      quit: () => undefined,
    },
    BrowserWindow,
    safeStorage: { isEncryptionAvailable: () => false },
    shell: { openExternal: async (u: string) => opened.push(u) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: typeof permissionRequest) => (permissionRequest = fn),
        setPermissionCheckHandler: (fn: typeof permissionCheck) => (permissionCheck = fn),
        webRequest: { onHeadersReceived: (fn: typeof headersHook) => (headersHook = fn) },
      },
    },
    ipcMain: {
      handle: () => undefined,
      on: () => undefined,
      removeHandler: () => undefined,
      removeListener: () => undefined,
    },
  };
});

const main = await import('./main.ts');
await ready;

afterAll(() => {
  appListeners.get('before-quit')?.();
  fs.rmSync(userData, { recursive: true, force: true });
});

describe('main process security', () => {
  it('creates one window with isolation, sandbox, no Node, no webview', () => {
    expect(sandboxEnabled).toBe(true);
    expect(created).toHaveLength(1);
    const wp = created[0]!.options.webPreferences as Record<string, unknown>;
    expect(wp).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(String(wp.preload)).toMatch(/preload\.cjs$/);
    expect(created[0]!.loaded[0]).toMatch(/^file:.*renderer\/index\.html$/);
  });

  it('denies navigation away, redirects, webviews and new windows', () => {
    let prevented = 0;
    const ev = { preventDefault: () => prevented++ };
    wcListeners.get('will-navigate')!(ev, 'https://evil.example/');
    expect(prevented).toBe(1);
    wcListeners.get('will-navigate')!(ev, created[0]!.loaded[0]);
    expect(prevented).toBe(1); // its own page may reload
    wcListeners.get('will-redirect')!(ev);
    wcListeners.get('will-attach-webview')!(ev);
    expect(prevented).toBe(3);
    expect(windowOpenHandler!({ url: 'https://docs.vllm.ai/' })).toEqual({ action: 'deny' });
    expect(windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://docs.vllm.ai/']); // only https links go to the system browser
  });

  it('denies every permission and sets a strict CSP header', () => {
    let granted: boolean | null = null;
    permissionRequest!(null, 'media', (ok) => (granted = ok));
    expect(granted).toBe(false);
    expect(permissionCheck!()).toBe(false);
    let headers: Record<string, string[]> = {};
    headersHook!(
      { responseHeaders: {} },
      (r) => (headers = (r as { responseHeaders: Record<string, string[]> }).responseHeaders),
    );
    expect(headers['Content-Security-Policy']?.[0]).toContain("script-src 'self'");
    expect(headers['Content-Security-Policy']?.[0]).toContain("object-src 'none'");
  });

  it('only its own page counts as an allowed sender URL', () => {
    expect(main.isAllowedUrl(created[0]!.loaded[0]!)).toBe(true);
    expect(main.isAllowedUrl('https://evil.example/')).toBe(false);
    expect(main.isAllowedUrl('file:///tmp/other.html')).toBe(false);
  });
});
