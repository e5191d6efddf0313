/**
 * A sweep (`tokenscope sweep`): the same workload at a series of loads, each step an ordinary run
 * file (step-run.ts), tied together by one sweep file (shared/runs/sweep/file.ts) rewritten
 * after every step, so a sweep cut short still leaves a valid file. Plans:
 * - a list of concurrencies or rates, in increasing order;
 * - `rate-auto`, as GuideLLM's sweep: a synchronous baseline (concurrency 1), a throughput step
 *   (rate inf) for the ceiling, then K rates evenly spaced strictly between their request rates,
 *   then rates refined around the knee (shared/runs/sweep/auto.ts decides each next step);
 * - `slo-search`: the highest load meeting every SLO (shared/runs/sweep/search.ts), rates starting
 *   from a throughput step's ceiling.
 * A step stopped as over-saturated is run again at once (role `confirm`, with arrivals of its own:
 * seed = the workload's + the step's index): only when the re-run agrees does it end the sweep's
 * climb — no higher load is run after it (rate auto still refines below it; a search only goes
 * lower from a failing load anyway, and needs no confirmation).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunProgress } from '../../../shared/runs/live/progress-types.ts';
import type { RequestOutcome } from '../../../shared/runs/summary/outcome.ts';
import type { SaturationOptions } from '../../../shared/runs/sweep/saturation.ts';
import {
  SWEEP_FILE_FORMAT,
  SWEEP_FILE_VERSION,
  type SweepFile,
  type SweepLoad,
  type SweepStep,
} from '../../../shared/runs/sweep/file.ts';
import { needsConfirm, nextAutoStep } from '../../../shared/runs/sweep/auto.ts';
import { SloSearch } from '../../../shared/runs/sweep/search.ts';
import { judgeSlo, type SloTerm } from '../../../shared/runs/sweep/slo.ts';
import { kneesOf, stepNumbers } from '../../../shared/runs/sweep/step.ts';
import { sweepStreams } from '../../../shared/runs/sweep/pooling.ts';
import type { Workload } from '../../../shared/runs/workload/workload.ts';
import type { ScrapeTarget } from '../../metrics/scraper.ts';
import type { PromptProvider } from '../prompts/items.ts';
import { publicTarget, type RunTargetSpec } from '../request-spec.ts';
import { runStep, saturationRecord, StepWorkloadError, workloadAt, type StepRun } from './step-run.ts';

export type SweepPlan =
  | { kind: 'concurrency'; loads: number[] }
  | { kind: 'rate'; loads: (number | 'inf')[] }
  | { kind: 'rate-auto'; steps: number; refine: number }
  | {
      kind: 'slo-search';
      terms: SloTerm[];
      termsText: string;
      search: 'rate' | 'concurrency';
      maxSteps: number;
      precision: number;
      maxRuns: number;
    };

export interface SweepOptions {
  workload: Workload;
  target: RunTargetSpec;
  prompts: PromptProvider;
  plan: SweepPlan;
  /** The sweep file; its steps' run files go beside it (FILE.step01.jsonl…). */
  outFile: string;
  name?: string | null;
  stopOverSaturated: boolean;
  saturation?: SaturationOptions;
  serverMetrics?: ScrapeTarget | null;
  signal?: AbortSignal;
  onStepStart?: (index: number, load: SweepLoad, role: SweepStep['role']) => void;
  onStep?: (step: SweepStep, file: SweepFile) => void;
  onProgress?: (p: RunProgress) => void;
}

export interface SweepResult {
  file: SweepFile;
  path: string;
  cancelled: boolean;
}

/** `a/sweep.json`, 3 → `a/sweep.step03.jsonl`. @internal exported for its tests */
export function stepFileOf(sweepFile: string, i: number): string {
  const ext = path.extname(sweepFile);
  return `${sweepFile.slice(0, sweepFile.length - ext.length)}.step${String(i).padStart(2, '0')}.jsonl`;
}

class Sweep {
  readonly file: SweepFile;
  private readonly dir: string;

