/**
 * `tokenscope sweep` as a user runs it, over real HTTP against the simulator: the table per step,
 * the sweep file and its run files, --json, and the usage errors (exit 2).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSweepFile } from '../../shared/runs/sweep/file.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';
import { planOf } from '../runs/sweep/plan.ts';

const dir = tmpDir('tokenscope-sweep-cli-');
let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({
    port: 0,
    maxNumSeqs: 4,
    decodeStepMs: 5,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
  });
});
afterAll(async () => {
  await sim.close();
});

const common = ['-n', '12', '--input-len', '8', '--output-len', '6', '--no-server-metrics'];

describe('tokenscope sweep', () => {
  it('--concurrency 1,2,4: a row per step, the knee lines, a valid sweep file with its run files', async () => {
    const out = path.join(dir, 'c.json');
    const r = await runCli(
      ['sweep', '--target', sim.url, '--concurrency', '4,1,2', ...common, '--out', out, '-q'],
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^\s+\d+\s+conc \d+/.test(l));
    expect(rows.map((l) => /conc (\d+)/.exec(l)![1])).toEqual(['1', '2', '4']);
    expect(r.stdout).toMatch(/^step\s+load\s+req\/s/m);
    expect(r.stdout).toMatch(/^Knee \(p99 TTFT vs output tok\/s\): /m);
    expect(r.stdout).toContain(`Sweep file: ${out}`);
    const f = parseSweepFile(JSON.parse(await readFile(out, 'utf8')));
    if (!f.ok) throw new Error(f.error);
    expect(f.value.plan).toMatchObject({ kind: 'concurrency', loads: [4, 1, 2] });
    expect(f.value.steps.map((s) => s.numbers.completed)).toEqual([12, 12, 12]);
    for (const s of f.value.steps) expect(existsSync(path.join(dir, s.runFile!))).toBe(true);
  }, 60_000);

  it('--json: the sweep file as one object, with its path', async () => {
    const out = path.join(dir, 'j.json');
    const r = await runCli(
      ['sweep', '--target', sim.url, '--rate', '20,inf', ...common, '--out', out, '--json'],
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { sweep_file: string; steps: { load: { value: unknown } }[] };
    expect(j.sweep_file).toBe(out);
    expect(j.steps.map((s) => s.load.value)).toEqual([20, 'inf']);
  }, 60_000);

  it('--out in a folder that does not exist yet: the folder is made (as run --out does)', async () => {
    const out = path.join(dir, 'new', 'deeper', 'n.json');
    const r = await runCli(
      ['sweep', '--target', sim.url, '--concurrency', '1', ...common, '--out', out, '-q'],
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const f = parseSweepFile(JSON.parse(await readFile(out, 'utf8')));
    if (!f.ok) throw new Error(f.error);
    expect(existsSync(path.join(path.dirname(out), f.value.steps[0]!.runFile!))).toBe(true);
  }, 60_000);

  it('usage errors exit 2 and say what to do', async () => {
    for (const [args, msg] of [
      [[], /give --concurrency LIST, --rate LIST\|auto, or --slo TERMS/],
      [['--rate', '1,2', '--slo', 'p99_ttft_ms<=5'], /not with --rate/],
      [['--slo', 'p99_ttft<=5'], /--slo "p99_ttft<=5": expected|known are/],
      [['--rate', '1,x'], /--rate: "x" is not a rate/],
      [['--concurrency', '1,2', '--rate', '3'], /one whole number/],
    ] as const) {
      const r = await runCli(['sweep', '--target', sim.url, ...args, '-q'], 20_000);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(msg);
    }
  }, 60_000);

  it('planOf: a single concurrency with --rate or --slo is the cap of every step', () => {
    expect(planOf({ rate: 'auto', concurrency: '8' })).toEqual({
      plan: { kind: 'rate-auto', steps: 5, refine: 4 },
      cap: 8,
    });
    const p = planOf({ slo: 'p99_e2el_ms<=900', search: 'concurrency' });
    expect(typeof p !== 'string' && p.plan).toMatchObject({
      kind: 'slo-search',
      search: 'concurrency',
      maxSteps: 8,
    });
    expect(planOf({ rate: 'auto', refine: 0 })).toEqual({
      plan: { kind: 'rate-auto', steps: 5, refine: 0 },
      cap: undefined,
    });
    expect(planOf({ rate: 'auto', refine: 21 })).toBe('--refine must be from 0 to 20');
    expect(planOf({ concurrency: '2,2,1' })).toEqual({
      plan: { kind: 'concurrency', loads: [2, 1] },
      cap: undefined,
    });
  });
});
