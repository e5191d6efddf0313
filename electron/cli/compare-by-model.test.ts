/**
 * `tokenscope compare` of two model-mix runs, as a user runs them (real processes against two
 * simulators over loopback): the adapter that got slower is worse in its own rows, the base model
 * is not; a model only the second run sent is listed as such; --json carries the same by model.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';

const dir = tmpDir('tokenscope-compare-mix-');
const a = path.join(dir, 'a.jsonl');
const b = path.join(dir, 'b.jsonl');
let fast: SimServer;
let slow: SimServer;
// Each model on its own engine: in `fast` the adapter steps 5× quicker than the base, in `slow` as
// slowly as the base (20 ms against 4 ms: far apart whatever the machine's noise).
const sim = (speedup: number) =>
  startSim({
    port: 0,
    model: 'base',
    extraModels: [
      { name: 'lora', speedup },
      { name: 'lora-new', speedup: 1 },
    ],
    decodeStepMs: 20,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
  });
beforeAll(async () => {
  [fast, slow] = await Promise.all([sim(5), sim(1)]);
  const run = (url: string, out: string, mix: string[]) =>
    runCli(
      ['run', '--target', url, ...mix.flatMap((m) => ['--mix', m]), '-n', '30', '-c', '6'].concat([
        '--output-len',
        '8',
        '--out',
        out,
      ]),
      60_000,
    );
  const [ra, rb] = await Promise.all([
    run(fast.url, a, ['base=1', 'lora=1']),
    run(slow.url, b, ['base=1', 'lora=1', 'lora-new=1']),
  ]);
  expect(ra.code, ra.stderr).toBe(0);
  expect(rb.code, rb.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await Promise.all([fast?.close(), slow?.close()]);
});

interface RowJson {
  metric: string;
  values: (number | null)[];
  relative: (number | null)[];
  verdict: (string | null)[];
}
interface Json {
  byModel: { noMix: string[]; models: { model: string; present: boolean[]; rows: RowJson[] }[] } | null;
}

describe('tokenscope compare, model mixes', () => {
  it('prints rows by model, the slower adapter worse, the new one listed as only in B', async () => {
    const r = await runCli(['compare', a, b]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toContain('The workloads differ: model mix base=1, lora=1 vs base=1, lora=1, lora-new=1.');
    const at = out.indexOf(
      "By model (model mix: each model's requests alone; throughput: its share of the run, no verdict)",
    );
    expect(at).toBeGreaterThan(0);
    const section = out.slice(at).split('\n');
    const block = (name: string) => {
      const i = section.findIndex((l) => l.startsWith(`Model ${name}`));
      expect(i, name).toBeGreaterThan(0);
      return section.slice(i, i + 10);
    };
    expect(block('base')[0]).toBe('Model base');
    const itl = block('lora').find((l) => l.startsWith('  ITL per chunk p50'));
    expect(itl).toMatch(/↓ worse$/);
    expect(block('lora-new')[0]).toBe('Model lora-new — only in B (not in A)');
    const only = block('lora-new').find((l) => l.startsWith('  TTFT p50'))!;
    expect(only).toMatch(/^ {2}TTFT p50\s+—\s+\d+\.\d+ ms$/); // no change, no verdict
  }, 60_000);

  it('--json has byModel: each model with its rows and the runs it is in', async () => {
    const r = await runCli(['compare', a, b, '--json', '--replicates', '200']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as Json;
    expect(j.byModel!.noMix).toEqual([]);
    expect(j.byModel!.models.map((m) => [m.model, m.present])).toEqual([
      ['base', [true, true]],
      ['lora', [true, true]],
      ['lora-new', [false, true]],
    ]);
    const row = (model: string, id: string) =>
      j
        .byModel!.models.find((m) => m.model === model)!
        .rows.find((x) => x.metric === `model:${model}:${id}`)!;
    expect(row('lora', 'itl-p50').verdict).toEqual([null, 'worse']);
    expect(row('lora', 'itl-p50').relative[1]).toBeGreaterThan(1); // 4 ms steps against 20 ms
    expect(Math.abs(row('base', 'itl-p50').relative[1]!)).toBeLessThan(0.5);
    expect(row('lora-new', 'ttft-p50').values[0]).toBeNull();
    // Each model's requests add up to the run's.
    const tput = (i: number) =>
      j.byModel!.models.reduce(
        (s, m) => s + (m.rows.find((x) => x.metric.endsWith(':req-tput'))!.values[i] ?? 0),
        0,
      );
    expect(tput(0)).toBeGreaterThan(0);
    expect(tput(1)).toBeGreaterThan(0);
  }, 60_000);
});
