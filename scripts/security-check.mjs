#!/usr/bin/env node
// `npm run security`: Electronegativity over the built app (out/), as a gate. The tool always
// exits 0, so this reads its CSV report and fails on any finding that is not in the reviewed
// list below (each with why it is acceptable). Runs offline: the Electron version is given.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'out');
if (!existsSync(path.join(out, 'main'))) {
  console.error('security-check: build first (npm run build): out/main is missing');
  process.exit(2);
}
const electronVersion = JSON.parse(
  readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8'),
).version;

/** Reviewed findings: check id + file → why it is fine. Anything else fails the gate. */
const REVIEWED = {
  'CSP_GLOBAL_CHECK main/main.js':
    'The CSP is built from shared/csp.ts at runtime (the tool cannot parse a computed string); its content is the one index.html carries, checked below.',
  'CSP_GLOBAL_CHECK renderer/index.html':
    "style-src 'unsafe-inline' (React/recharts set inline style attributes; no inline script is allowed) and connect-src ws:/wss: (web mode's WebSocket to the core); script-src is 'self' only.",
  'PRELOAD_JS_CHECK main/main.js':
    "A review flag for any preload: ours is sandboxed, built as CommonJS, and exposes only the contract's named methods and events (electron/preload.ts; tested in electron/ipc.test.ts).",
  'OPEN_EXTERNAL_JS_CHECK main/main.js':
    'Only https:// URLs from window.open/target=_blank are handed to the OS browser; everything else is denied (electron/main.test.ts).',
};

/** RFC 4180 CSV: quoted cells may hold commas, doubled quotes and newlines. Header row dropped. */
function parseCsv(text) {
  const records = [];
  let cells = [];
  let cur = '';
  let q = false;
  const endCell = () => {
    cells.push(cur.trim());
    cur = '';
  };
  const endRecord = () => {
    endCell();
    if (cells.some((c) => c !== '')) records.push(cells);
    cells = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') q = false;
      else cur += c;
    } else if (c === '"') q = true;
    else if (c === ',') endCell();
    else if (c === '\n') endRecord();
    else if (c !== '\r') cur += c;
  }
  endRecord();
  return records.slice(1).map((cells) => ({
    issue: cells[0],
    severity: cells[1],
    confidence: cells[2],
    file: cells[3],
    location: cells[4],
    description: cells[6],
    wellFormed: cells.length === 8 && /^[A-Z_]+$/.test(cells[0] ?? ''),
  }));
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'tokenscope-eneg-'));
const report = path.join(dir, 'report.csv');
const bin = path.join(root, 'scripts/electronegativity.cjs');
const r = spawnSync(
  process.execPath,
  [bin, '-i', out, '-r', '-e', electronVersion, '-v', 'false', '-o', report],
  {
    cwd: root,
    encoding: 'utf8',
    timeout: 5 * 60_000,
  },
);
if (!existsSync(report)) {
  console.error('security-check: electronegativity wrote no report');
  console.error((r.stdout ?? '').slice(-2000), (r.stderr ?? '').slice(-2000));
  process.exit(2);
}
const findings = parseCsv(readFileSync(report, 'utf8'));
const malformed = findings.filter((f) => !f.wellFormed);
if (malformed.length > 0) {
  console.error(
    `security-check: electronegativity wrote ${malformed.length} malformed report row(s); its report cannot be trusted:`,
  );
  console.error(readFileSync(report, 'utf8'));
  process.exit(2);
}
const unexpected = findings.filter((f) => !REVIEWED[`${f.issue} ${f.file}`]);
for (const f of findings) {
  const why = REVIEWED[`${f.issue} ${f.file}`];
  console.log(
    `${why ? 'reviewed  ' : 'UNEXPECTED'} ${f.issue} ${f.severity}/${f.confidence} ${f.file}:${f.location}${why ? '' : ` — ${f.description}`}`,
  );
}
if (unexpected.length > 0) {
  console.error(
    `security-check: ${unexpected.length} finding(s) not reviewed. Fix them, or add a reviewed entry with the reason.`,
  );
  process.exit(1);
}
console.log(
  `security-check: ${findings.length} finding(s), all reviewed (electronegativity, Electron ${electronVersion}).`,
);
