/**
 * `tokenscope compare` with the server's own phases (docs/tracing.md): two runs that received the
 * simulator's spans (`run --otlp-listen`, concurrency 1 and 6: the second queues) and one that did
 * not. The span rows — queue, prefill, decode, server TTFT at p50/p90/p99 — carry each traced run's
 * summary.serverPhases exactly, in text, --json and --markdown; the untraced run's cells are absent
 * (—, null), never zeros; two untraced runs show no span rows at all.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../shared/runs/summary/schema.ts';
import { readRunFile } from '../runs/files/run-file.ts';
import { closedPort, runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';
import { startSim, type SimServer } from '../sim/index.ts';

const dir = tmpDir('tokenscope-compare-spans-');
const one = path.join(dir, 'traced-c1.jsonl');
const six = path.join(dir, 'traced-c6.jsonl');
const plain = path.join(dir, 'untraced.jsonl');
const plain2 = path.join(dir, 'untraced-2.jsonl');
let sim: SimServer;
const summaries = new Map<string, RunSummary>();

type JsonRow = { metric: string; label: string; values: (number | null)[] };

beforeAll(async () => {
  const port = await closedPort();
  // Two sequences at most: at concurrency 6 requests wait in the queue.
  sim = await startSim({
    port: 0,
    decodeStepMs: 3,
    prefillMsPerToken: 0.05,
    maxNumSeqs: 2,
    otlpEndpoint: `http://127.0.0.1:${port}/v1/traces`,
  });
  for (const [out, c, traced] of [
    [one, '1', true],
    [six, '6', true],
    [plain, '6', false],
    [plain2, '2', false],
  ] as const) {
    const args = ['run', '--target', sim.url, '-n', '12', '-c', c, '--input-len', '64', '--output-len', '6'];
    const r = await runCli(
      [...args, ...(traced ? ['--otlp-listen', String(port)] : []), '--out', out, '-q'],
      40_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const f = await readRunFile(out);
    if (!f.ok) throw new Error(f.error);
    summaries.set(out, f.value.summary);
  }
}, 120_000);

afterAll(async () => {
  await sim.close();
});

const IDS = ['queue', 'prefill', 'decode', 'serverttft'] as const;
const KEYS = {
  queue: 'queueMs',
  prefill: 'prefillMs',
  decode: 'decodeMs',
  serverttft: 'serverTtftMs',
} as const;
const Q = { p50: 'median', p90: 'p90', p99: 'p99' } as const;

describe('compare with server phases from spans', () => {
  it('--json: each traced run its own exact percentiles; the untraced run null, not zero', async () => {
    expect(summaries.get(one)!.serverPhases?.joined).toBe(12);
    expect(summaries.get(six)!.serverPhases?.joined).toBe(12);
    expect(summaries.get(plain)!.serverPhases).toBeUndefined();
    const r = await runCli(['compare', one, six, plain, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { rows: JsonRow[] }).rows;
    for (const id of IDS)
      for (const [q, key] of Object.entries(Q)) {
        const row = rows.find((x) => x.metric === `span-${id}-${q}`);
        expect(row, `span-${id}-${q}`).toBeDefined();
        const want = [one, six].map((f) => summaries.get(f)!.serverPhases![KEYS[id]]![key]);
        expect(row!.values).toEqual([...want, null]);
      }
    // At concurrency 6 on a server of two sequences, requests queue; alone, they hardly do.
    const q99 = rows.find((x) => x.metric === 'span-queue-p99')!.values;
    expect(q99[1]!).toBeGreaterThan(q99[0]!);
  }, 30_000);

  it('text and --markdown: the rows under their heading, — where a run has no spans', async () => {
    const t = await runCli(['compare', plain, one]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toContain('Server phases (spans)');
    const line = (label: string) => t.stdout.split('\n').find((l) => l.trimStart().startsWith(label)) ?? '';
    const ttft = summaries.get(one)!.serverPhases!.serverTtftMs!.p90!.toFixed(2);
    expect(line('Server TTFT (spans) p90')).toMatch(
      new RegExp(`^\\s*Server TTFT \\(spans\\) p90\\s+—\\s+${ttft} ms`),
    );
    expect(line('Queue (spans) p50')).not.toMatch(/\b0\.00 ms\s+[\d.]+ ms/);
    const md = await runCli(['compare', one, six, '--markdown']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toMatch(/^\| Prefill \(spans\) p99 \| [\d.]+ ms \| [\d.]+ ms \| [−+±][\d.]+% /m);
  }, 30_000);

  it('two runs without spans: no span rows at all', async () => {
    const r = await runCli(['compare', plain, plain2, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { rows: JsonRow[] }).rows;
    expect(rows.filter((x) => x.metric.startsWith('span-'))).toEqual([]);
  }, 30_000);
});
