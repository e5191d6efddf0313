#!/usr/bin/env node
// `npm start`: the desktop app when Electron is installed; otherwise say so plainly and fall
// back to the headless simulator (web mode once it exists), so the same engine is usable.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  if (process.env.TOKENSCOPE_NO_ELECTRON) return null;
  try {
    const p = require('electron'); // downloads the binary on first use; throws where it cannot
    return typeof p === 'string' ? p : null;
  } catch {
    return null;
  }
}

const electron = electronBinary();
if (electron) {
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const child = spawn(electron, [root], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log('Electron is not installed here (its binary could not be downloaded), so the desktop window');
  console.log('cannot open. Starting the same engine headless instead.\n');
  const args = [path.join(root, 'bin/tokenscope.mjs'), 'serve', ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  const stop = () => child.kill('SIGINT');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
}
