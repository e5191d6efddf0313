/// <reference lib="dom" />
// The package as a user gets it: `npm pack` (after `npm run build`), `npm install -g` of the
// tarball into an empty prefix, and every command run from that prefix, away from the clone
// (cwd and HOME in a temp folder, no tsx, no node_modules beside it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { launch, repoRoot, shot, simModelReady } from './fixtures.ts';

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  version: string;
  dependencies?: Record<string, string>;
};
let tmp = '';
let prefix = '';
let bin = '';
let env: NodeJS.ProcessEnv = {};
let packed: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };
const children: ChildProcess[] = [];
let browser: Browser | undefined;

function npm(args: string[], cwd: string): string {
  const r = spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_yes: 'true' },
  });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return r.stdout;
}

/** The installed `tokenscope`, run to completion. */
function ts(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(bin, args, { cwd: tmp, env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The installed `tokenscope` as a long-lived process; resolves with its output once `ready` matches. */
function tsServer(args: string[], ready: RegExp): Promise<string> {
  const child = spawn(bin, args, { cwd: tmp, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited (${code}): ${out}`)));
  });
}

beforeAll(() => {
  for (const f of ['out/cli/tokenscope.js', 'out/renderer/index.html'])
    if (!fs.existsSync(path.join(repoRoot, f))) throw new Error(`${f} missing: run \`npm run build\` first`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-install-'));
  prefix = path.join(tmp, 'prefix');
  // --ignore-scripts: `npm test` has just built out/ (prepack would build it again).
  const list = JSON.parse(
    npm(['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], repoRoot),
  ) as (typeof packed)[] | undefined;
  if (!list?.[0]) throw new Error('npm pack --json printed no package');
  packed = list[0];
  npm(['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', path.join(tmp, packed.filename)], tmp);
  bin = path.join(prefix, 'bin', 'tokenscope');
  env = {
    PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: tmp,
    TOKENSCOPE_HOME: path.join(tmp, 'home'),
  };
}, 180_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGINT');
  await Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)),
  );
  await browser?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the packed package, installed globally into an empty prefix', () => {
  it('holds the built CLI, the UI, README and LICENSE, and no sources or dependencies', () => {
    const files = packed.files.map((f) => f.path);
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'out/cli/tokenscope.js',
      'out/cli/io-worker.js',
      'out/report/template.html',
    ])
      expect(files).toContain(f);
    expect(files.some((f) => /^out\/renderer\/assets\/.*\.js$/.test(f))).toBe(true);
    // npm always packs the file `main` names (the desktop app's entry), alone; nothing else of it.
    expect(
      files.filter((f) => f.endsWith('.ts') || f.startsWith('electron/') || f.startsWith('out/main/')),
    ).toEqual(['out/main/main.js']);
    expect(pkg.dependencies ?? {}).toEqual({});
    const installed = path.join(prefix, 'lib', 'node_modules', 'tokenscope');
    expect(fs.existsSync(path.join(installed, 'out/cli/tokenscope.js'))).toBe(true);
    expect(fs.existsSync(path.join(installed, 'node_modules'))).toBe(false);
    expect(packed.size).toBeLessThan(2_000_000);
  });

  it('--version, and a usage error exits 2', () => {
    const v = ts(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const bad = ts(['run', '--concurrency', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/concurrency/);
  });

  it('sim, probe, run, metrics, compare and report work from the install', async () => {
    const out = await tsServer(['sim', '--port', '0', '--quiet', '--decode-step-ms', '2'], /listening on/);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? '';
    expect(url).not.toBe('');

    const probe = ts(['probe', url, '--json', '--max-tokens', '16']);
    expect(probe.code, probe.stderr).toBe(0);
    const p = JSON.parse(probe.stdout) as { status: number; ttftMs: number; outputTokens: number };
    expect(p.status).toBe(200);
    expect(p.ttftMs).toBeGreaterThan(0);
    expect(p.outputTokens).toBe(16);

    const runs = ['a', 'b'].map((name) => {
      const file = path.join(tmp, `${name}.jsonl`);
      const r = ts([
        'run',
        '--target',
        url,
        '-n',
        '12',
        '-c',
        '3',
        '--output-len',
        '8',
        '--out',
        file,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as { completed: number; failed: number; total_output_tokens: number };
      expect(j.completed).toBe(12);
      expect(j.failed).toBe(0);
      expect(j.total_output_tokens).toBe(12 * 8);
      expect(fs.existsSync(file)).toBe(true);
      return file;
    });

    const metrics = ts(['metrics', url, '--json']);
    expect(metrics.code, metrics.stderr).toBe(0);
    expect((JSON.parse(metrics.stdout) as { profile: { id: string } }).profile.id).toBe('vllm-v1');

    const compare = ts(['compare', ...runs, '--json']);
    expect(compare.code, compare.stderr).toBe(0);
    expect((JSON.parse(compare.stdout) as { runs: unknown[] }).runs).toHaveLength(2);

    // The report page ships beside the CLI (out/report/): the installed CLI fills it.
    const reportFile = path.join(tmp, 'report.html');
    const report = ts(['report', ...runs, '-o', reportFile]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/2 runs and their comparison/);
    const html = fs.readFileSync(reportFile, 'utf8');
    expect(html).toMatch(
      /<script type="application\/json" id="tokenscope-report">\s*\{"format":"tokenscope-report"/,
    );
    expect(html).not.toContain('__TOKENSCOPE_REPORT_DATA__');
  });

  it('serve opens the UI it ships (Chromium on the printed address)', async () => {
    const out = await tsServer(['serve', '--port', '0'], /Ctrl-C to stop/);
    const url = /Open: (\S+)/.exec(out)?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    browser = await launch();
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await simModelReady(page);
    await shot(page, 'installed-serve');
    expect(await page.title()).toMatch(/Tokenscope/);
    expect(errors).toEqual([]);
  });
});

describe('the CLI inside the desktop app (electron-builder.yml extraResources)', () => {
  it("the launcher, linked onto the PATH, runs the bundled CLI with the app's Electron as Node", () => {
    // Linux's layout, built from the packaging config itself: <install>/tokenscope (Electron) and
    // <install>/resources/<to> for every extraResources entry.
    const install = path.join(tmp, 'opt-tokenscope');
    const resources = path.join(install, 'resources');
    const config = parseYaml(fs.readFileSync(path.join(repoRoot, 'electron-builder.yml'), 'utf8')) as {
      extraResources: { from: string; to: string }[];
      linux: { executableName: string };
    };
    for (const { from, to } of config.extraResources)
      fs.cpSync(path.join(repoRoot, from), path.join(resources, to), { recursive: true });
    // A stand-in for the app's Electron binary: what it must do with ELECTRON_RUN_AS_NODE=1 is run Node.
    const electron = path.join(install, config.linux.executableName);
    fs.writeFileSync(
      electron,
      `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo "started as an app, not as Node" >&2; exit 9; }\nexec "${process.execPath}" "$@"\n`,
      { mode: 0o755 },
    );
    const pathDir = path.join(tmp, 'usr-local-bin');
    fs.mkdirSync(pathDir);
    fs.symlinkSync(path.join(resources, 'cli', 'tokenscope'), path.join(pathDir, 'tokenscope'));
    expect(fs.existsSync(path.join(resources, 'cli', 'tokenscope.cmd'))).toBe(true);
    expect(fs.existsSync(path.join(resources, 'renderer', 'index.html'))).toBe(true);

    const run = (args: string[]) =>
      spawnSync(path.join(pathDir, 'tokenscope'), args, {
        cwd: tmp,
        encoding: 'utf8',
        env: { PATH: '/usr/bin:/bin' },
      });
    const v = run(['--version']);
    expect(v.stderr).toBe('');
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const help = run(['run', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--concurrency/);
  });
});
