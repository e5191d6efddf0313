/**
 * One step of a sweep: the ordinary runner (runner.ts) on the sweep's workload at the step's load,
 * watched for over-saturation (shared/runs/sweep/saturation.ts) on every progress tick and stopped
 * early when the server no longer keeps up. Only open-loop steps (a finite rate) can over-saturate:
 * a fixed concurrency cannot queue more than its limit, and a rate-inf step sends everything at once.
 * A target that answers whole (embeddings, rerank) is watched on E2E where a stream's is on TTFT.
 */
import { randomUUID } from 'node:crypto';
import { isNonStreamingDialect } from '../../../shared/dialects.ts';
import { isCancelledLine, finishedMs, outcomeOfLine } from '../../../shared/runs/summary/outcome.ts';
import type { RunProgress } from '../../../shared/runs/live/progress-types.ts';
import type { RequestOutcome } from '../../../shared/runs/summary/outcome.ts';
import {
  SaturationMonitor,
  type SaturationOptions,
  type SaturationVerdict,
  type SlopeFit,
} from '../../../shared/runs/sweep/saturation.ts';
import type { SweepLoad, SweepStep } from '../../../shared/runs/sweep/file.ts';
import { arrivalProcessOf, parseWorkload, type Workload } from '../../../shared/runs/workload/workload.ts';
import type { PromptProvider } from '../prompts/items.ts';
import type { RunTargetSpec } from '../request-spec.ts';
import { runWorkload, type RunResult } from '../runner.ts';
import type { ScrapeTarget } from '../../metrics/scraper.ts';

export interface StepRunOptions {
  workload: Workload;
  target: RunTargetSpec;
  prompts: PromptProvider;
  load: SweepLoad;
  name: string;
  outFile: string | null;
  /** Send the test request first (the sweep's first step only). */
  testRequest: boolean;
  stopOverSaturated: boolean;
  saturation?: SaturationOptions;
  serverMetrics?: ScrapeTarget | null;
  signal?: AbortSignal;
  onProgress?: (p: RunProgress) => void;
}

export interface StepRun {
  result: RunResult;
  /** Measured requests that were not cancelled, as the summary counts them. */
  outcomes: RequestOutcome[];
  saturation: SaturationVerdict | null;
  stoppedEarly: SweepStep['stoppedEarly'];
}

/** The workload at a step's load: its rate and concurrency set, checked again as a whole. */
export function workloadAt(base: Workload, load: SweepLoad, testRequest: boolean): Workload | string {
  const input = {
    ...base,
    testRequest: testRequest && base.testRequest,
    ...(load.kind === 'rate'
      ? { rate: load.value }
      : { maxConcurrency: load.value, rate: 'inf' as const, rampUp: undefined }),
  };
  const r = parseWorkload(input);
  if (r.ok) return r.value;
  const i = r.error[0];
  return `the workload at ${load.kind} ${load.value}: ${i ? `${i.path}: ${i.message}` : 'invalid'}`;
}

export class StepWorkloadError extends Error {}

/**
 * When a step may first be judged, unless set (--saturation-min): 3 s, or half the step's arrivals
 * when they take less (N requests at the rate, or its duration) — else a short step (100 requests
 * at 40 req/s) would end unjudged, and rate auto could not count it as good.
 * @internal exported for its tests
 */
export function defaultMinMs(w: Workload, rate: number): number {
  const spans = [
    w.requests !== undefined ? (w.requests / rate) * 1000 : Infinity,
    (w.durationS ?? Infinity) * 1000,
  ];
  return Math.min(3000, Math.min(...spans) / 2);
}

/** The squared coefficient of variation of the workload's arrival gaps (shared/runs/sweep/saturation.ts). */
function arrivalCv2(w: Workload): number {
  const p = arrivalProcessOf(w);
  return p === 'constant' ? 0 : p === 'poisson' ? 1 : 1 / w.burstiness;
}

export async function runStep(o: StepRunOptions): Promise<StepRun> {
  const w = workloadAt(o.workload, o.load, o.testRequest);
  if (typeof w === 'string') throw new StepWorkloadError(w);
  const ac = new AbortController();
  const onOuter = (): void => ac.abort();
  if (o.signal?.aborted) ac.abort();
  o.signal?.addEventListener('abort', onOuter, { once: true });
  const watched = o.load.kind === 'rate' && o.load.value !== 'inf';
  const streams = !isNonStreamingDialect(o.target.dialect);
  const monitor = watched
    ? new SaturationMonitor({
        offeredPerS: o.load.value as number,
        minMs: defaultMinMs(w, o.load.value as number),
        arrivalCv2: arrivalCv2(w),
        ...o.saturation,
      })
    : null;
  let verdict: SaturationVerdict | null = null;
  let stopped = false;
  try {
    const result = await runWorkload({
      workload: w,
      target: o.target,
      prompts: o.prompts,
      runId: randomUUID(),
      name: o.name,
      outFile: o.outFile,
      signal: ac.signal,
      serverMetrics: o.serverMetrics ?? null,
      keepLines: true, // the step's outcomes (below)
      // Outstanding requests are sampled on progress ticks: 20 a second gives even a short step's
      // windows a few samples each (the CLI and the app redraw at their own pace).
      ...(monitor ? { progressIntervalMs: 50 } : {}),
      onRequestDone: (line) => {
        // An answer that comes whole (embeddings, rerank) has no first token: its wait shows in
        // E2E, which is then both the latency watched and the service time (no decode).
        const first = streams ? line.ttftMs : line.e2eMs;
        if (!monitor || line.warmup || line.status !== 'ok' || first === null) return;
        // Waiting counts from the request's arrival: under a concurrency cap (--concurrency with
        // --rate) the queue grows on this side, in the wait for a slot, not in TTFT.
        const q = line.queueMs ?? 0;
        monitor.addRequest(finishedMs(line), first + q, (line.e2eMs ?? NaN) + q);
      },
      onProgress: (p) => {
        o.onProgress?.(p);
        if (!monitor || p.phase !== 'running' || stopped) return;
        monitor.addOutstanding(p.elapsedMs, p.inFlight + p.queued);
        verdict = monitor.check(p.elapsedMs);
        if (verdict.overSaturated && o.stopOverSaturated) {
          stopped = true;
          ac.abort();
        }
      },
    });
    const outcomes = (result.lines ?? [])
      .filter((l) => !l.warmup && !isCancelledLine(l))
      .map((l) => outcomeOfLine(l));
    const userCancel = o.signal?.aborted === true;
    return {
      result,
      outcomes,
      saturation: verdict,
      stoppedEarly: stopped ? 'over-saturated' : userCancel && result.cancelled ? 'cancelled' : null,
    };
  } finally {
    o.signal?.removeEventListener('abort', onOuter);
  }
}

/** A verdict as the sweep file keeps it (no Infinity in JSON). */
export function saturationRecord(v: SaturationVerdict | null): SweepStep['saturation'] {
  if (!v) return null;
  const fit = (f: SlopeFit | null) =>
    f && {
      slopePerS: f.slope,
      rise: Number.isFinite(f.rise) ? f.rise : null,
      gain: f.gain,
      minGain: f.minGain,
      windows: f.n,
      significant: f.significant,
    };
  return {
    overSaturated: v.overSaturated,
    judged: v.judged,
    atMs: v.atMs,
    ttft: fit(v.ttft),
    outstanding: fit(v.outstanding),
    queue: v.queue,
  };
}
