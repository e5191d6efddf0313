import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toCsv, CSV_COLUMNS } from '../../../shared/runs/summary/csv.ts';
import type { RunRequestLine } from '../../../shared/runs/file/line-schema.ts';
import { summarizeRunLines } from '../../../shared/runs/summary/summarize-run.ts';
import { until } from '../../testing/until.ts';
import { startSim, type SimServer } from '../../sim/index.ts';
import { RunLibrary } from './run-library.ts';
import { importVllmText } from '../../../shared/runs/import/vllm-format.ts';
import { detectResultFormat } from '../../../shared/runs/import/sglang-format.ts';
import { deleteRun, listRuns, renameRun, sidecarPath } from './history.ts';
import { FLUSH_MS, readRunFile, RunFileWriter } from './run-file.ts';
import { runAgainst, tmpDir } from '../../testing/runs.ts';

let sim: SimServer;
const dir = tmpDir('tokenscope-runfile-');
let base: Awaited<ReturnType<typeof runAgainst>>;

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 2, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  base = await runAgainst(
    sim,
    { requests: 6, maxConcurrency: 2, warmup: 1, prompts: { type: 'synthetic', inputLen: 6, outputLen: 5 } },
    { outFile: path.join(dir, 'full.jsonl') },
  );
});
afterAll(() => sim.close());

const lineCount = (f: string): number =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l !== '').length;

describe('run file writer', () => {
  it('flushes appended lines within FLUSH_MS, without being closed', async () => {
    const f = path.join(dir, 'live.jsonl');
    const w = await RunFileWriter.create(f, base.header);
    expect(lineCount(f)).toBe(1); // the header is written at once
    const t0 = performance.now();
    w.append(base.lines[0]!);
    await until(() => lineCount(f) === 2, 2000, 5);
    expect(performance.now() - t0).toBeLessThan(FLUSH_MS + 150);
    expect(FLUSH_MS).toBeLessThanOrEqual(250);
    await w.close();
    await expect(RunFileWriter.create(f, base.header)).rejects.toThrow(/EEXIST/); // never overwrites a run
  });
});

describe('reading run files', () => {
  it('a file without its summary line reopens as partial, recomputed from the request lines', async () => {
    const f = path.join(dir, 'partial.jsonl');
    const w = await RunFileWriter.create(f, base.header);
    for (const l of base.lines.slice(0, 4)) w.append(l);
    await w.close();
    const r = await readRunFile(f);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.partial).toBe(true);
    expect(r.value.requests).toHaveLength(4);
    expect(r.value.summary.partial).toBe(true);
    const measured = base.lines.slice(0, 4).filter((l) => !l.warmup);
    expect(r.value.summary.vllm.completed).toBe(measured.length);
    expect(r.value.summary).toEqual(
      summarizeRunLines(base.header, base.lines.slice(0, 4), { partial: true }),
    );
    // partial duration: to the last finish seen — the send (sentMs, the zero of its times) + the end
    const end = Math.max(...measured.map((l) => (l.sentMs ?? l.startedMs) + l.phases.endMs!));
    expect(r.value.summary.vllm.duration).toBeCloseTo(end / 1000, 9);
  });

  it('skips a torn last line and bad lines, and says so', async () => {
    const f = path.join(dir, 'torn.jsonl');
    writeFileSync(f, readFileSync(path.join(dir, 'partial.jsonl'), 'utf8'));
    appendFileSync(
      f,
      '{"type":"request","seq":1\n' +
        JSON.stringify({ ...base.lines[1], events: { t: [1], tok: [], f: [] } }) +
        '\n',
    );
    appendFileSync(f, JSON.stringify(base.lines[2]).slice(0, 40)); // killed mid-write
    const r = await readRunFile(f);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.requests).toHaveLength(4);
    expect(r.value.problems).toHaveLength(3);
    expect(r.value.problems[2]).toMatch(/incomplete/);
    expect(r.value.problems[1]).toMatch(/event columns differ/);
  });

  it('refuses what is not a run file', async () => {
    const f = path.join(dir, 'other.jsonl');
    writeFileSync(f, '{"hello": 1}\n');
    const r = await readRunFile(f);
    expect(r.ok).toBe(false);
    expect((await readRunFile(path.join(dir, 'missing.jsonl'))).ok).toBe(false);
  });
});

describe('history', () => {
  it('lists runs with their state; rename uses a sidecar; delete removes both', async () => {
    const { runs, skipped } = await listRuns(dir);
    const byName = new Map(runs.map((r) => [path.basename(r.path), r]));
    expect(byName.get('full.jsonl')).toMatchObject({
      partial: false,
      completed: 6,
      failed: 0,
      model: 'tokenscope-sim',
    });
    expect(byName.get('partial.jsonl')?.partial).toBe(true);
    expect(skipped.map((s) => path.basename(s.path))).toContain('other.jsonl');
    const full = byName.get('full.jsonl')!.path;
    const before = readFileSync(full, 'utf8');
    await renameRun(full, 'baseline H100');
    expect(readFileSync(full, 'utf8')).toBe(before); // the recorded file is never rewritten
    expect((await listRuns(dir)).runs.find((r) => r.path === full)?.name).toBe('baseline H100');
    await deleteRun(path.join(dir, 'torn.jsonl'));
    expect(existsSync(path.join(dir, 'torn.jsonl'))).toBe(false);
    expect((await listRuns(path.join(dir, 'nope'))).runs).toEqual([]);
    expect(existsSync(sidecarPath(full))).toBe(true);
  });
});

describe('export and import files', () => {
  it('CSV: one row per request, quoted where needed', async () => {
    const csv = toCsv(base.lines);
    const rows = csv.trimEnd().split('\r\n');
    expect(rows[0]).toBe(CSV_COLUMNS.join(','));
    expect(rows).toHaveLength(base.lines.length + 1);
    const errLine: RunRequestLine = {
      ...base.lines[0]!,
      status: 'error',
      error: { kind: 'http', code: 'status', message: 'said "no", twice' },
    };
    expect(toCsv([errLine])).toContain('"said ""no"", twice"');
    // The run library's export (the app's and web mode's path), named after the run renamed above.
    const out = await new RunLibrary(dir).export('full.jsonl', 'csv');
    expect(out).toMatchObject({ filename: 'baseline-h100.csv', mime: 'text/csv' });
    expect(out.content).toBe(csv);
  });

  it('vLLM JSON written to disk imports back as the same run', async () => {
    const out = await new RunLibrary(dir).export('full.jsonl', 'vllm-detailed');
    expect(out.filename).toBe('baseline-h100-detailed.vllm.json');
    expect(statSync(path.join(dir, 'full.jsonl')).mode & 0o777).toBe(0o600);
    const j = JSON.parse(out.content) as Record<string, unknown>;
    expect(j.request_rate).toBe('inf');
    expect((j.ttfts as number[]).every((x) => x < 1)).toBe(true); // seconds, as vLLM writes them
    expect(j.errors).toEqual(Array(6).fill(''));
    const r = importVllmText(out.content);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.runs[0]!.summary.vllm.completed).toBe(6);
    // Under vLLM's rules (the export's): the same as the run re-derived under them.
    const asVllm = summarizeRunLines(base.header, base.lines, {
      durationS: base.summary.vllm.duration,
      definitions: 'vllm',
    });
    expect(r.value.runs[0]!.summary.vllm.mean_ttft_ms).toBeCloseTo(asVllm.vllm.mean_ttft_ms!, 6);
    expect(detectResultFormat(readFileSync(path.join(dir, 'full.jsonl'), 'utf8'))).toBe('tokenscope');
  });
});
