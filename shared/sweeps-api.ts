/**
 * The sweep part of the contract (shared/api.ts): what the app's Sweep mode sends to start a sweep
 * (the workload form's run, plus a plan in the CLI's own words: electron/runs/sweep/plan.ts), the
 * sweep files it lists and opens, and the events of a sweep going on, one per step boundary.
 */
import { z } from 'zod';
import { StartRunInput } from './runs-api.ts';
import type { SweepFile, SweepLoad, SweepStep } from './runs/sweep/file.ts';

/** A sweep file in the runs folder, by name (`sweep-20261126-031500.json`); never a path. */
export const sweepKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9._-]+\.json$/, 'not a sweep key');

export const SweepPlanInput = z.object({
  /** `1,2,4,8`: closed loop at each concurrency. */
  concurrency: z.string().max(500).optional(),
  /** `1,2,4,inf` or `auto`. */
  rate: z.string().max(500).optional(),
  /** With rate auto: the rates between the baseline and the ceiling (1–50). */
  steps: z.number().int().min(1).max(50).optional(),
  /** With rate auto: most rates run after those, around the knee (0–20, default 4). */
  refine: z.number().int().min(0).max(20).optional(),
  /** `p99_ttft_ms<=500,p99_tpot_ms<=50`: search for the highest load meeting them. */
  slo: z.string().max(500).optional(),
  search: z.enum(['rate', 'concurrency']).optional(),
  maxSteps: z.number().int().min(2).max(50).optional(),
});
export type SweepPlanInput = z.infer<typeof SweepPlanInput>;

/**
 * The Sweep form's labels of the plan's fields: the core names them in its messages about an app
 * sweep's plan (the CLI names its flags instead).
 */
export const SWEEP_FORM_LABELS = {
  rate: 'Rates (req/s)',
  concurrency: 'Concurrencies',
  steps: 'Steps between',
  slo: 'SLO terms',
  search: 'Search',
} as const;

export const StartSweepInput = StartRunInput.omit({ repeat: true }).extend({
  plan: SweepPlanInput,
  /** Stop the climb at an over-saturated step (default true). */
  stopOverSaturated: z.boolean().optional(),
});
export type StartSweepInput = z.infer<typeof StartSweepInput>;

/** A sweep file in the list. */
export interface SweepEntry {
  key: string;
  name: string | null;
  createdAt: string;
  url: string;
  model: string;
  plan: SweepFile['plan']['kind'];
  steps: number;
  running: boolean;
}

export interface SweepList {
  sweeps: SweepEntry[];
  /** .json files in the folder that are not sweep files, with why. */
  skipped: { file: string; error: string }[];
}

/** One sweep event: the sweep's id and file key, then what happened. */
export type SweepEvent = { sweepId: string; key: string } & (
  | { kind: 'started'; name: string | null; url: string; model: string }
  | { kind: 'step-started'; index: number; load: SweepLoad; role: SweepStep['role'] }
  | {
      kind: 'step-progress';
      index: number;
      completed: number;
      failed: number;
      total: number | null;
      fraction: number;
    }
  /** The step's numbers, its SLO verdict (search steps) and the file as it now stands. */
  | { kind: 'step-finished'; step: SweepStep; file: SweepFile }
  /**
   * The step was over-saturated and stopped early; then: `rerun` — it runs again at once to confirm,
   * `confirmed` — the re-run agreed, no higher load will run, `fail` — an SLO search's load fails.
   */
  | {
      kind: 'over-saturated';
      index: number;
      load: SweepLoad;
      atMs: number;
      then: 'rerun' | 'confirmed' | 'fail';
      /** Why, in words (sweep-text.ts saturationReason; "" for an older verdict). */
      reason?: string;
    }
  | { kind: 'slo-verdict'; index: number; load: SweepLoad; verdict: 'pass' | 'fail' | 'noise' }
  | { kind: 'done'; file: SweepFile | null; cancelled: boolean; error: string | null }
);
