/**
 * The Sweep mode's state (zustand): which mode the Runs tab is in, the plan form, the sweep going
 * on (its file as of the last finished step, the step in progress), the sweep files opened to view
 * or overlay, and the runs folder's sweep list. Events (sweep-events.ts) and actions
 * (sweep-actions.ts) write it; components read it with narrow selectors.
 */
import { create } from 'zustand';
import type { SweepFile, SweepLoad, SweepStep } from '../../shared/runs/sweep/file.ts';
import type { SweepEntry } from '../../shared/sweeps-api.ts';

export type PlanKind = 'auto' | 'rate' | 'concurrency' | 'slo';

export interface PlanForm {
  kind: PlanKind;
  /** Rates (req/s, or inf) or concurrencies, comma-separated. */
  rates: string;
  concurrencies: string;
  /** rate auto: the rates between the baseline and the ceiling. */
  steps: number;
  /** SLO terms, e.g. p99_ttft_ms<=500 (a search for the highest load meeting them). */
  slo: string;
  search: 'rate' | 'concurrency';
}

export interface LiveSweep {
  sweepId: string;
  key: string;
  name: string | null;
  url: string;
  model: string;
  file: SweepFile | null;
  /** The step going on (null between steps and at the end). */
  current: { index: number; load: SweepLoad; role: SweepStep['role']; fraction: number } | null;
  /** What the core said along the way: over-saturation stops, SLO verdicts. */
  notes: string[];
  finished: boolean;
  cancelled: boolean;
  error: string | null;
}

/** A sweep file opened to view (from the runs folder or from disk). */
export interface OpenedSweep {
  id: string;
  label: string;
  file: SweepFile;
}

export interface SweepState {
  mode: 'run' | 'sweep';
  plan: PlanForm;
  starting: boolean;
  issues: string[];
  live: LiveSweep | null;
  /** Up to MAX_OVERLAY sweep files drawn together (the live sweep, when there is one, comes first). */
  opened: OpenedSweep[];
  list: SweepEntry[];
  listError: string | null;
}

export const MAX_OVERLAY = 4;

/** @internal exported for its tests */
export const DEFAULT_PLAN: PlanForm = {
  kind: 'auto',
  rates: '1,2,4,8',
  concurrencies: '1,2,4,8',
  steps: 4,
  slo: '',
  search: 'rate',
};

export const useSweepStore = create<SweepState>(() => ({
  mode: 'run',
  plan: DEFAULT_PLAN,
  starting: false,
  issues: [],
  live: null,
  opened: [],
  list: [],
  listError: null,
}));

export function setPlan(p: Partial<PlanForm>): void {
  useSweepStore.setState((s) => ({ plan: { ...s.plan, ...p }, issues: [] }));
}
