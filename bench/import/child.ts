/**
 * One import in a fresh process, so its peak RSS is the import's own: `node bin/run-ts.mjs
 * bench/import/child.ts <mode> <file>`; prints one JSON line. Modes:
 * - `importFile`: the product's path (web mode's upload lands in a file), then the listing;
 * - `open`: the same, then the run opened with every request (what the UI shows next);
 * - `json-parse`: the whole text read and JSON.parse'd (NaN made parseable) — what any import that
 *   keeps the whole document costs at least, the reference.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunService } from '../../electron/app/runs-service.ts';

const [mode, file] = process.argv.slice(2);
const baseKb = process.resourceUsage().maxRSS;
const t0 = performance.now();
let requests = 0;
if (mode === 'importFile' || mode === 'open') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-import-bench-'));
  const runs = new RunService(
    dir,
    () => undefined,
    () => null,
    { version: 'bench' },
  );
  const r = await runs.importFile(path.basename(file!), file!);
  const list = await runs.list(); // what the app does next: served from the cache
  requests = list.runs[0]?.completed ?? 0;
  if (mode === 'open') {
    const d = await runs.open(r.keys[0]!);
    requests = d.outcomes?.length ?? 0;
  }
  fs.rmSync(dir, { recursive: true, force: true });
} else {
  const text = fs.readFileSync(file!, 'utf8').replace(/\bNaN\b/g, 'null');
  const o = JSON.parse(text) as { ttfts: unknown[] };
  requests = o.ttfts.length;
}
const ms = performance.now() - t0;
console.log(JSON.stringify({ mode, requests, ms, baseKb, peakKb: process.resourceUsage().maxRSS }));
