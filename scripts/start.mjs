#!/usr/bin/env node
// `npm start`: the desktop app when Electron is installed; otherwise say so plainly and fall
// back to the headless simulator (web mode once it exists), so the same engine is usable.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Electron binary's path; on first use `require('electron')` downloads it, which may fail. */
function electronBinary() {
  if (process.env.TOKENSCOPE_NO_ELECTRON) return { path: null, why: 'TOKENSCOPE_NO_ELECTRON is set' };
  const r = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: root,
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  if (r.status === 0 && r.stdout) return { path: r.stdout.trim(), why: null };
  const lines = `${r.stderr ?? ''}`.split('\n').filter((l) => /error|failed/i.test(l));
  return { path: null, why: lines[0]?.trim() ?? 'the electron package is not installed' };
}

const { path: electron, why } = electronBinary();
if (electron) {
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  const child = spawn(electron, [root], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(`Electron is not available here (${why}), so the desktop window cannot open.`);
  console.log('Starting the same app in web mode instead: open the URL below in a browser.\n');
  const args = [path.join(root, 'bin/tokenscope.mjs'), 'serve', ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  const stop = () => child.kill('SIGINT');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
}
