/**
 * The Electron main process: one secure window, the core (engine, embedded simulator, targets)
 * and the IPC binding. Security per Electron's checklist: context isolation, sandbox, no Node in
 * the renderer, a strict CSP, no navigation, no new windows, no permissions, no webviews, and
 * every IPC sender checked (electron/ipc.ts).
 */
import { app, BrowserWindow, safeStorage, session, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createCore, type Core } from './app/core.ts';
import { engineConfigFromEnv } from './engine/engine-config.ts';
import { configureEngine, engineConfig } from './engine/io/io-engine.ts';
import type { SecretBox } from './app/secrets.ts';
import { MemorySecretBox } from './app/secrets.ts';
import { bindIpc, type IpcBinding } from './ipc.ts';
import { limitHeapGrowth } from './platform/heap-growth.ts';
import { runsDir } from './platform/paths.ts';
import { CSP } from '../shared/csp.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererIndex = path.join(here, '../renderer/index.html');
const rendererUrl = pathToFileURL(rendererIndex).toString();

/** safeStorage-backed keys when the OS offers encryption; memory-only otherwise. */
function secretBox(): SecretBox {
  if (!safeStorage.isEncryptionAvailable()) return new MemorySecretBox();
  return {
    canPersist: true,
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (stored) => {
      try {
        return safeStorage.decryptString(Buffer.from(stored, 'base64'));
      } catch {
        return null;
      }
    },
  };
}

export function isAllowedUrl(url: string): boolean {
  return url === rendererUrl || url.startsWith(rendererUrl + '#') || url.startsWith(rendererUrl + '?');
}

let core: Core | null = null;
let ipc: IpcBinding | null = null;

async function createWindow(): Promise<void> {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: 'Tokenscope',
    backgroundColor: '#0f1115',
    show: false,
    webPreferences: {
      preload: path.join(here, '../preload/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      // Middle-click would open links in new windows (electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  ipc!.attach(win.webContents);
  win.once('ready-to-show', () => win.show());
  win.webContents.on('will-navigate', (e, url) => {
    if (!isAllowedUrl(url)) e.preventDefault();
  });
  win.webContents.on('will-redirect', (e) => e.preventDefault());
  win.webContents.on('will-attach-webview', (e) => e.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    // Links to docs open in the user's browser; nothing opens inside the app.
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  await win.loadURL(rendererUrl);
}

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    const w = BrowserWindow.getAllWindows()[0];
    if (w) {
      if (w.isMinimized()) w.restore();
      w.focus();
    }
  });
  await app.whenReady();
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, cb) => {
    cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });

  // The old generation grows to 1.5 × live (platform/heap-growth.ts), the I/O threads' too.
  limitHeapGrowth();
  // The app's engine configuration: the environment's overrides, read once here.
  configureEngine(engineConfigFromEnv(process.env));
  const emitQueue: IpcBinding['emit'] = (event, payload) => ipc?.emit(event, payload);
  core = await createCore({
    mode: 'electron',
    version: app.getVersion(),
    userDataDir: app.getPath('userData'),
    runsDir: runsDir(),
    secrets: secretBox(),
    emit: emitQueue,
    log: (l) => console.error(l),
    historyMaxBytes: engineConfig().historyMaxBytes,
    reveal: (file) => {
      shell.showItemInFolder(file);
      return true;
    },
  });
  ipc = bindIpc(core.handlers, isAllowedUrl);
  await createWindow();

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', () => {
    ipc?.dispose();
    void core?.close();
  });
}

app.enableSandbox();
void start();
