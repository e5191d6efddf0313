import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_BUNDLE, TOKENSCOPE_VERSION } from '../platform/build-info.ts';
import { tokenscopeHome } from '../platform/paths.ts';
import { startWebServer } from '../serve.ts';
import { writeUnredacted } from './redact-output.ts';
import { errorMessage } from '../../shared/result.ts';

export interface ServeCliOptions {
  port: number;
  host: string;
  noSim?: boolean;
  sim: boolean;
  /** Pin the built-in simulator's port (default: any free port). */
  simPort?: number;
  rebuild?: boolean;
  allowHost?: string[];
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function userDataDir(): string {
  return tokenscopeHome();
}

/**
 * The built UI to serve. The installed CLI (out/cli/tokenscope.js) ships it beside itself
 * (out/renderer, or Resources/renderer inside the desktop app); from a clone it is built on first
 * use or when asked.
 */
function ensureRendererBuilt(force = false): string {
  if (CLI_BUNDLE) {
    const dir = fileURLToPath(new URL('../renderer', import.meta.url));
    if (!fs.existsSync(path.join(dir, 'index.html')))
      throw new Error(`the UI is missing from this install (${dir}); reinstall tokenscope`);
    return dir;
  }
  const dir = path.join(repoRoot, 'out/renderer');
  if (force || !fs.existsSync(path.join(dir, 'index.html'))) {
    process.stderr.write('Building the UI (electron-vite build)…\n');
    const r = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'inherit', 'inherit'],
        // NODE_ENV from the caller (vitest sets `test`) would bundle React's development build.
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    if (r.status !== 0) throw new Error('the UI build failed');
  }
  return dir;
}

export async function runServe(o: ServeCliOptions): Promise<number> {
  if (o.host !== '127.0.0.1' && o.host !== 'localhost' && o.host !== '::1')
    process.stderr.write(
      `warning: binding ${o.host} exposes Tokenscope beyond this machine; the token is the only guard.\n`,
    );
  if (o.simPort !== undefined && !o.sim) {
    process.stderr.write('error: --sim-port sets the built-in simulator’s port: not with --no-sim\n');
    return 2;
  }
  let rendererDir: string;
  try {
    rendererDir = ensureRendererBuilt(o.rebuild === true);
  } catch (e) {
    process.stderr.write(`error: ${errorMessage(e)}\n`);
    return 1;
  }
  // A long-lived server: a promise some handler forgot to catch is logged, and serving goes on.
  process.on('unhandledRejection', (e) => {
    process.stderr.write(`tokenscope serve: unhandled rejection (kept serving): ${String(e)}\n`);
  });
  const start = (port: number) =>
    startWebServer({
      port,
      host: o.host,
      rendererDir,
      userDataDir: userDataDir(),
      version: TOKENSCOPE_VERSION,
      startSimulator: o.sim,
      simPort: o.simPort,
      allowedHosts: o.allowHost ?? [],
      log: (l) => process.stderr.write(l + '\n'),
    });
  let server;
  try {
    server = await start(o.port);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EADDRINUSE') {
      process.stderr.write(`error: could not start web mode: ${errorMessage(e)}\n`);
      return 1;
    }
    process.stderr.write(`Port ${o.port} is in use (another Tokenscope?); using a free port instead.\n`);
    server = await start(0);
  }
  if (o.simPort !== undefined && !server.core.sim) {
    // Asked for on that port and not there (in use?): the reason was logged above.
    process.stderr.write(`error: the built-in simulator could not listen on port ${o.simPort}\n`);
    await server.close();
    return 1;
  }
  // The address to open carries this start's access token: printed as it is (past the CLI's
  // secret filter, which would print `?token=***`): without it the page cannot connect.
  writeUnredacted(`Tokenscope (web mode) is running.\n\n  Open: ${server.openUrl}\n\n`);
  process.stdout.write(
    (server.core.sim ? `  Built-in simulator: ${server.core.sim.url}\n` : '') + 'Ctrl-C to stop.\n',
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await server.close();
  return 0;
}
