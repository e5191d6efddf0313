/**
 * The report page's template (out/report/template.html), found or — in a clone — built on first
 * use, as web mode builds the UI: `npm install` builds it (`prepare`), but a clone set up before
 * that, or an out/ cleaned since, should still export a report rather than fail. Where it cannot be
 * built (an installed package or app missing it) the answer is a setup error that says so: not the
 * user's input, so never the CLI's "bad usage" exit.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, ok, type Result } from '../../../shared/result.ts';

/**
 * Where the template may be, nearest first: beside a bundle (out/<x>/ → out/report/), then the
 * clone's, seen from a bundle (out/<x>/) or from this source file (electron/runs/export/).
 */
const CANDIDATES = [
  '../report/template.html',
  '../../out/report/template.html',
  '../../../out/report/template.html',
];

function reportTemplatePath(): string | null {
  for (const rel of CANDIDATES) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p)) return p;
  }
  return null;
}

/**
 * The clone this code runs from, if it is one that can build the page: two folders up from
 * out/cli/ or out/main/ (bundles), three from electron/runs/export/ (sources), with the config and
 * vite.
 */
function cloneRoot(): string | null {
  for (const rel of ['../../', '../../../']) {
    const root = fileURLToPath(new URL(rel, import.meta.url));
    const ok =
      existsSync(path.join(root, 'vite.report.config.ts')) &&
      existsSync(path.join(root, 'node_modules/vite/bin/vite.js'));
    if (ok) return root;
  }
  return null;
}

/** `vite build -c vite.report.config.ts` in `root`; its stderr kept for the message. */
function buildIn(root: string): Promise<Result<void>> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '-c',
        'vite.report.config.ts',
        '--logLevel',
        'warn',
      ],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
        // Electron's main process runs this too: its execPath is Electron, which must act as Node.
        // NODE_ENV from the caller (vitest sets `test`) would bundle React's development build.
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', NODE_ENV: 'production' },
      },
    );
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-2000)));
    child.on('error', (e) => resolve(buildFailed(e.message)));
    child.on('close', (code) =>
      resolve(code === 0 ? ok(undefined) : buildFailed(err.trim() || `vite exited ${code}`)),
    );
  });
}

const buildFailed = (why: string): Result<void> =>
  fail({
    kind: 'io',
    code: 'no-template',
    message: `the report page could not be built (\`npm run build:report\`): ${why}`,
  });

let building: Promise<Result<void>> | null = null;

/**
 * The template's path: the one there, else built now from the clone (once per process, however
 * many exports ask at the same time), else a setup error naming what is missing and how to fix it.
 */
export async function ensureReportTemplate(log?: (line: string) => void): Promise<Result<string>> {
  const found = reportTemplatePath();
  if (found) return ok(found);
  const root = cloneRoot();
  if (!root)
    return fail({
      kind: 'io',
      code: 'no-template',
      message:
        'the report page (report/template.html) is missing from this installation, a setup problem: reinstall Tokenscope (in a clone: `npm run build:report`)',
    });
  if (!building) {
    log?.('Building the report page (vite.report.config.ts), once…');
    building = buildIn(root).finally(() => (building = null));
  }
  const built = await building;
  if (!built.ok) return built;
  const p = reportTemplatePath();
  return p
    ? ok(p)
    : fail({ kind: 'io', code: 'no-template', message: 'the report page build wrote no template.html' });
}
