/**
 * The README's setup from a clean tree: a copy of the clone's files without out/, node_modules
 * linked in (npm install cannot reach a fresh one here), then `npm run prepare` as `npm install`
 * runs it. After that alone, a report exports — from the built CLI (`npx tokenscope report`), and
 * from the sources web mode and the app run, which build the page on first use when out/report is
 * gone. An install that lacks the page and cannot build it says so as a setup problem (exit 1, not
 * the exit 2 of bad usage).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../electron/sim/index.ts';
import { repoRoot } from './fixtures.ts';

let tmp = '';
let clone = '';
let sim: SimServer;
let runFile = '';

/** `node ARGS` in `cwd`, to completion; asynchronous, so the simulator in this process can answer. */
function node(args: string[], cwd = clone): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, TOKENSCOPE_HOME: path.join(tmp, 'home'), NODE_ENV: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-setup-'));
  clone = path.join(tmp, 'clone');
  // The files a clone has: tracked ones and new ones not ignored (out/ is ignored), not node_modules.
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: repoRoot,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && f !== 'node_modules' && fs.existsSync(path.join(repoRoot, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(clone, f)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, f), path.join(clone, f));
  }
  expect(fs.existsSync(path.join(clone, 'out'))).toBe(false);
  fs.symlinkSync(fs.realpathSync(path.join(repoRoot, 'node_modules')), path.join(clone, 'node_modules'));
  const prep = spawnSync('npm', ['run', 'prepare'], {
    cwd: clone,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: '' },
  });
  expect(prep.status, prep.stderr).toBe(0);
  sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  runFile = path.join(tmp, 'run.jsonl');
  const run = await node(
    ['out/cli/tokenscope.js', 'run', '--target', sim.url, '-n', '4', '-c', '2'].concat([
      '--output-len',
      '8',
      '--out',
      runFile,
      '-q',
    ]),
  );
  expect(run.code, run.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  await sim?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the README's setup, from a clean tree", () => {
  it('`npm install` (its prepare script) builds the CLI and the report page', () => {
    expect(fs.existsSync(path.join(clone, 'out/cli/tokenscope.js'))).toBe(true);
    expect(fs.existsSync(path.join(clone, 'out/report/template.html'))).toBe(true);
  });

  it('`npx tokenscope report` (the built CLI) exports a report', async () => {
    const out = path.join(tmp, 'cli-report.html');
    const r = await node(['out/cli/tokenscope.js', 'report', runFile, '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toContain('id="tokenscope-report"');
  });

  it(
    'from the sources (web mode, the app) a missing page is built on first use',
    { timeout: 180_000 },
    async () => {
      fs.rmSync(path.join(clone, 'out/report'), { recursive: true, force: true });
      const out = path.join(tmp, 'src-report.html');
      const r = await node(['bin/tokenscope.mjs', 'report', runFile, '-o', out]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('Building the report page');
      expect(fs.existsSync(path.join(clone, 'out/report/template.html'))).toBe(true);
      expect(fs.readFileSync(out, 'utf8')).toContain('id="tokenscope-report"');
    },
  );

  it('an install without the page, away from a clone, is a setup error: exit 1 with what to do', async () => {
    // The CLI bundle alone, as a broken install would have it: nothing beside it, no clone above.
    const pkg = path.join(tmp, 'pkg', 'lib', 'cli');
    fs.cpSync(path.join(clone, 'out/cli'), pkg, { recursive: true });
    const r = await node(
      [path.join(pkg, 'tokenscope.js'), 'report', runFile, '-o', path.join(tmp, 'x.html')],
      tmp,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/report page .*missing from this installation, a setup problem: reinstall/);
    expect(fs.existsSync(path.join(tmp, 'x.html'))).toBe(false);
  });
});
