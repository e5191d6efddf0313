/**
 * Load sweeps for the app: one at a time, never beside a run (they share the server), through the
 * CLI's own driver (electron/runs/sweep/sweep.ts, its plan from runs/sweep-plan.ts). The sweep file and
 * its step runs go in the runs folder; onSweepProgress reports each step's start, progress and
 * numbers, an over-saturation stop, SLO verdicts and the end. Lists and opens sweep files too.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSweepFile, type SweepFile } from '../../shared/runs/sweep/file.ts';
import { saturationReason } from '../../shared/runs/sweep/text.ts';
import {
  SWEEP_FORM_LABELS,
  type StartSweepInput,
  type SweepEvent,
  type SweepList,
} from '../../shared/sweeps-api.ts';
import { runSweep } from '../runs/sweep/sweep.ts';
import { planOf, planProblemFor, sweepFileName } from '../runs/sweep/plan.ts';
import { isNonStreamingDialect } from '../../shared/dialects.ts';
import { RunError, type RunService } from './runs-service.ts';
import { scrapeTargetOf } from './metrics-service.ts';
import type { Emit } from './emit.ts';
import { errorMessage } from '../../shared/result.ts';

interface Active {
  sweepId: string;
  key: string;
  ac: AbortController;
  done: Promise<void>;
}

/** Progress ticks of a step, at most this often (the runner ticks every 250 ms). */
const PROGRESS_MS = 250;

export class SweepService {
  private active: Active | null = null;

  constructor(
    private readonly runs: RunService,
    private readonly emit: Emit,
    private readonly opts: { saturationMinMs?: number } = {},
  ) {}

  /** Why a run cannot start now (a sweep holds the server), or null. */
  busyText(): string | null {
    return this.active
      ? `a sweep is going on (${this.active.key}); cancel it or wait for it to finish`
      : null;
  }

  get running(): { sweepId: string; key: string } | null {
    return this.active ? { sweepId: this.active.sweepId, key: this.active.key } : null;
  }

  async start(input: StartSweepInput): Promise<{ sweepId: string; key: string }> {
    if (this.active) throw new RunError(this.busyText()!, 'busy');
    if (this.runs.running) throw new RunError(`a run is going on (${this.runs.running.key})`, 'busy');
    // The app's messages name the form's fields, not the CLI's flags.
    const plan = planOf(input.plan, SWEEP_FORM_LABELS);
    if (typeof plan === 'string') throw new RunError(plan);
    const { plan: _p, stopOverSaturated: _s, ...runInput } = input;
    const ready = await this.runs.prepare(runInput);
    const misfit = planProblemFor(plan.plan, ready.dialect, SWEEP_FORM_LABELS);
    if (misfit) throw new RunError(misfit);
    if (this.active || this.runs.running) throw new RunError('a run started meanwhile', 'busy');
    const sweepId = randomUUID();
    // The runs folder appears with its first run: a sweep may come first.
    await mkdir(this.runs.dir, { recursive: true });
    let key = sweepFileName(new Date());
    if ((await this.keys()).has(key)) key = key.replace(/\.json$/, `-${sweepId.slice(0, 6)}.json`);
    const ac = new AbortController();
    const active: Active = { sweepId, key, ac, done: Promise.resolve() };
    this.active = active;
    const say = (e: SweepEvent): void => this.emit('onSweepProgress', e);
    const base = { sweepId, key };
    say({
      ...base,
      kind: 'started',
      name: input.name || ready.w.name || null,
      url: ready.t.baseUrl,
      model: ready.model,
    });
    let lastTick = 0;
    let stepIndex = 0;
    const t = ready.t;
    active.done = runSweep({
      workload: ready.w,
      target: {
        url: t.baseUrl,
        dialect: ready.dialect,
        model: ready.model,
        headers: t.headers,
        apiKey: t.apiKey,
        insecureTls: t.insecureTls,
      },
      prompts: ready.prompts,
      plan: plan.plan,
      outFile: path.join(this.runs.dir, key),
      name: input.name || null,
      stopOverSaturated: input.stopOverSaturated !== false,
      saturation: this.opts.saturationMinMs !== undefined ? { minMs: this.opts.saturationMinMs } : undefined,
      serverMetrics: input.serverMetrics === false ? null : scrapeTargetOf(t),
      signal: ac.signal,
      onStepStart: (index, load, role) => {
        stepIndex = index;
        lastTick = 0;
        say({ ...base, kind: 'step-started', index, load, role });
      },
      onProgress: (p) => {
        if (p.phase !== 'running' || p.elapsedMs - lastTick < PROGRESS_MS) return;
        lastTick = p.elapsedMs;
        const { completed, failed, total, fraction } = p;
        say({ ...base, kind: 'step-progress', index: stepIndex, completed, failed, total, fraction });
      },
      onStep: (step, file) => {
        say({ ...base, kind: 'step-finished', step: structuredClone(step), file: structuredClone(file) });
        if (step.stoppedEarly === 'over-saturated')
          say({
            ...base,
            kind: 'over-saturated',
            index: step.index,
            load: step.load,
            atMs: step.saturation?.atMs ?? 0,
            then: step.role === 'search' ? 'fail' : step.role === 'confirm' ? 'confirmed' : 'rerun',
            reason: saturationReason(step.saturation, !isNonStreamingDialect(ready.dialect)),
          });
        if (step.slo)
          say({
            ...base,
            kind: 'slo-verdict',
            index: step.index,
            load: step.load,
            verdict: step.slo.verdict,
          });
        void this.runsChanged();
      },
    }).then(
      (r) => this.finish({ ...base, kind: 'done', file: r.file, cancelled: r.cancelled, error: null }),
      async (e: unknown) =>
        this.finish({
          ...base,
          kind: 'done',
          file: await this.open(key).catch(() => null),
          cancelled: ac.signal.aborted,
          error: errorMessage(e),
        }),
    );
    return { sweepId, key };
  }

