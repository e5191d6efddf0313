/**
 * The sweep file (`tokenscope sweep`): one JSON document that ties a sweep's steps together — the
 * load of each, its run file, the numbers the curves need, over-saturation, the knee and the SLO
 * search's answer. Versioned and validated with zod when read (a trust boundary: files are shared).
 * Each step is an ordinary run file beside it; this file only points at them and keeps summaries.
 */
import { z } from 'zod';
import { fail, ok, type Result } from '../../result.ts';

export const SWEEP_FILE_FORMAT = 'tokenscope-sweep';
export const SWEEP_FILE_VERSION = 1;

const num = z.number();
const nnum = z.number().nullable();

export const SweepLoad = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rate'), value: z.union([z.number().positive(), z.literal('inf')]) }),
  z.object({ kind: z.literal('concurrency'), value: z.number().int().min(1) }),
]);
export type SweepLoad = z.infer<typeof SweepLoad>;

const Pcts = z.object({ p50: num, p90: nnum, p99: nnum }).nullable();

/** What a step's curves need, from its run summary (step.ts). */
export const StepNumbers = z.object({
  completed: z.number().int().min(0),
  failed: z.number().int().min(0),
  durationS: num,
  requestsPerS: num,
  outputTokPerS: num,
  /** Requests per second meeting every goodput SLO (null without one). */
  goodputReqPerS: nnum,
  /** Output tokens per second one user sees while its answer streams: 1000 / median TPOT. */
  tokPerSPerUser: nnum,
  maxConcurrent: nnum,
  ttft: Pcts,
  itl: Pcts,
  tpot: Pcts,
  e2el: Pcts,
  /** Targets that answer whole (embeddings, rerank; older files and token targets: absent): the batch's throughput. */
  inputsPerS: num.optional(),
  inputTokPerS: num.optional(),
});
export type StepNumbers = z.infer<typeof StepNumbers>;

/**
 * A series' fitted slope (per second), its rise over the step as a share of its start (null: from 0),
 * its rise in its own unit (ms, requests) and the rise it needed to count (older files: absent),
 * windows fitted.
 */
const Fit = z
  .object({
    slopePerS: num,
    rise: nnum,
    gain: num.optional(),
    minGain: num.optional(),
    windows: z.number().int(),
    significant: z.boolean(),
  })
  .nullable();
/**
 * The queue's growth over the judged window (saturation.ts, signal 1): requests arrived and
 * completed in it, outstanding's growth, and the growth the arrivals' noise explains (older files:
 * absent).
 */
const Queue = z
  .object({
    windowMs: num,
    arrived: num,
    completed: num,
    growth: num,
    halves: z.tuple([num, num]),
    tolerance: num,
    significant: z.boolean(),
  })
  .nullable();
const StepSaturation = z.object({
  overSaturated: z.boolean(),
  /**
   * The step was long enough, with data enough, to be judged either way (older files: absent). A
   * step that was not — too short, or a client too busy to send its rate — is no evidence the
   * server kept up: rate auto does not count it as a good rate.
   */
  judged: z.boolean().optional(),
  /** ms into the step when it was judged (when it was stopped, if it was). */
  atMs: num,
  /** The latency watched: TTFT; E2E for a target that answers whole (embeddings, rerank). */
  ttft: Fit,
  outstanding: Fit,
  queue: Queue.optional(),
});

const Check = z.object({
  key: z.string(),
  limit: num,
  value: nnum,
  ci: z.tuple([num, num]).nullable(),
  verdict: z.enum(['pass', 'fail', 'noise']),
  pointMeets: z.boolean(),
});

export const SweepStep = z.object({
  index: z.number().int().min(0),
  /**
   * baseline: concurrency 1 · ceiling: rate inf · step: a listed or spaced load · search: the SLO
   * search · confirm: the step before it again, to confirm its over-saturation · refine: a rate
   * auto sweep's extra rate between the last good and the first over-saturated one.
   */
  role: z.enum(['baseline', 'ceiling', 'step', 'search', 'confirm', 'refine']),
  load: SweepLoad,
  /** The run file, relative to the sweep file's folder when beside it (null: could not be written). */
  runFile: z.string().nullable(),
  runId: z.string(),
  /** Stopped early (over-saturation or a cancel): the numbers are of what finished. */
  stoppedEarly: z.enum(['over-saturated', 'cancelled']).nullable(),
  numbers: StepNumbers,
  saturation: StepSaturation.nullable(),
  /** The SLO verdict of every run at this load so far, pooled (search steps). */
  slo: z
    .object({ verdict: z.enum(['pass', 'fail', 'noise']), runs: z.number().int(), checks: z.array(Check) })
    .nullable(),
});
export type SweepStep = z.infer<typeof SweepStep>;

const KneeRec = z
  .object({
    stepIndex: z.number().int(),
    load: num,
    throughput: num,
    latency: num,
    elasticity: num.or(z.literal('inf')),
  })
  .nullable();

const BoundRec = z
  .object({ load: num, decidedBy: z.enum(['interval', 'point']), runs: z.number().int() })
  .nullable();

const SweepFileSchema = z.object({
  format: z.literal(SWEEP_FILE_FORMAT),
  version: z.literal(SWEEP_FILE_VERSION),
  sweepId: z.string(),
  name: z.string().nullable(),
  createdAt: z.string(),
  target: z.object({ url: z.string(), dialect: z.string(), model: z.string() }),
  /** The workload every step ran, without its target and the load each step sets (rate; concurrency when swept). */
  workload: z.record(z.string(), z.unknown()),
  plan: z.object({
    kind: z.enum(['concurrency', 'rate', 'rate-auto', 'slo-search']),
    loads: z.array(num).optional(),
    autoSteps: z.number().int().optional(),
    /** Most rates a rate auto sweep runs after its grid (older files: absent, none). */
    autoRefine: z.number().int().optional(),
    slo: z.string().optional(),
    search: z.enum(['rate', 'concurrency']).optional(),
    maxSteps: z.number().int().optional(),
    precision: num.optional(),
    stopOverSaturated: z.boolean(),
  }),
  steps: z.array(SweepStep),
  /**
   * Why the sweep went no further than its plan (null: it ran its plan). Over-saturated: at the
   * re-run that confirmed it (a rate auto sweep still refines below it).
   */
  stopped: z
    .object({ reason: z.enum(['over-saturated', 'cancelled', 'failed']), atStep: z.number().int() })
    .nullable(),
  /** The knee on p99 TTFT and on p99 E2E against output tokens/s (knee.ts). */
  /** minRise: no knee unless the latency at least multiplied by this over the sweep. */
  knee: z.object({ ttft: KneeRec, e2el: KneeRec, minRise: num }),
  slo: z
    .object({
      terms: z.string(),
      search: z.enum(['rate', 'concurrency']),
      passing: BoundRec,
      failing: BoundRec,
      reason: z.enum(['converged', 'budget', 'none-passes', 'stopped']),
    })
    .nullable(),
});
export type SweepFile = z.infer<typeof SweepFileSchema>;

/** A sweep file's JSON, checked; or what is wrong with it. */
export function parseSweepFile(data: unknown): Result<SweepFile, string> {
  const r = SweepFileSchema.safeParse(data);
  if (r.success) return ok(r.data);
  const i = r.error.issues[0]!;
  return fail(
    `not a sweep file (version ${SWEEP_FILE_VERSION}): ${i.path.join('.') || '(top)'}: ${i.message}`,
  );
}
