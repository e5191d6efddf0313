/**
 * The SLO search of a sweep: the highest load (rate or concurrency) whose runs meet every SLO, by
 * bracketing then bisection. Pure bookkeeping; electron/runs/sweep/sweep.ts runs the steps it asks for.
 *
 * - Rates start at the server's measured ceiling (a rate-inf step's request throughput): a pass
 *   there raises the load by 25 % until one fails; a fail halves it until one passes. Concurrency
 *   starts at `start` (default 1) and doubles until one fails.
 * - Then bisection between the highest passing and the lowest failing load, until the bracket is
 *   within `precision` of the passing load (rates; concurrency: adjacent integers), or the step
 *   budget is spent.
 * - A load whose verdict is inside the noise (slo.ts: an SLO's 95 % interval straddles its
 *   limit) is run again, up to `maxRuns` runs pooled; still undecided, the point estimate decides
 *   and the bound is marked as decided on the point estimate, not the interval.
 */
import type { StepSloVerdict } from './slo.ts';

export interface SearchOptions {
  kind: 'rate' | 'concurrency';
  /** Relative width of the final bracket, (failing − passing) / passing (default 0.05). */
  precision?: number;
  /** Runs pooled at one load when its verdict is inside the noise (default 2). */
  maxRuns?: number;
  /** Lowest load tried (default 0.05 req/s, or concurrency 1). */
  min?: number;
  /** First load of a concurrency search (default 1). */
  start?: number;
}

export interface Bound {
  load: number;
  /** 'interval': every SLO's 95 % interval on one side; 'point': decided on the point estimate after repeats. */
  decidedBy: 'interval' | 'point';
  runs: number;
}

export interface SearchAnswer {
  /** Highest load that met every SLO (null: none did). */
  passing: Bound | null;
  /** Lowest load that broke one (null: none did, within the loads tried). */
  failing: Bound | null;
  reason: 'converged' | 'budget' | 'none-passes' | 'stopped';
}

export type NextLoad = { load: number; repeat: boolean } | null;

export class SloSearch {
  private lo: Bound | null = null;
  private hi: Bound | null = null;
  private pending: { load: number; runs: number; decided: boolean } | null = null;
  private noneBelow = false;
  private readonly precision: number;
  private readonly maxRuns: number;
  private readonly min: number;

  constructor(
    private readonly o: SearchOptions,
    /** Rates: the measured ceiling, req/s (where the search starts). */
    private readonly ceiling: number | null = null,
  ) {
    this.precision = o.precision ?? 0.05;
    this.maxRuns = o.maxRuns ?? 2;
    this.min = o.min ?? (o.kind === 'rate' ? 0.05 : 1);
  }

  private round(x: number): number {
    return this.o.kind === 'concurrency'
      ? Math.max(this.min, Math.round(x))
      : Math.max(this.min, Number(x.toPrecision(4)));
  }

  /** The next load to run, or null when the search is over. */
  next(): NextLoad {
    const p = this.pending;
    if (p && !p.decided) return { load: p.load, repeat: true };
    if (this.noneBelow) return null;
    const { lo, hi } = this;
    if (!lo && !hi)
      return {
        load: this.round(this.o.kind === 'rate' ? (this.ceiling ?? 1) : (this.o.start ?? 1)),
        repeat: false,
      };
    // Above a measured ceiling every rate is over capacity sooner or later: climb gently from it.
    if (lo && !hi) return { load: this.round(lo.load * (this.ceiling !== null ? 1.25 : 2)), repeat: false };
    if (!lo && hi) {
      if (hi.load <= this.min) return null;
      return { load: this.round(Math.max(this.min, hi.load / 2)), repeat: false };
    }
    if (this.converged()) return null;
    const mid = this.round((lo!.load + hi!.load) / 2);
    if (mid <= lo!.load || mid >= hi!.load) return null;
    return { load: mid, repeat: false };
  }

  private converged(): boolean {
    const { lo, hi } = this;
    if (!lo || !hi) return false;
    return this.o.kind === 'concurrency'
      ? hi.load - lo.load <= 1
      : (hi.load - lo.load) / lo.load <= this.precision;
  }

  /** A run at `load` finished; `v` is the verdict of every run at that load pooled, `runs` how many. */
  record(load: number, v: StepSloVerdict, runs: number): void {
    const undecided = v.verdict === 'noise' && runs < this.maxRuns;
    this.pending = { load, runs, decided: !undecided };
    if (undecided) return;
    let passed: boolean;
    let decidedBy: Bound['decidedBy'] = 'interval';
    if (v.verdict === 'noise') {
      decidedBy = 'point';
      passed = v.checks.every((c) => c.pointMeets);
    } else passed = v.verdict === 'pass';
    const b: Bound = { load, decidedBy, runs };
    if (passed) {
      if (!this.lo || load > this.lo.load) this.lo = b;
    } else if (!this.hi || load < this.hi.load) this.hi = b;
    if (!passed && !this.lo && load <= this.min) this.noneBelow = true;
  }

  /** Where the search stands: over when next() is null, else cut short (by the step budget, or a stop). */
  answer(stopped = false): SearchAnswer {
    const over = this.next() === null;
    const reason: SearchAnswer['reason'] = over
      ? this.lo
        ? 'converged'
        : 'none-passes'
      : stopped
        ? 'stopped'
        : 'budget';
    return { passing: this.lo, failing: this.hi, reason };
  }
}
