/**
 * Does building prompts delay the schedule? The built CLI (out/cli/tokenscope.js) runs 10,000
 * requests at a fixed rate against the simulator three ways: plain synthetic prompts, shared
 * prefix groups (100 groups × 1,024 tokens before each request's input) and cache busting (twelve
 * CSPRNG words per request) and images (2 PNGs of 64×64, or 1 of 256×256, a request), and plain
 * once more as the control; each run's own self-check gives the schedule lag (how late arrivals
 * were released against their schedule). The figure is each workload's lag p99 minus the plain
 * run's in the same repeat (target: within 1 ms), over the whole run and over the arrivals
 * scheduled from the fifth second on: the first seconds are the process's cold start (code not yet
 * optimized, the connection pool filling), the same for every workload. Repeats alternate the order;
 * the report gives each workload's median difference over repeats, and the control's (plain against
 * plain) differences: the noise floor of the measure on this machine; and the p99 of all repeats'
 * arrivals pooled (repeats × requests lags per workload) against plain's pooled the same way. Client pinned to
 * CPU 0, simulator to CPU 1 (taskset) when there are two CPUs.
 * `npm run bench -- prompts [requests] [rate] [repeats]` (builds out/cli first if it is missing).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pin, startSimProcess } from './sim-process.ts';
import { percentileSorted, sortedCopy } from '../shared/stats/summary.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const CASES: Record<string, string[]> = {
  plain: [],
  'prefix groups': ['--prefix-groups', '100', '--prefix-len', '1024'],
  'cache bust': ['--cache-bust'],
  // Images (workload `images`): encoded once before the clock, shared by every request; the body
  // (base64 in JSON) is assembled per request as it is sent.
  'images 2×64²': ['--images', '2', '--image-size', '64x64'],
  'images 1×256²': ['--images', '1', '--image-size', '256x256'],
  // The control: plain once more, at the other end of the repeat. Its difference to the first
  // plain run is what the measure moves by with nothing changed (the machine's noise), the floor
  // under which no workload's difference means anything.
  'plain again': [],
};

/** The q-th percentile of `v` (null when empty). */
const quantile = (v: number[], q: number): number | null =>
  v.length ? percentileSorted(sortedCopy(v), q) : null;

/** Arrivals scheduled before this (the run's first seconds, code not yet optimized) are the cold start. */
const STEADY_AFTER_MS = 5000;

interface CaseRun {
  lagP99Ms: number | null;
  /** Lag p99 of the arrivals scheduled from STEADY_AFTER_MS on, and of those before (run file's lagMs). */
  steadyLagP99Ms: number | null;
  coldLagP99Ms: number | null;
  mainEldP99Ms: number | null;
  completed: number;
  /** Every arrival's lag (ms), and those scheduled from STEADY_AFTER_MS on: pooled over repeats. */
  lags: number[];
  steadyLags: number[];
}

