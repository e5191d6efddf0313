/**
 * `tokenscope sweep` of an embeddings and a rerank target, as a user runs it, over real HTTP against
 * the simulator: the table's columns are req/s, inputs/s, input tok/s and E2E (no zeros of output
 * tok/s, no TTFT/ITL), one knee line (p99 E2E against req/s), the file's numbers, and an SLO on a
 * token metric refused (exit 2).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSweepFile } from '../../shared/runs/sweep/file.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';

const dir = tmpDir('tokenscope-sweep-pool-');
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

const common = ['-n', '12', '--input-len', '16', '--no-server-metrics'];

describe('tokenscope sweep of a target that answers whole', () => {
  it('embeddings, --concurrency 1,4: batch columns and E2E; one knee line against req/s', async () => {
    const out = path.join(dir, 'e.json');
    const r = await runCli(
      [
        'sweep',
        '--target',
        sim.url,
        '--dialect',
        'openai-embeddings',
        '--batch-size',
        '4',
        '--concurrency',
        '1,4',
        ...common,
        '--out',
        out,
        '-q',
      ],
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^step\s+load\s+req\/s\s+inputs\/s\s+in tok\/s\s+goodput\s+E2E p50\/p90\/p99\s+note$/m,
    );
    expect(r.stdout).not.toMatch(/TTFT|ITL|TPOT|out tok\/s|tok\/s\/user/);
    expect(r.stdout).toMatch(/^Knee \(p99 E2E vs req\/s\): /m);
    const rows = r.stdout.split('\n').filter((l) => /^\s+\d+\s+conc \d+/.test(l));
    expect(rows).toHaveLength(2);
    const f = parseSweepFile(JSON.parse(await readFile(out, 'utf8')));
    if (!f.ok) throw new Error(f.error);
    expect(f.value.knee.ttft).toBeNull();
    for (const s of f.value.steps) {
      expect(s.numbers.ttft).toBeNull();
      expect(s.numbers.e2el!.p99).toBeGreaterThan(0);
      // 4 inputs of 16 tokens each a request: inputs/s is 4 × req/s; input tokens/s more than 16× that.
      expect(s.numbers.inputsPerS).toBeCloseTo(4 * s.numbers.requestsPerS, 6);
      expect(s.numbers.inputTokPerS!).toBeGreaterThanOrEqual(16 * s.numbers.inputsPerS!);
    }
  }, 60_000);

  it('rerank, --rate 20,inf --json: the file as one object with the batch numbers', async () => {
    const out = path.join(dir, 'r.json');
    const r = await runCli(
      [
        'sweep',
        '--target',
        sim.url,
        '--dialect',
        'rerank',
        '--documents',
        '5',
        '--document-len',
        '20',
        '--rate',
        '20,inf',
        ...common,
        '--out',
        out,
        '--json',
      ],
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as {
      knee: { ttft: unknown };
      steps: { numbers: { inputsPerS: number; requestsPerS: number; ttft: unknown } }[];
    };
    expect(j.knee.ttft).toBeNull();
    expect(j.steps).toHaveLength(2);
    for (const s of j.steps) {
      expect(s.numbers.ttft).toBeNull();
      expect(s.numbers.inputsPerS).toBeCloseTo(5 * s.numbers.requestsPerS, 6);
    }
  }, 60_000);

  it('an SLO on TTFT, ITL or TPOT is refused for such a target (exit 2, the terms named)', async () => {
    const r = await runCli(
      [
        'sweep',
        '--target',
        sim.url,
        '--dialect',
        'openai-embeddings',
        '--slo',
        'p99_ttft_ms<=50,p99_e2el_ms<=100',
        ...common,
      ],
      30_000,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--slo: p99_ttft_ms: an embeddings or rerank target answers whole/);
  }, 30_000);
});
