/**
 * E2E fixtures: the app in web mode (in-process, temp user-data folder, its embedded simulator)
 * and Debian's Chromium driven by playwright-core. Tests wait on app state, never on sleeps.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startWebServer, type ServeOptions, type WebServer } from '../electron/serve.ts';

export const repoRoot = path.resolve(
  import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname),
  '..',
);
export const artifactsDir = path.join(repoRoot, 'test-artifacts');
const PACKAGE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }
).version;

function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found)
    throw new Error(
      "Chromium not found: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.",
    );
  return found;
}

export async function startApp(
  opts: {
    version?: string;
    startSimulator?: boolean;
    log?: (line: string) => void;
    /** The embedded simulator's options (e.g. speculative mode). */
    sim?: ServeOptions['sim'];
  } = {},
): Promise<{ server: WebServer; userData: string }> {
  const rendererDir = path.join(repoRoot, 'out/renderer');
  if (!fs.existsSync(path.join(rendererDir, 'index.html')))
    throw new Error('out/renderer missing: run `npm run build` first (npm test does).');
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenscope-e2e-'));
  const server = await startWebServer({
    port: 0,
    rendererDir,
    userDataDir: userData,
    // The real version, as a user sees it (README screenshots come from these runs).
    version: opts.version ?? PACKAGE_VERSION,
    startSimulator: opts.startSimulator ?? true,
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.sim ? { sim: opts.sim } : {}),
  });
  return { server, userData };
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-quic',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/**
 * A 1440×900 page on the app, collecting console errors and uncaught exceptions into
 * `consoleErrors` (each suite ends by asserting there were none).
 */
async function openPage(
  browser: Browser,
  server: WebServer,
  consoleErrors: string[],
  opts: { acceptDownloads?: boolean } = {},
): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    ...(opts.acceptDownloads ? { acceptDownloads: true } : {}),
  });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(server.openUrl);
  return page;
}

/** Until the model list under `scope` (a CSS selector; '' for the composer's) shows the simulator's model. */
export async function simModelReady(page: Page, scope = ''): Promise<void> {
  await page.waitForFunction((sel) => {
    const s = document.querySelector<HTMLSelectElement>(sel);
    return s !== null && s.value === 'tokenscope-sim';
  }, `${scope} [data-testid="model-select"]`.trim());
}

export interface OpenApp {
  server: WebServer;
  userData: string;
  browser: Browser;
  page: Page;
}

/** The app in web mode and a Chromium page on it (console errors into `consoleErrors`). */
export async function openApp(
  consoleErrors: string[],
  opts: { acceptDownloads?: boolean; sim?: ServeOptions['sim'] } = {},
): Promise<OpenApp> {
  const { server, userData } = await startApp(opts.sim ? { sim: opts.sim } : {});
  const browser = await launch();
  const page = await openPage(browser, server, consoleErrors, opts);
  return { server, userData, browser, page };
}

/** Closes what openApp opened (whatever of it exists) and removes its user-data folder. */
export async function closeApp(app: Partial<OpenApp> | undefined): Promise<void> {
  await app?.browser?.close();
  await app?.server?.close();
  if (app?.userData) fs.rmSync(app.userData, { recursive: true, force: true });
}