  constructor(private readonly o: SweepOptions) {
    this.dir = path.dirname(o.outFile);
    const p = o.plan;
    // Each step sets its own rate (and concurrency, when that is what is swept): not kept here.
    const { target: _t, rate: _r, ...workload } = o.workload;
    const byConcurrency = p.kind === 'concurrency' || (p.kind === 'slo-search' && p.search === 'concurrency');
    if (byConcurrency) delete (workload as Partial<typeof workload>).maxConcurrency;
    this.file = {
      format: SWEEP_FILE_FORMAT,
      version: SWEEP_FILE_VERSION,
      sweepId: randomUUID(),
      name: o.name ?? o.workload.name ?? null,
      createdAt: new Date().toISOString(),
      target: { ...publicTarget(o.target) },
      workload: workload as Record<string, unknown>,
      plan: {
        kind: p.kind,
        stopOverSaturated: o.stopOverSaturated,
        ...(p.kind === 'concurrency' || p.kind === 'rate'
          ? { loads: p.loads.map((x) => (x === 'inf' ? Infinity : x)).filter(Number.isFinite) }
          : {}),
        ...(p.kind === 'rate-auto' ? { autoSteps: p.steps, autoRefine: p.refine } : {}),
        ...(p.kind === 'slo-search'
          ? { slo: p.termsText, search: p.search, maxSteps: p.maxSteps, precision: p.precision }
          : {}),
      },
      steps: [],
      stopped: null,
      knee: { ttft: null, e2el: null, minRise: 2 },
      slo: null,
    };
  }

  get cancelled(): boolean {
    return this.o.signal?.aborted === true;
  }

  /** Runs one step, records it, rewrites the sweep file. */
  async step(load: SweepLoad, role: SweepStep['role']): Promise<{ step: SweepStep; run: StepRun }> {
    const index = this.file.steps.length;
    const runFile = stepFileOf(this.o.outFile, index + 1);
    this.o.onStepStart?.(index, load, role);
    const run = await runStep({
      // A re-run draws its own arrivals: replaying the same schedule would replay the same bursts,
      // and a false alarm from a burst would "confirm" itself.
      workload:
        role === 'confirm' ? { ...this.o.workload, seed: this.o.workload.seed + index } : this.o.workload,
      target: this.o.target,
      prompts: this.o.prompts,
      load,
      name: `${this.file.name ?? 'sweep'} · ${load.kind} ${load.value}`,
      outFile: runFile,
      testRequest: index === 0,
      stopOverSaturated: this.o.stopOverSaturated,
      saturation: this.o.saturation,
      serverMetrics: this.o.serverMetrics,
      signal: this.o.signal,
      onProgress: this.o.onProgress,
    });
    const rel = run.result.path ? path.relative(this.dir, run.result.path) : null;
    const step: SweepStep = {
      index,
      role,
      load,
      runFile: rel && !rel.startsWith('..') ? rel : run.result.path,
      runId: run.result.header.runId,
      stoppedEarly: run.stoppedEarly,
      numbers: stepNumbers(run.result.summary),
      saturation: saturationRecord(run.saturation),
      slo: null,
    };
    this.file.steps.push(step);
    if (step.stoppedEarly === 'cancelled') this.file.stopped = { reason: 'cancelled', atStep: index };
    else if (step.numbers.completed === 0) this.file.stopped = { reason: 'failed', atStep: index };
    // Over-saturation stops the climb once a re-run confirmed it (the first confirmation stands).
    else if (step.stoppedEarly === 'over-saturated' && (role === 'confirm' || role === 'search'))
      this.file.stopped ??= { reason: 'over-saturated', atStep: index };
    this.file.knee = kneesOf(this.file.steps, 2, sweepStreams(this.file));
    await this.save();
    return { step, run };
  }

  async save(): Promise<void> {
    const tmp = `${this.o.outFile}.tmp`;
    await writeFile(tmp, JSON.stringify(this.file, null, 2) + '\n');
    await rename(tmp, this.o.outFile);
  }

  done(step: SweepStep): void {
    this.o.onStep?.(step, this.file);
  }
}

async function runList(s: Sweep, loads: SweepLoad[], confirm: boolean): Promise<void> {
  for (const load of loads) {
    const { step } = await s.step(load, 'step');
    s.done(step);
    if (s.file.stopped) return;
    if (!confirm || !needsConfirm(step) || s.cancelled) continue;
    const again = await s.step(load, 'confirm');
    s.done(again.step);
    if (s.file.stopped) return;
  }
}

async function runAuto(
  s: Sweep,
  p: Extract<SweepPlan, { kind: 'rate-auto' }>,
  confirm: boolean,
): Promise<void> {
  for (;;) {
    const next = nextAutoStep(s.file.steps, { steps: p.steps, refine: p.refine, precision: 0.05, confirm });
    if (!next || s.cancelled) return;
    const { step } = await s.step(next.load, next.role);
    s.done(step);
    // Failed or cancelled ends it; a confirmed over-saturation only ends the climb (nextAutoStep).
    if (s.file.stopped && s.file.stopped.reason !== 'over-saturated') return;
  }
}

