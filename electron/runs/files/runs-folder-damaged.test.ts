// A damaged runs folder (issue 24 point 7): beside a good run, a 20 MB partial file of 10 M junk
// lines, a partial file with one per-event count of 300,000,000, and a file that is no run. The
// listing lists the good runs, marks or skips the others with their reasons, keeps the event loop
// turning while it reads (streamed in slices), caps the problems it keeps, and on the next listing
// reads no unchanged file again.
import { appendFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROBLEMS } from '../../../shared/runs/run-file/parse.ts';
import type { RunRequestLine } from '../../../shared/runs/file/line-schema.ts';
import { startSim, type SimServer } from '../../sim/index.ts';
import { runAgainst, tmpDir } from '../../testing/runs.ts';
import { indexStats } from './history.ts';
import { RunLibrary } from './run-library.ts';
import { MAX_LINE_CHARS, readRunFile } from './run-file.ts';

let sim: SimServer;
const dir = tmpDir('tokenscope-damaged-');
let lines: string[];
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  const good = path.join(dir, 'a-good.jsonl');
  await runAgainst(
    sim,
    {
      requests: 4,
      rate: 'inf',
      seed: 9,
      warmup: 0,
      testRequest: false,
      prompts: { type: 'synthetic', inputLen: { type: 'uniform', min: 8, max: 16 }, outputLen: 8 },
    },
    { outFile: good },
  );
  lines = readFileSync(good, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const body = lines.slice(0, -1);
  // 10 M junk lines after a good header and its request lines: 20 MB, no summary.
  writeFileSync(path.join(dir, 'b-junk.jsonl'), body.join('\n') + '\n' + 'x\n'.repeat(10_000_000));
  const hostile = body.map((l) => JSON.parse(l) as RunRequestLine & { type: string });
  hostile[1]!.events.tok[3] = 300_000_000;
  writeFileSync(
    path.join(dir, 'c-huge-count.jsonl'),
    hostile.map((l) => JSON.stringify(l)).join('\n') + '\n',
  );
  writeFileSync(path.join(dir, 'd-not-a-run.jsonl'), 'garbage\n'.repeat(1000));
}, 60_000);
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a damaged runs folder', () => {
  it('lists the good runs, marks the damaged, skips what is no run — loop turning, problems capped', async () => {
    const lib = new RunLibrary(dir);
    let turns = 0;
    let on = true;
    const spin = (): void => {
      turns++;
      if (on) setImmediate(spin);
    };
    setImmediate(spin);
    const t0 = performance.now();
    const list = await lib.list();
    const firstMs = performance.now() - t0;
    on = false;
    const byKey = new Map(list.runs.map((r) => [r.key, r]));
    expect([...byKey.keys()].sort()).toEqual(['a-good.jsonl', 'b-junk.jsonl', 'c-huge-count.jsonl']);
    expect(byKey.get('a-good.jsonl')!.damage).toBeNull();
    expect(byKey.get('a-good.jsonl')!.completed).toBe(4);
    expect(byKey.get('b-junk.jsonl')!.partial).toBe(true);
    expect(byKey.get('b-junk.jsonl')!.completed).toBe(4);
    expect(byKey.get('c-huge-count.jsonl')!.damage).toMatch(
      /1 request line with values no stream produces refused/,
    );
    expect(byKey.get('c-huge-count.jsonl')!.completed).toBe(3);
    expect(list.skipped.map((s) => s.file)).toEqual(['d-not-a-run.jsonl']);
    // Read in slices: the loop ran between them (a 20 MB file is 80 reads of 256 KiB).
    expect(turns).toBeGreaterThanOrEqual(20);
    console.log(`first listing ${firstMs.toFixed(0)} ms, ${turns} loop turns during it`);

    const junk = await lib.open('b-junk.jsonl');
    expect(junk.problems).toHaveLength(MAX_PROBLEMS + 1);
    expect(junk.problems.at(-1)).toBe(`… and ${10_000_000 - MAX_PROBLEMS} more problems`);

    // Nothing changed: nothing read again.
    const reads = indexStats.reads;
    const again = await lib.list();
    expect(indexStats.reads).toBe(reads);
    expect(again.runs.map((r) => r.key)).toEqual(list.runs.map((r) => r.key));
    // A file that changed is read again, and only it.
    appendFileSync(path.join(dir, 'b-junk.jsonl'), 'y\n');
    await lib.list();
    expect(indexStats.reads).toBe(reads + 1);
  }, 120_000);
});

describe('a run file over 512 MB (V8 refuses strings past it)', () => {
  it('is read as a stream: its lines kept, a line past the line limit skipped, no "Invalid string length"', async () => {
    const file = path.join(dir, 'e-huge.jsonl');
    const head = lines.slice(0, -1).join('\n') + '\n';
    writeFileSync(file, head);
    // A 530 MB hole (a sparse file: nothing written to disk) read as one endless line, then the summary.
    const fh = await open(file, 'r+');
    await fh.write('\n' + lines.at(-1)! + '\n', head.length + 530 * 1024 * 1024);
    await fh.close();
    expect(statSync(file).size).toBeGreaterThan(512 * 1024 * 1024);
    const r = await readRunFile(file);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.requests).toHaveLength(4);
    expect(r.value.partial).toBe(false);
    expect(r.value.problems).toEqual([
      `line ${lines.length}: longer than ${MAX_LINE_CHARS} characters; skipped`,
    ]);
    rmSync(file);
  }, 120_000);
});
