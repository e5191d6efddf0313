/**
 * The app's run service through the contract (dispatch validates every argument, as both
 * transports do): a real run against the built-in simulator over loopback, its live events,
 * its file in the history, export → import, rename, delete, and keys that try to leave the folder.
 */
import { summarizeRunLines } from '../../shared/runs/summary/summarize-run.ts';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, ApiEvents, Result } from '../../shared/api.ts';
import type { RunDetail, RunFinished, RunLaneBatch, RunList, RunStarted } from '../../shared/runs-api.ts';
import type { RunProgress } from '../../shared/runs/live/progress-types.ts';
import { tmpDir } from '../testing/runs.ts';
import type { Core } from './core.ts';
import { dispatch } from './handlers.ts';
import { fileNameOf } from '../runs/export/run-export.ts';
import { importedDisplayName } from '../runs/import/imported-runs.ts';
import { SIM_TARGET_ID as SIM } from './targets-service.ts';
import { testCore, type RecordedEvent } from '../testing/core.ts';

let core: Core;
let dir: string;
let events: RecordedEvent[] = [];

function call<T>(method: string, ...args: unknown[]): Promise<Result<T>> {
  return dispatch(core.handlers, method, args) as Promise<Result<T>>;
}

async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = await call<T>(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value;
}

function of<E extends ApiEvent>(event: E, runId?: string): ApiEvents[E][] {
  return events
    .filter((e) => e.event === event)
    .map((e) => e.payload as ApiEvents[E])
    .filter((p) => runId === undefined || (p as { runId?: string }).runId === runId);
}