function runCase(bundle: string, url: string, extra: string[], requests: number, rate: number): CaseRun {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenscope-prompts-'));
  try {
    const args = [
      ...pin('0', [process.execPath, bundle]),
      ...['run', '--target', url, '-n', String(requests), '-r', String(rate), '--seed', '3'],
      ...['--input-len', '64', '--output-len', '4', '--no-server-metrics', '--no-test-request'],
      ...extra,
      ...['--out', path.join(dir, 'run.jsonl'), '--json', '-q'],
    ];
    const r = spawnSync(args[0]!, args.slice(1), { maxBuffer: 256 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`run exited ${r.status}: ${r.stderr.toString().slice(-500)}`);
    const s = JSON.parse(r.stdout.toString()) as {
      completed?: number;
      self_check?: { scheduleLagP99Ms?: number; eventLoopDelayP99Ms?: number };
    };
    const steady: number[] = [];
    const cold: number[] = [];
    for (const l of fs.readFileSync(path.join(dir, 'run.jsonl'), 'utf8').split('\n')) {
      if (!l.includes('"lagMs"')) continue;
      const o = JSON.parse(l) as { scheduledMs?: number; lagMs?: number };
      if (typeof o.lagMs !== 'number' || typeof o.scheduledMs !== 'number') continue;
      (o.scheduledMs >= STEADY_AFTER_MS ? steady : cold).push(o.lagMs);
    }
    return {
      lagP99Ms: s.self_check?.scheduleLagP99Ms ?? null,
      steadyLagP99Ms: quantile(steady, 99),
      coldLagP99Ms: quantile(cold, 99),
      mainEldP99Ms: s.self_check?.eventLoopDelayP99Ms ?? null,
      completed: s.completed ?? 0,
      lags: [...cold, ...steady],
      steadyLags: steady,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchPromptSchedule(
  requests = 10_000,
  rate = 500,
  repeats = 3,
): Promise<Record<string, unknown>> {
  const bundle = path.join(root, 'out/cli/tokenscope.js');
  if (!fs.existsSync(bundle)) {
    const b = spawnSync('npm', ['run', '-s', 'build:cli'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build:cli failed');
  }
  const sim = await startSimProcess(bundle);
  const rows: Record<string, unknown>[] = [];
  const pooled = new Map<string, { all: number[]; steady: number[] }>();
  try {
    for (let rep = 1; rep <= repeats; rep++) {
      const names = Object.keys(CASES);
      const order = rep % 2 === 1 ? names : [...names].reverse();
      const got: Record<string, CaseRun> = {};
      for (const name of order) {
        process.stderr.write(`  prompts · repeat ${rep}/${repeats} · ${name} …\n`);
        const g = (got[name] = runCase(bundle, sim.url, CASES[name]!, requests, rate));
        const p = pooled.get(name) ?? { all: [], steady: [] };
        for (const x of g.lags) p.all.push(x);
        for (const x of g.steadyLags) p.steady.push(x);
        pooled.set(name, p);
      }
      const plain = got.plain!;
      const over = (a: number | null, b: number | null): number | null =>
        a !== null && b !== null ? Number((a - b).toFixed(3)) : null;
      for (const name of names) {
        const g = got[name]!;
        const row = {
          repeat: rep,
          workload: name,
          completed: g.completed,
          scheduleLagP99Ms: g.lagP99Ms,
          overPlainMs: over(g.lagP99Ms, plain.lagP99Ms),
          steadyLagP99Ms: g.steadyLagP99Ms,
          steadyOverPlainMs: over(g.steadyLagP99Ms, plain.steadyLagP99Ms),
          coldLagP99Ms: g.coldLagP99Ms,
          mainLoopDelayP99Ms: g.mainEldP99Ms,
        };
        rows.push(row);
        const ms = (v: number | null): string => (v === null ? '–' : v.toFixed(3)).padStart(8);
        process.stderr.write(
          `    ${name.padEnd(14)} lag p99 ${ms(g.lagP99Ms)} ms  − plain ${ms(row.overPlainMs)} ms` +
            ` · from ${STEADY_AFTER_MS / 1000} s on ${ms(g.steadyLagP99Ms)} ms  − plain ${ms(row.steadyOverPlainMs)} ms` +
            ` · before ${ms(g.coldLagP99Ms)} ms  (${g.completed} done)\n`,
        );
      }
    }
  } finally {
    sim.stop();
  }
  // Per workload, the median over repeats of its difference to plain; and the control's spread.
  const median = (v: number[]): number | null => quantile(v, 50);
  const overOf = (name: string, key: 'overPlainMs' | 'steadyOverPlainMs'): number[] =>
    rows.filter((r) => r.workload === name && typeof r[key] === 'number').map((r) => r[key] as number);
  const medians = Object.fromEntries(
    Object.keys(CASES)
      .filter((n) => n !== 'plain')
      .map((n) => [
        n,
        {
          overPlainMs: median(overOf(n, 'overPlainMs')),
          steadyOverPlainMs: median(overOf(n, 'steadyOverPlainMs')),
        },
      ]),
  );
  const noise = overOf('plain again', 'overPlainMs').map(Math.abs);
  // Per workload, the p99 of every arrival of all its repeats together (repeats × requests lags):
  // steadier than a median of per-run p99s, each of which rests on its run's worst 1 %.
  const plainPooled = pooled.get('plain');
  const plainAll = plainPooled ? quantile(plainPooled.all, 99) : null;
  const plainSteady = plainPooled ? quantile(plainPooled.steady, 99) : null;
  const pooledP99 = Object.fromEntries(
    Object.keys(CASES).map((n) => {
      const p = pooled.get(n);
      const all = p ? quantile(p.all, 99) : null;
      const steady = p ? quantile(p.steady, 99) : null;
      const r3 = (v: number | null): number | null => (v === null ? null : Number(v.toFixed(3)));
      return [
        n,
        {
          lagP99Ms: r3(all),
          overPlainMs: all !== null && plainAll !== null ? r3(all - plainAll) : null,
          steadyLagP99Ms: r3(steady),
          steadyOverPlainMs: steady !== null && plainSteady !== null ? r3(steady - plainSteady) : null,
        },
      ];
    }),
  );
  process.stderr.write(
    `  pooled over repeats, lag p99 − plain's: ${Object.entries(pooledP99)
      .filter(([n]) => n !== 'plain')
      .map(
        ([n, m]) =>
          `${n} ${m.overPlainMs?.toFixed(2)} ms (from ${STEADY_AFTER_MS / 1000} s on ${m.steadyOverPlainMs?.toFixed(2) ?? '–'})`,
      )
      .join(' · ')}\n`,
  );
  process.stderr.write(
    `  median over plain: ${Object.entries(medians)
      .map(([n, m]) => `${n} ${m.overPlainMs?.toFixed(2)} ms`)
      .join(
        ' · ',
      )}; plain vs plain |difference| up to ${noise.length ? Math.max(...noise).toFixed(2) : '–'} ms\n`,
  );
  return {
    command: `tokenscope run -n ${requests} -r ${rate} --input-len 64 --output-len 4 [--prefix-groups 100 --prefix-len 1024 | --cache-bust | --images 2 --image-size 64x64 | --images 1 --image-size 256x256] (built CLI)`,
    load: os.loadavg().map((x) => Number(x.toFixed(2))),
    rows,
    medianOverPlainMs: medians,
    plainVsPlainAbsMs: noise,
    pooledP99: pooledP99,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [n, r, k] = process.argv.slice(2).map(Number);
  console.log(JSON.stringify(await benchPromptSchedule(n || 10_000, r || 500, k || 3), null, 2));
}