async function runSearch(s: Sweep, p: Extract<SweepPlan, { kind: 'slo-search' }>): Promise<void> {
  let ceiling: number | null = null;
  let used = 0;
  if (p.search === 'rate') {
    const c = await s.step({ kind: 'rate', value: 'inf' }, 'ceiling');
    s.done(c.step);
    used++;
    if (s.cancelled || c.step.numbers.completed === 0) return;
    ceiling = c.step.numbers.requestsPerS;
    s.file.stopped = null; // a throughput step's end is no reason to stop a search
  }
  const search = new SloSearch({ kind: p.search, precision: p.precision, maxRuns: p.maxRuns }, ceiling);
  const pooled = new Map<number, { outcomes: RequestOutcome[]; strata: number[] }>();
  const record = (): void => {
    const a = search.answer(s.cancelled);
    s.file.slo = {
      terms: p.termsText,
      search: p.search,
      passing: a.passing,
      failing: a.failing,
      reason: a.reason,
    };
  };
  for (;;) {
    const next = search.next();
    if (!next || used >= p.maxSteps || s.cancelled) break;
    const load: SweepLoad =
      p.search === 'rate' ? { kind: 'rate', value: next.load } : { kind: 'concurrency', value: next.load };
    const { step, run } = await s.step(load, 'search');
    used++;
    const pool = pooled.get(next.load) ?? { outcomes: [], strata: [] };
    pool.outcomes.push(...run.outcomes);
    pool.strata.push(run.outcomes.length);
    pooled.set(next.load, pool);
    let v = judgeSlo(p.terms, pool.outcomes, { strata: pool.strata });
    // A step stopped over-saturated had a queue growing without bound: it fails, whatever finished.
    if (step.stoppedEarly === 'over-saturated') v = { ...v, verdict: 'fail' };
    step.slo = { verdict: v.verdict, runs: pool.strata.length, checks: v.checks };
    search.record(next.load, v, pool.strata.length);
    if (step.stoppedEarly === 'cancelled') {
      s.done(step);
      break;
    }
    s.file.stopped = null; // the search goes on below a failing load
    record();
    await s.save();
    s.done(step);
  }
  record();
  await s.save();
}

/** The loads a plan is known to run before it starts (checked first: no bad step after ten minutes). */
function loadsKnown(p: SweepPlan): SweepLoad[] {
  if (p.kind === 'concurrency') return p.loads.map((value) => ({ kind: 'concurrency', value }));
  if (p.kind === 'rate') return p.loads.map((value) => ({ kind: 'rate', value }));
  if (p.kind === 'rate-auto')
    return [
      { kind: 'concurrency', value: 1 },
      { kind: 'rate', value: 'inf' },
      { kind: 'rate', value: 1 },
    ];
  return p.search === 'rate'
    ? [
        { kind: 'rate', value: 'inf' },
        { kind: 'rate', value: 1 },
      ]
    : [{ kind: 'concurrency', value: 1 }];
}

/** Runs the sweep; StepWorkloadError before any step when the workload cannot run at one of its loads. */
export async function runSweep(o: SweepOptions): Promise<SweepResult> {
  for (const l of loadsKnown(o.plan)) {
    const w = workloadAt(o.workload, l, false);
    if (typeof w === 'string') throw new StepWorkloadError(w);
  }
  // The folder of --out may not exist yet (as `run --out` does, it is made).
  await mkdir(path.dirname(o.outFile), { recursive: true });
  const s = new Sweep(o);
  await s.save();
  const p = o.plan;
  if (p.kind === 'concurrency')
    await runList(
      s,
      [...p.loads].sort((a, b) => a - b).map((value) => ({ kind: 'concurrency', value })),
      false,
    );
  else if (p.kind === 'rate')
    await runList(
      s,
      [...p.loads]
        .sort((a, b) => (a === 'inf' ? 1 : b === 'inf' ? -1 : a - b))
        .map((value) => ({ kind: 'rate', value })),
      o.stopOverSaturated,
    );
  else if (p.kind === 'rate-auto') await runAuto(s, p, o.stopOverSaturated);
  else await runSearch(s, p);
  if (s.cancelled && !s.file.stopped)
    s.file.stopped = { reason: 'cancelled', atStep: s.file.steps.length - 1 };
  await s.save();
  return { file: s.file, path: o.outFile, cancelled: s.cancelled };
}
