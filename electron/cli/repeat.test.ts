/**
 * `tokenscope run --repeat N` as a user runs it: the same workload N times on one server, then
 * on two (pooled per server and compared), over real HTTP against the simulator.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.ts';
import { readRunFile } from '../runs/files/run-file.ts';
import { tmpDir } from '../testing/runs.ts';
import { startSim, type SimServer } from '../sim/index.ts';

const dir = tmpDir('tokenscope-repeat-');
let fast: SimServer;
let slow: SimServer;

beforeAll(async () => {
  fast = await startSim({ port: 0, decodeStepMs: 5, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  slow = await startSim({ port: 0, decodeStepMs: 15, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});

afterAll(async () => {
  await fast.close();
  await slow.close();
});

const common = ['-n', '8', '-c', '4', '--input-len', '8', '--output-len', '12', '--no-server-metrics'];

describe('tokenscope run --repeat', () => {
  it('runs N times, one file each tied by a group id, then the spread and the pooled summary', async () => {
    const out = path.join(dir, 'one.jsonl');
    const r = await runCli(
      ['run', '--target', fast.url, ...common, '--repeat', '3', '--name', 'rep', '--out', out, '-q'],
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const files = [1, 2, 3].map((k) => path.join(dir, `one.r${k}.jsonl`));
    const groups = new Set<string>();
    for (const [i, f] of files.entries()) {
      expect(existsSync(f), f).toBe(true);
      const run = await readRunFile(f);
      if (!run.ok) throw new Error(run.error);
      expect(run.value.header.name).toBe(`rep · repeat ${i + 1}/3`);
      expect(run.value.header.repeat).toMatchObject({ index: i + 1, of: 3 });
      groups.add(run.value.header.repeat!.group);
    }
    expect(groups.size).toBe(1);
    expect(r.stdout).toMatch(/^Run-to-run spread \(3 repeats\)$/m);
    expect(r.stdout).toMatch(
      /^TPOT mean\s+[\d.]+ ms\s+[\d.]+ ms\s+[\d.]+ ms\s+[\d.]+ ms\s+[\d.]+ ms\s+[\d.]+ %$/m,
    );
    expect(r.stdout).toContain(
      `Pooled over 3 repeats (compare them as one: tokenscope compare ${files.join('+')} …)`,
    );
    // The pooled summary counts every repeat's requests.
    const pooledPart = r.stdout.slice(r.stdout.indexOf('Pooled over'));
    expect(pooledPart).toMatch(/Successful requests:\s+24$/m);
  }, 60_000);

  it('--json: one line per repeat, then the pooled summary with the spread', async () => {
    const out = path.join(dir, 'json.jsonl');
    const r = await runCli(
      ['run', '--target', fast.url, ...common, '--repeat', '2', '--out', out, '--json', '-q'],
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    const last = lines[2] as {
      pooled: { completed: number; repeats: number };
      spread: { id: string; values: number[] }[];
    };
    expect(last.pooled.completed).toBe(16);
    expect(last.pooled.repeats).toBe(2);
    expect(last.spread.find((s) => s.id === 'out-tput')!.values).toHaveLength(2);
  }, 60_000);

  it('two servers, two repeats each: pooled per server and compared with intervals', async () => {
    const out = path.join(dir, 'ab.jsonl');
    const r = await runCli(
      ['run', '--target', fast.url, '--target', slow.url, ...common, '--repeat', '2', '--out', out, '-q'],
      90_000,
    );
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['ab.1.r1', 'ab.1.r2', 'ab.2.r1', 'ab.2.r2'])
      expect(existsSync(path.join(dir, `${f}.jsonl`)), f).toBe(true);
    expect(r.stdout).toMatch(/^A {2}127\.0\.0\.1:\d+ \(2 repeats pooled\)/m);
    expect(r.stdout).toMatch(/^B {2}127\.0\.0\.1:\d+ \(2 repeats pooled\)/m);
    // Three times the decode step: clearly worse, with an interval that says so.
    // (The last "TPOT mean" line: the comparison's, after each server's spread table.)
    const tpot =
      r.stdout
        .split('\n')
        .filter((l) => l.trimStart().startsWith('TPOT mean'))
        .at(-1) ?? '';
    expect(tpot, r.stdout).toMatch(/\+[\d.]+%\s+\[\+[\d.]+%, \+[\d.]+%\]\s+↓ worse$/);
    // compare takes the same pooled groups by hand.
    const c = await runCli([
      'compare',
      `${path.join(dir, 'ab.1.r1.jsonl')}+${path.join(dir, 'ab.1.r2.jsonl')}`,
      path.join(dir, 'ab.2.r1.jsonl'),
      '--json',
    ]);
    expect(c.code, c.stderr).toBe(0);
    const j = JSON.parse(c.stdout) as { rows: { metric: string; values: number[] }[] };
    expect(j.rows.find((x) => x.metric === 'completed')!.values).toEqual([16, 8]);
  }, 90_000);

  it('refuses a repeat count out of range', async () => {
    for (const n of ['0', '101', '1.5']) {
      const r = await runCli(['run', '--target', fast.url, ...common, '--repeat', n, '-q']);
      expect(r.code, n).toBe(2);
    }
  }, 30_000);
});
