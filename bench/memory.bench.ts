/**
 * Memory of a long run: the built CLI (out/cli/tokenscope.js, what `npm install -g` installs) runs
 * `tokenscope run -n 4000 -c 256 --output-len 256 --no-server-metrics` (1.02 M chunks) against
 * the simulator in a process of its own; its peak RSS is read with `/usr/bin/time -v` (GNU time)
 * and set beside bare Node's (`node -e 0`), with the run's own self-check (main and I/O loops).
 * Client pinned to CPU 0, simulator to CPU 1 (taskset) when there are two CPUs.
 * `npm run bench -- memory [requests] [tokens]` (builds out/cli first if it is missing).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pin, startSimProcess } from './sim-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIME = '/usr/bin/time';

function maxRssKb(stderr: string): number | null {
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  return m ? Number(m[1]) : null;
}

export async function benchMemory(requests = 4000, tokens = 256): Promise<Record<string, unknown>> {
  if (!fs.existsSync(TIME)) return { note: `not available: ${TIME} (GNU time) is missing` };
  const bundle = path.join(root, 'out/cli/tokenscope.js');
  if (!fs.existsSync(bundle)) {
    const b = spawnSync('npm', ['run', '-s', 'build:cli'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build:cli failed');
  }
  const bare = maxRssKb(spawnSync(TIME, ['-v', process.execPath, '-e', '0']).stderr.toString());
  const sim = await startSimProcess(bundle);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenscope-mem-'));
  try {
    const args = [
      ...pin('0', [process.execPath, bundle]),
      ...['run', '--target', sim.url, '-n', String(requests), '-c', '256'],
      ...['--input-len', '16', '--output-len', String(tokens), '--no-server-metrics'],
      ...['--out', path.join(dir, 'run.jsonl'), '--json', '-q'],
    ];
    const t0 = performance.now();
    const r = spawnSync(TIME, ['-v', ...args], { maxBuffer: 64 * 1024 * 1024 });
    const wallS = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`run exited ${r.status}: ${r.stderr.toString().slice(-500)}`);
    const summary = JSON.parse(r.stdout.toString()) as { self_check?: Record<string, unknown> };
    return {
      command: `tokenscope run -n ${requests} -c 256 --output-len ${tokens} --no-server-metrics (built CLI)`,
      chunks: requests * tokens,
      peakRssMB: Math.round((maxRssKb(r.stderr.toString()) ?? 0) / 1024),
      bareNodeRssMB: Math.round((bare ?? 0) / 1024),
      wallS: Math.round(wallS),
      load: os.loadavg().map((x) => Number(x.toFixed(2))),
      selfCheck: summary.self_check ?? null,
    };
  } finally {
    sim.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [n, t] = process.argv.slice(2).map(Number);
  console.log(JSON.stringify(await benchMemory(n || 4000, t || 256), null, 2));
}
