import { afterAll, describe, expect, it, vi } from 'vitest';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';

// Electron's security checklist, checked on the real main.ts with a mocked 'electron' module:
// what the window is created with, and what its handlers do with navigation, popups,
// permissions and headers.
const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-main-'));
vi.mock('electron', () => import('./testing/electron-mock.ts'));
const { electronState: e } = await import('./testing/electron-mock.ts');
e.userData = userData;
const appListeners = e.appListeners;
const wcListeners = e.webContentsListeners;
const created = e.windows;
const opened = e.openedExternal;

const main = await import('./main.ts');
await e.loaded;

afterAll(() => {
  appListeners.get('before-quit')?.();
  fs.rmSync(userData, { recursive: true, force: true });
});

describe('main process security', () => {
  it('creates one window with isolation, sandbox, no Node, no webview', () => {
    expect(e.sandboxEnabled).toBe(true);
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
    expect(e.windowOpenHandler!({ url: 'https://docs.vllm.ai/' })).toEqual({ action: 'deny' });
    expect(e.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://docs.vllm.ai/']); // only https links go to the system browser
  });

  it('denies every permission and sets a strict CSP header', () => {
    let granted: boolean | null = null;
    e.permissionRequest!(null, 'media', (ok) => (granted = ok));
    expect(granted).toBe(false);
    expect(e.permissionCheck!()).toBe(false);
    let headers: Record<string, string[]> = {};
    e.headersHook!(
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
