/** Helpers for the runs tests: a small run against a simulator, temp folders, plain statistics. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunProgress } from '../../shared/runs/live/progress-types.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import { parseWorkload, type Workload, type WorkloadInput } from '../../shared/runs/workload/workload.ts';
import type { SimServer } from '../sim/index.ts';
import { loadPrompts } from '../runs/prompts/prompts.ts';
import { withPoolingInputs } from '../runs/prompts/pooling.ts';
import { runWorkload, type RunOptions, type RunResult } from '../runs/runner.ts';

export function tmpDir(prefix = 'tokenscope-runs-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function workload(input: WorkloadInput): Workload {
  const r = parseWorkload(input);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

export async function runAgainst(
  sim: SimServer | string,
  input: WorkloadInput,
  over: Partial<RunOptions> = {},
): Promise<RunResult & { lines: RunRequestLine[]; progress: RunProgress[] }> {
  const w = workload(input);
  const progress: RunProgress[] = [];
  // The dialect's items as prepare-run builds them (embeddings/rerank batches).
  const dialect = over.target?.dialect ?? 'openai-chat';
  const prompts = await loadPrompts(w.prompts, w.seed, process.cwd(), w.sessions);
  const r = await runWorkload({
    workload: w,
    target: { url: typeof sim === 'string' ? sim : sim.url, dialect: 'openai-chat', model: 'tokenscope-sim' },
    prompts: withPoolingInputs(prompts, dialect, w.pooling, w.seed),
    progressIntervalMs: 50,
    onProgress: (p) => progress.push(p),
    keepLines: true,
    ...over,
  });
  if (!r.lines) throw new Error('the run kept no lines (keepLines: false)');
  return { ...r, lines: r.lines, progress };
}

/** numpy.percentile(method='linear'), written out plainly for the tests' own recomputation. */
export function npPercentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const idx = (p / 100) * (s.length - 1);
  const lo = Math.floor(idx);
  const hi = Math.min(lo + 1, s.length - 1);
  return s[lo]! + (s[hi]! - s[lo]!) * (idx - lo);
}

export function npMean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Population standard deviation (numpy's default ddof = 0). */
export function npStd(values: number[]): number {
  const m = npMean(values);
  return Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / values.length);
}
