/**
 * How fast the installed CLI answers: `tokenscope --help` and `--version` from the built bundle
 * (out/cli/tokenscope.js, what `npm install -g` puts on the PATH), side by side with `node -e 0`
 * and with the from-source launcher (bin/tokenscope.mjs, tsx) in the same run. Runs alternate so
 * machine noise hits all alike; the portable figure is the ratio to `node -e 0`.
 * `npm run bench -- cli [rounds]` (builds out/cli first if it is missing).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Case {
  name: string;
  args: string[];
}

function timeOnce(c: Case): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, c.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr.toString().slice(0, 300)}`);
  return ms;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function benchCliStartup(rounds = 30): Record<string, unknown> {
  const bundle = path.join(root, 'out/cli/tokenscope.js');
  if (!fs.existsSync(bundle)) {
    const b = spawnSync('npm', ['run', '-s', 'build:cli'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build:cli failed');
  }
  const cases: Case[] = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: 'tokenscope --help (bundle)', args: [bundle, '--help'] },
    { name: 'tokenscope --version (bundle)', args: [bundle, '--version'] },
    { name: 'tokenscope run --help (bundle)', args: [bundle, 'run', '--help'] },
    { name: 'tokenscope --help (source, tsx)', args: [path.join(root, 'bin/tokenscope.mjs'), '--help'] },
  ];
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (const c of cases) timeOnce(c); // warm the file cache
  for (let i = 0; i < rounds; i++) for (const c of cases) samples.get(c.name)!.push(timeOnce(c));
  const baseline = [...samples.get('node -e 0')!].sort((a, b) => a - b);
  const base = quantile(baseline, 0.5);
  const rows = cases.map((c) => {
    const s = [...samples.get(c.name)!].sort((a, b) => a - b);
    const median = quantile(s, 0.5);
    return {
      case: c.name,
      medianMs: +median.toFixed(1),
      p90Ms: +quantile(s, 0.9).toFixed(1),
      minMs: +s[0]!.toFixed(1),
      ratioToNode: +(median / base).toFixed(2),
      overNodeMs: +(median - base).toFixed(1),
    };
  });
  process.stderr.write(
    `CLI start-up, ${rounds} alternating rounds (median · p90 · min · × node -e 0 · over node)\n` +
      rows
        .map(
          (r) =>
            `  ${r.case.padEnd(34)} ${String(r.medianMs).padStart(7)} ms ${String(r.p90Ms).padStart(7)} ms ${String(r.minMs).padStart(7)} ms  ×${r.ratioToNode}  +${r.overNodeMs} ms`,
        )
        .join('\n') +
      '\n',
  );
  return { rounds, rows };
}
