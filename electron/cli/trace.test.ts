import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { CORPUS_DIR } from '../testing/corpus.ts';
import { tmpDir } from '../testing/runs.ts';
import { readRunFile } from '../runs/files/run-file.ts';
import { applyOverrides } from './run-flags.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin/tokenscope.mjs');
const README_TRACE = path.join(CORPUS_DIR, 'traces', 'mooncake-readme-sample.jsonl');
const BURST = path.join(CORPUS_DIR, 'traces', 'burstgpt-head.csv');
const dir = tmpDir('tokenscope-cli-trace-');
let sim: SimServer;

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 2, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});
afterAll(async () => {
  await sim.close();
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'run', ...args], { cwd: dir });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('tokenscope run --trace', () => {
  it('a replay of weeks says so before it starts, and waits for its next row without a timer warning', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'run', '--target', sim.url, '--trace', README_TRACE, '--speedup', '0.000001'],
      { cwd: dir, env: { ...process.env, TOKENSCOPE_API_KEY: '' } },
    );
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    // The first row is sent at once; the second is 35 days later. Wait for the first to finish.
    const end = performance.now() + 60_000;
    while (!/1\/2 done/.test(stderr) && child.exitCode === null && performance.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    expect(stderr).toContain('×0.000001 → replay takes 35.3 days)');
    expect(stderr).toMatch(/1\/2 done .*ETA 35\.3d/);
    // Before the fix Node warned ~1,000 times a second here and the run never progressed.
    await new Promise((r) => setTimeout(r, 500));
    expect(stderr).not.toContain('TimeoutOverflowWarning');
    child.kill('SIGINT');
    expect(await closed).toBe(130);
  }, 90_000);

  it('replays the trace, prints the lag and warns when it is past --max-lag', async () => {
    const out = path.join(dir, 'readme.jsonl');
    const r = await run([
      '--target',
      sim.url,
      '--trace',
      README_TRACE,
      '--speedup',
      '100',
      '--max-lag',
      '0',
      '--no-server-metrics',
      '--out',
      out,
    ]);
    expect(r.stderr).toContain(
      'prompts: trace mooncake-readme-sample.jsonl (Mooncake, 2 requests over 3.1 s',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Speedup: +×100\n/);
    expect(r.stdout).toMatch(/Schedule lag p50 \/ p99 \/ max \(ms\): +[\d.]+ \/ [\d.]+ \/ [\d.]+\n/);
    expect(r.stderr).toMatch(/warning: schedule lag p99 [\d.]+ ms > 0 ms: the replay fell behind its trace/);
    const f = await readRunFile(out);
    if (!f.ok) throw new Error(f.error);
    const lines = f.value.requests.filter((l) => !l.warmup).sort((a, b) => a.seq - b.seq);
    expect(lines.map((l) => l.scheduledMs)).toEqual([0, (30535 - 27482) / 100]);
    expect(f.value.summary.replay?.flagged).toBe(true);
  }, 60_000);

  it('limits a BurstGPT replay with -n and gives the lag in --json', async () => {
    const r = await run([
      '--target',
      sim.url,
      '--trace',
      BURST,
      '--speedup',
      '1000',
      '-n',
      '2',
      '--no-server-metrics',
      '--json',
      '--out',
      path.join(dir, 'burst.jsonl'),
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { completed: number; replay: Record<string, number | boolean> };
    expect(j.completed).toBe(2);
    expect(j.replay).toMatchObject({ speedup: 1000, requests: 2, lag_bound_ms: 10 });
    expect(typeof j.replay.lag_p99_ms).toBe('number');
    expect(j.replay.flagged).toBe((j.replay.lag_p99_ms as number) > 10);
  }, 60_000);

  it('refuses a trace with bad lines, naming them (exit 2)', async () => {
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"timestamp": 0, "input_length": 5, "output_length": 1}\n{"timestamp": 1,\n');
    const r = await run(['--target', sim.url, '--trace', bad, '--no-server-metrics']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.jsonl: line 2: not-json (not JSON)');
  }, 60_000);
});

describe('--trace and its flags over a workload', () => {
  it('replace the prompts, resolve the path, and leave the count to the trace', () => {
    const r = applyOverrides({}, { trace: 't.jsonl', speedup: 4, window: '60-120', maxLag: 5 });
    expect(r.error).toBeUndefined();
    expect(r.raw.requests).toBeUndefined();
    expect(r.raw.prompts).toEqual({
      type: 'trace',
      path: path.resolve('t.jsonl'),
      speedup: 4,
      startS: 60,
      endS: 120,
      maxLagMs: 5,
    });
    expect((applyOverrides({}, { trace: 't', window: '30-' }).raw.prompts as { startS: number }).startS).toBe(
      30,
    );
  });

  it('refuse what does not go with a trace', () => {
    expect(applyOverrides({}, { speedup: 2 }).error).toBe(
      '--speedup, --window, --trace-format, --block-tokens and --max-lag go with --trace FILE',
    );
    expect(applyOverrides({}, { trace: 't', window: 'soon' }).error).toContain('--window must be START-END');
    expect(applyOverrides({}, { trace: 't', inputLen: '5' }).error).toContain('a trace sets');
  });
});