  private finish(e: SweepEvent): void {
    this.active = null;
    this.emit('onSweepProgress', e);
    void this.runsChanged();
  }

  private async runsChanged(): Promise<void> {
    try {
      this.emit('onRunsChanged', await this.runs.list());
    } catch {
      // the folder could not be read: the next listRuns reports it
    }
  }

  cancel(id: string): boolean {
    if (!this.active || (this.active.sweepId !== id && this.active.key !== id)) return false;
    this.active.ac.abort();
    return true;
  }

  async idle(): Promise<void> {
    await this.active?.done;
  }

  private async keys(): Promise<Set<string>> {
    try {
      return new Set((await readdir(this.runs.dir)).filter((n) => n.endsWith('.json')));
    } catch {
      return new Set();
    }
  }

  /** The sweep files in the runs folder, newest first; other .json files are skipped with why. */
  async list(): Promise<SweepList> {
    const out: SweepList = { sweeps: [], skipped: [] };
    for (const file of [...(await this.keys())].sort().reverse()) {
      try {
        const f = await this.open(file);
        out.sweeps.push({
          key: file,
          name: f.name,
          createdAt: f.createdAt,
          url: f.target.url,
          model: f.target.model,
          plan: f.plan.kind,
          steps: f.steps.length,
          running: this.active?.key === file,
        });
      } catch (e) {
        out.skipped.push({ file, error: errorMessage(e) });
      }
    }
    return out;
  }

  /** A sweep file of the runs folder, checked against its schema. */
  async open(key: string): Promise<SweepFile> {
    if (!/^[A-Za-z0-9._-]+\.json$/.test(key) || key.startsWith('.'))
      throw new RunError(`not a sweep key: ${key}`);
    let text: string;
    try {
      text = await readFile(path.join(this.runs.dir, key), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new RunError(`No sweep ${key}.`, 'not-found');
      throw e;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new RunError(`${key}: not JSON (${errorMessage(e)})`);
    }
    const r = parseSweepFile(json);
    if (!r.ok) throw new RunError(`${key}: ${r.error}`);
    return r.value;
  }

  async dispose(): Promise<void> {
    this.active?.ac.abort();
    await this.active?.done;
  }
}
