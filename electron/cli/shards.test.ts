/**
 * Load from many machines, on loopback: four `tokenscope run --shard I/4` processes started
 * together against one simulator with the same --start-at, merged, equal request for request
 * (index, prompt, planned send time) the same workload run whole; and the merged summary is what
 * the summarizer computes from the merged lines.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseRunText, type ParsedRun } from '../../shared/runs/run-file/parse.ts';
import { summarizeRunLines } from '../../shared/runs/summary/summarize-run.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';

const dir = tmpDir('tokenscope-shards-');
let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 3, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});
afterAll(() => sim.close());

/**
 * How far ahead the shards start: five CLI processes (each loading TypeScript through tsx) come up
 * together on a shared 2-core box, list models, send a test request and warm up, and measure their
 * clocks (~1.5–4 s) before the instant. A built bundle starts faster; the margin is for a slow box.
 */
const AHEAD_MS = 14_000;

function read(file: string): ParsedRun {
  const r = parseRunText(readFileSync(file, 'utf8'));
  if (!r.ok) throw new Error(`${file}: ${r.error}`);
  return r.value;
}

it('4 shards started together merge into exactly the schedule of the whole run', async () => {
  const common = [
    'run',
    '--target',
    sim.url,
    '-n',
    '48',
    '-r',
    '32',
    '--burstiness',
    '0.5',
    '--input-len',
    '16-64',
    '--output-len',
    '4-12',
    '--seed',
    '17',
    '--warmup',
    '2',
    '--no-server-metrics',
    '-q',
  ];
  const startAt = Date.now() + AHEAD_MS;
  const files = [0, 1, 2, 3].map((i) => path.join(dir, `shard-${i}.jsonl`));
  const wholeFile = path.join(dir, 'whole.jsonl');
  const runs = await Promise.all([
    ...files.map((out, i) =>
      runCli([...common, '--shard', `${i}/4`, '--start-at', String(startAt), '--out', out], 60_000),
    ),
    // The whole workload, as one shard of one: same plan, same hash, its own start.
    runCli([...common, '--start-at', String(startAt + 3000), '--out', wholeFile], 60_000),
  ]);
  for (const r of runs) expect(r.code, r.stderr).toBe(0);
  const merged = path.join(dir, 'merged.jsonl');
  const m = await runCli(['merge', ...files, '-o', merged, '-q'], 30_000);
  expect(m.code, m.stderr).toBe(0);

  const whole = read(wholeFile);
  const run = read(merged);
  const shards = files.map(read);
  // Each shard sent its share: request i when i mod 4 = its index, 12 each.
  shards.forEach((s, i) => {
    expect(s.header.shard).toMatchObject({ index: i, of: 4, startAt });
    expect(s.requests.filter((l) => !l.warmup).map((l) => l.seq % 4)).toEqual(Array(12).fill(i));
    expect(s.header.shard!.clock.method).toBe('http-date');
  });
  // The same workload: one hash for the shards, the merged run and the whole one.
  expect(run.header.merged!.workloadHash).toBe(whole.header.shard!.workloadHash);

  const mine = run.requests.filter((l) => !l.warmup);
  const theirs = whole.requests.filter((l) => !l.warmup).sort((a, b) => a.seq - b.seq);
  expect(mine.map((l) => l.seq)).toEqual(Array.from({ length: 48 }, (_, i) => i));
  expect(mine.map((l) => [l.seq, l.promptHash, l.scheduledMs, l.expectedOutputTokens])).toEqual(
    theirs.map((l) => [l.seq, l.promptHash, l.scheduledMs, l.expectedOutputTokens]),
  );
  expect(new Set(mine.map((l) => l.promptHash)).size).toBe(48); // prompts really differ
  // Sent at the global plan: never before it, and late only by the client's lag.
  const lag = mine.map((l) => l.arrivedMs - l.scheduledMs!);
  expect(Math.min(...lag)).toBeGreaterThanOrEqual(0);
  expect(Math.max(...lag)).toBeLessThan(250);
  // Warm-up lines: 2 per shard, numbered k·4 + I.
  expect(run.requests.filter((l) => l.warmup).map((l) => l.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

  expect(run.summary.vllm.completed).toBe(48);
  expect(run.summary.warmupRequests).toBe(8);
  expect(run.summary).toEqual(summarizeRunLines(run.header, run.requests));
  // Loopback, one clock (true offset 0): every shard measured one and says how sure it is. How close
  // depends on the probes' round trips, several ms with five CLI processes on two cores: a loose
  // bound here (the estimator's accuracy is tested in electron/runs/clock-offset.test.ts).
  for (const s of run.header.merged!.shards) {
    expect(Math.abs(s.clock.offsetMs!)).toBeLessThan(50);
    expect(s.clock.uncertaintyMs!).toBeLessThan(50);
  }
  process.stdout.write(
    `shards: lag p100 ${Math.max(...lag).toFixed(2)} ms; clocks ${run.header
      .merged!.shards.map((s) => `${s.clock.offsetMs!.toFixed(3)}±${s.clock.uncertaintyMs!.toFixed(3)}`)
      .join(', ')}\n`,
  );
}, 90_000);