async function finished(runId: string, timeoutMs = 30_000): Promise<RunFinished> {
  const t0 = Date.now();
  for (;;) {
    const f = of('onRunFinished', runId)[0];
    if (f) return f;
    if (Date.now() - t0 > timeoutMs) throw new Error('run did not finish');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const small = {
  requests: 24,
  maxConcurrency: 8,
  rate: 'inf',
  seed: 3,
  prompts: { type: 'synthetic', inputLen: 32, outputLen: 12 },
};

beforeAll(async () => {
  dir = tmpDir('tokenscope-app-runs-');
  ({ core, events } = await testCore({ runsDir: dir }));
});

afterAll(async () => {
  await core.close();
});

describe('runs through the contract', () => {
  let runId = '';
  let key = '';

  it('starts a run on the simulator and reports it live: started, progress, lanes, finished', async () => {
    const started = await value<{ runId: string; key: string }>('startRun', {
      targetId: SIM,
      workload: small,
      name: 'first',
    });
    runId = started.runId;
    key = started.key;
    expect(key).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}\.jsonl$/);
    // One run at a time.
    const busy = await call('startRun', { targetId: SIM, workload: small });
    expect(busy.ok).toBe(false);
    if (!busy.ok) expect(busy.error.code).toBe('busy');

    const fin = await finished(runId);
    expect(fin.error).toBeNull();
    expect(fin.cancelled).toBe(false);
    expect(fin.summary?.vllm.completed).toBe(24);
    expect(fin.summary?.vllm.failed).toBe(0);

    const st = of('onRunStarted', runId) as RunStarted[];
    expect(st).toHaveLength(1);
    expect(st[0]!.header.name).toBe('first');
    expect(st[0]!.header.target.model).toBe('tokenscope-sim');
    expect(st[0]!.selfCheckThresholds.eventLoopDelayP99Ms).toBeGreaterThan(0);
    // The test request passed first (its numbers in the header, not in the run's).
    expect(st[0]!.header.testRequest).toMatchObject({ attempts: 1, outputTokens: 12 });
    expect(st[0]!.header.testRequest!.ttftMs).toBeGreaterThan(0);
    // onRunStarted comes before any lane batch and any progress past the test request's.
    const firstIdx = (e: ApiEvent, pick: (p: unknown) => boolean = () => true) =>
      events.findIndex(
        (x) => x.event === e && (x.payload as { runId?: string }).runId === runId && pick(x.payload),
      );
    const testing = (p: unknown) => (p as RunProgress).phase === 'test';
    expect(firstIdx('onRunProgress', testing)).toBeGreaterThanOrEqual(0);
    expect(firstIdx('onRunProgress', testing)).toBeLessThan(firstIdx('onRunStarted'));
    expect(firstIdx('onRunStarted')).toBeLessThan(firstIdx('onRunProgress', (p) => !testing(p)));
    expect(firstIdx('onRunStarted')).toBeLessThan(firstIdx('onRunLanes'));

    const prog = of('onRunProgress', runId) as RunProgress[];
    expect(prog.at(-1)!.phase).toBe('done');
    expect(prog.at(-1)!.completed).toBe(24);
    expect(prog.at(-1)!.maxInFlight).toBeLessThanOrEqual(8);

    // Lanes: every request started once, finished once; its events are after its start and ordered.
    const lanes = of('onRunLanes', runId) as RunLaneBatch[];
    const starts = lanes.flatMap((b) => b.starts);
    const done = lanes.flatMap((b) => b.done);
    expect(new Set(starts.map((s) => s.id)).size).toBe(24);
    expect(done).toHaveLength(24);
    expect(done.every((d) => d.ok && d.outputTokens === 12)).toBe(true);
    const startOf = new Map(starts.map((s) => [s.id, s.startedMs]));
    const evById = new Map<string, { t: number[]; tok: number[] }>();
    for (const b of lanes)
      for (const e of b.events) {
        const acc = evById.get(e.id) ?? { t: [], tok: [] };
        acc.t.push(...e.t);
        acc.tok.push(...e.tok);
        evById.set(e.id, acc);
      }
    for (const [id, e] of evById) {
      expect(e.t[0]!).toBeGreaterThanOrEqual(startOf.get(id)!);
      for (let i = 1; i < e.t.length; i++) expect(e.t[i]!).toBeGreaterThanOrEqual(e.t[i - 1]!);
      expect(e.tok.reduce((a, b) => a + b, 0)).toBe(12);
    }
    // Batches are ~10 Hz, not one per event.
    const nEvents = [...evById.values()].reduce((a, e) => a + e.t.length, 0);
    expect(lanes.length).toBeLessThan(nEvents / 2);
  });

  it('lists the run and opens it with every request line and the same summary', async () => {
    const list = await value<RunList>('listRuns');
    expect(list.dir).toBe(dir);
    const e = list.runs.find((r) => r.key === key)!;
    expect(e).toMatchObject({
      runId,
      name: 'first',
      completed: 24,
      failed: 0,
      partial: false,
      imported: false,
      running: false,
      source: 'tokenscope',
    });
    const d = await value<RunDetail>('openRun', key);
    expect(d.lines).toHaveLength(24);
    expect(d.header?.runId).toBe(runId);
    const fin = of('onRunFinished', runId)[0]!;
    expect(d.summary.vllm).toEqual(fin.summary!.vllm);
    // The app watched the simulator's /metrics through the run, and kept it in the run file.
    expect(d.summary.server).toMatchObject({ source: 'scrape', profile: 'vllm-v1', failures: 0 });
    expect(d.summary.server!.delta.generationTokens).toBe(d.summary.vllm.total_output_tokens);
    expect(d.summary.server).toEqual(fin.summary!.server);
    // The run file is in the folder and holds no secret-bearing header values.
    const text = await readFile(path.join(dir, key), 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(26);
  });

  it('exports vLLM JSON, CSV and raw; the vLLM export re-imports with the same summary', async () => {
    const csv = await value<{ filename: string; content: string }>('exportRun', key, 'csv');
    // Exports are named after the run, not its timestamped file.
    expect(csv.filename).toBe('first.csv');
    expect(csv.content.trim().split('\n')).toHaveLength(25);
    const raw = await value<{ content: string }>('exportRun', key, 'raw');
    expect(raw.content).toBe(await readFile(path.join(dir, key), 'utf8'));
    const vj = await value<{ filename: string; content: string }>('exportRun', key, 'vllm-detailed');
    expect(vj.filename).toBe('first-detailed.vllm.json');
    const parsed = JSON.parse(vj.content) as Record<string, unknown>;
    expect(parsed.completed).toBe(24);
    expect(Array.isArray(parsed.ttfts)).toBe(true);

    const imp = await value<{ keys: string[]; warnings: string[] }>('importRun', {
      filename: 'my result.json',
      content: vj.content,
    });
    expect(imp.keys).toHaveLength(1);
    expect(imp.keys[0]).toMatch(/^imported\/[A-Za-z0-9._-]+#0$/);
    const d = await value<RunDetail>('openRun', imp.keys[0]);
    expect(d.entry.imported).toBe(true);
    expect(d.entry.name).toBe('first'); // the vLLM file's label (our export writes the run's name there)
    expect(d.entry.source).toBe('vllm');
    expect(d.outcomes).toHaveLength(24);
    const origDetail = await value<RunDetail>('openRun', key);
    // The export is the run under vLLM's per-request rules (TTFT at the role chunk…): compare with that.
    const orig = {
      summary: summarizeRunLines(origDetail.header!, origDetail.lines!, {
        durationS: origDetail.summary.vllm.duration,
        definitions: 'vllm',
      }),
    };
    expect(d.summary.definitions).toBe('vllm');
    for (const k of [
      'completed',
      'failed',
      'total_output_tokens',
      'mean_ttft_ms',
      'p99_ttft_ms',
      'median_itl_ms',
      'p99_e2el_ms',
    ])
      expect(d.summary.vllm[k], k).toBeCloseTo(orig.summary.vllm[k] as number, 3);
    const list = await value<RunList>('listRuns');
    expect(list.runs.some((r) => r.key === imp.keys[0] && r.imported)).toBe(true);

    // An imported result only exports as its original bytes.
    expect((await call('exportRun', imp.keys[0], 'csv')).ok).toBe(false);
    const back = await value<{ content: string }>('exportRun', imp.keys[0], 'raw');
    expect(back.content).toBe(vj.content);
  });

  it('an imported file without a label is listed under the name the user imported', () => {
    expect(importedDisplayName('20261123-113708-a5bc17-vllm-agg.json')).toBe('vllm-agg.json');
    expect(importedDisplayName('plain.json')).toBe('plain.json');
  });

  it('refuses garbage imports with a clear error and keeps nothing', async () => {
    const r = await call('importRun', { filename: 'notes.txt', content: 'hello, not a result' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/notes\.txt/);
    const r2 = await call('importRun', {
      filename: 'run.jsonl',
      content: await readFile(path.join(dir, key), 'utf8'),
    });
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.error.message).toMatch(/Tokenscope run file/);
  });

  it('renames and deletes native and imported runs', async () => {
    await value('renameRun', key, 'renamed run');
    let list = await value<RunList>('listRuns');
    expect(list.runs.find((r) => r.key === key)?.name).toBe('renamed run');
    const imported = list.runs.find((r) => r.imported)!;
    await value('renameRun', imported.key, 'from vLLM');
    list = await value<RunList>('listRuns');
    expect(list.runs.find((r) => r.key === imported.key)?.name).toBe('from vLLM');

    await value('deleteRun', imported.key);
    await value('deleteRun', key);
    expect(existsSync(path.join(dir, key))).toBe(false);
    list = await value<RunList>('listRuns');
    expect(list.runs).toHaveLength(0);
    const gone = await call('openRun', key);
    expect(gone.ok).toBe(false);
    if (!gone.ok) expect(gone.error.code).toBe('not-found');
  });

  it('keys cannot leave the runs folder', async () => {
    for (const bad of [
      '../targets.json',
      '/etc/passwd',
      'imported/../../x',
      '..',
      'a/b.jsonl',
      'x.jsonl#1',
    ]) {
      const r = await call('openRun', bad);
      expect(r.ok, bad).toBe(false);
    }
    const rev = await value<{ path: string; revealed: boolean }>('revealRun');
    expect(rev).toEqual({ path: dir, revealed: false });
  });

  it('rejects a bad workload with the field path, and a missing target', async () => {
    const r = await call('startRun', {
      targetId: SIM,
      workload: {
        requests: 0,
        prompts: { type: 'synthetic', inputLen: { type: 'uniform', min: 9, max: 3 } },
      },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toMatch(/requests/);
      expect(r.error.message).toMatch(/prompts\.inputLen\.max/);
    }
    const r2 = await call('startRun', { targetId: 'nope', workload: small });
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.error.code).toBe('not-found');
    const r3 = await call('startRun', {
      targetId: SIM,
      workload: { ...small, prompts: { type: 'jsonl', path: 'missing.jsonl' } },
    });
    expect(r3.ok).toBe(false);
    if (!r3.ok) expect(r3.error.message).toMatch(/missing\.jsonl/);
  });

  it('cancels a running run: it finishes as cancelled and reopens with what completed', async () => {
    const { runId: id, key: k } = await value<{ runId: string; key: string }>('startRun', {
      targetId: SIM,
      workload: {
        requests: 400,
        maxConcurrency: 4,
        rate: 'inf',
        prompts: { type: 'synthetic', inputLen: 16, outputLen: 64 },
      },
    });
    // Wait until a few requests completed, then cancel.
    const t0 = Date.now();
    while (((of('onRunProgress', id).at(-1) as RunProgress | undefined)?.completed ?? 0) < 4) {
      if (Date.now() - t0 > 20_000) throw new Error('no progress');
      await new Promise((r) => setTimeout(r, 20));
    }
    const listRunning = await value<RunList>('listRuns');
    expect(listRunning.runs.find((r) => r.key === k)?.running).toBe(true);
    expect((await call('deleteRun', k)).ok).toBe(false);
    expect((await value<{ cancelled: boolean }>('cancelRun', id)).cancelled).toBe(true);
    const fin = await finished(id);
    expect(fin.cancelled).toBe(true);
    expect(fin.summary!.cancelled).toBe(true);
    const n = fin.summary!.vllm.completed;
    expect(n).toBeGreaterThanOrEqual(4);
    expect(n).toBeLessThan(400);
    const d = await value<RunDetail>('openRun', k);
    expect(d.summary.cancelled).toBe(true);
    expect(d.summary.vllm.completed).toBe(n);
    expect((await value<{ cancelled: boolean }>('cancelRun', id)).cancelled).toBe(false);
  });
});

describe('a run in its warm-up', () => {
  it('is in the list, going on, before its file has a header', async () => {
    const { runId: id, key: k } = await value<{ runId: string; key: string }>('startRun', {
      targetId: SIM,
      name: 'warming',
      workload: {
        requests: 4,
        warmup: 4,
        maxConcurrency: 4,
        rate: 'inf',
        prompts: { type: 'synthetic', inputLen: 16, outputLen: 200 },
      },
    });
    const t0 = Date.now();
    while (of('onRunStarted', id).length === 0) {
      if (Date.now() - t0 > 20_000) throw new Error('not started');
      await new Promise((r) => setTimeout(r, 10));
    }
    // The file has no header until the clock's zero, after the warm-up.
    expect((await readFile(path.join(dir, k), 'utf8')).length).toBe(0);
    const l = await value<RunList>('listRuns');
    const e = l.runs.find((r) => r.key === k);
    expect(e).toMatchObject({
      running: true,
      name: 'warming',
      runId: id,
      partial: false,
      source: 'tokenscope',
    });
    expect(e!.model).not.toBe('');
    expect((await value<{ cancelled: boolean }>('cancelRun', id)).cancelled).toBe(true);
    await finished(id);
    expect((await value<RunList>('listRuns')).runs.find((r) => r.key === k)?.running ?? false).toBe(false);
  });
});

describe('export file names', () => {
  it('follow the run’s name, safe for any file system', () => {
    expect(fileNameOf('e2e simulator run')).toBe('e2e-simulator-run');
    expect(fileNameOf('vLLM vs SGLang · Qwen/Qwen3-8B')).toBe('vllm-vs-sglang-qwen-qwen3-8b');
    expect(fileNameOf('Café crème')).toBe('cafe-creme');
    expect(fileNameOf('../../etc/passwd')).toBe('etc-passwd');
    expect(fileNameOf('···')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});
