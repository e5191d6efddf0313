/**
 * `tokenscope sweep [WORKLOAD]` — the workload at a series of loads (electron/runs/sweep/sweep.ts): its
 * plan from the flags, a table row per step as it completes (stdout), progress on stderr, then the
 * knee and the SLO answer; or the sweep file as one JSON object with --json.
 *
 * Exit codes: 0 ok (an SLO search that found nothing passing is still a result) · 1 the first step
 * failed every request, or the sweep file could not be written · 2 bad flags or workload ·
 * 130 cancelled.
 */
import path from 'node:path';
import { runsDir } from '../platform/paths.ts';
import { stepHeader, stepRow, sweepFooter, loadText } from '../../shared/runs/sweep/text.ts';
import { runSweep } from '../runs/sweep/sweep.ts';
import { planOf, planProblemFor, sweepFileName, type SweepPlanFlags } from '../runs/sweep/plan.ts';
import { isNonStreamingDialect } from '../../shared/dialects.ts';
import { StepWorkloadError } from '../runs/sweep/step-run.ts';
import { TestRequestError } from '../runs/runner.ts';
import { readyToRun, runTargetOf, serverMetricsOf } from './run.ts';
import type { RunCliOptions } from './run-flags.ts';
import { progressWriter } from './run-output.ts';
import { errorMessage } from '../../shared/result.ts';

export type SweepCliOptions = Omit<RunCliOptions, 'concurrency' | 'rate' | 'repeat' | 'shard' | 'startAt'> &
  SweepPlanFlags & {
    /** Commander's --no-stop-over-saturated. */
    stopOverSaturated?: boolean;
    saturationMin?: number;
  };

export async function runSweepCommand(workloadFile: string | undefined, o: SweepCliOptions): Promise<number> {
  const err = (msg: string, code = 2): number => {
    if (o.json) process.stdout.write(JSON.stringify({ error: msg }) + '\n');
    else process.stderr.write(`error: ${msg}\n`);
    return code;
  };
  const plan = planOf(o);
  if (typeof plan === 'string') return err(plan);
  const { concurrency: _c, rate: _r, ...rest } = o;
  // The workload is checked at a placeholder load (each step sets its own, checked again by runSweep).
  const p = plan.plan;
  const probe =
    p.kind === 'concurrency'
      ? { concurrency: p.loads[0] }
      : p.kind === 'slo-search' && p.search === 'concurrency'
        ? { concurrency: 1 }
        : { rate: '1', ...(plan.cap !== undefined ? { concurrency: plan.cap } : {}) };
  const ready = await readyToRun(workloadFile, { ...rest, ...probe });
  if ('problem' in ready) return err(ready.problem, ready.code);
  const { w, target, model, prompts } = ready;
  const misfit = planProblemFor(p, target.dialect);
  if (misfit) return err(misfit);
  // Embeddings and rerank answer whole: their own columns (shared/runs/sweep/pooling.ts).
  const streams = !isNonStreamingDialect(target.dialect);
  const out = o.out ?? path.join(runsDir(), sweepFileName(new Date()));
  const progress = progressWriter({ quiet: o.quiet || o.json });
  const ac = new AbortController();
  const onSig = (): void => ac.abort();
  process.on('SIGINT', onSig);
  const say = (s: string): void => {
    if (!o.json) process.stdout.write(s);
  };
  if (!o.quiet && !o.json)
    process.stderr.write(
      `target: ${target.url} (${target.dialect}, model ${model}) · prompts: ${prompts.description}\nsweep file: ${out}\n`,
    );
  try {
    const r = await runSweep({
      workload: w,
      target: runTargetOf(ready),
      prompts,
      plan: plan.plan,
      outFile: out,
      name: o.name ?? null,
      stopOverSaturated: o.stopOverSaturated !== false,
      saturation: o.saturationMin !== undefined ? { minMs: o.saturationMin * 1000 } : undefined,
      serverMetrics: serverMetricsOf(ready, o),
      signal: ac.signal,
      onStepStart: (i, load, role) => {
        if (i === 0) say(stepHeader(streams) + '\n');
        if (!o.quiet && !o.json)
          process.stderr.write(
            `step ${i + 1}: ${loadText(load)}${role === 'step' || role === 'search' ? '' : ` (${role})`}\n`,
          );
      },
      onProgress: progress.onProgress,
      onStep: (s) => {
        progress.end();
        say(stepRow(s, streams) + '\n');
      },
    });
    progress.end();
    if (o.json) process.stdout.write(JSON.stringify({ sweep_file: r.path, ...r.file }) + '\n');
    else say('\n' + sweepFooter(r.file) + `Sweep file: ${r.path}\n`);
    if (r.cancelled) return 130;
    return r.file.steps[0] && r.file.steps[0].numbers.completed === 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof StepWorkloadError) return err(e.message);
    if (e instanceof TestRequestError)
      return err(
        `${e.message}\n(check the target, model, dialect and key; --no-test-request skips the test)`,
        1,
      );
    return err(`sweep failed: ${errorMessage(e)}`, 1);
  } finally {
    process.removeListener('SIGINT', onSig);
  }
}
