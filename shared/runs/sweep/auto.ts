/**
 * What a `rate auto` sweep runs next, from the steps so far (pure: the driver, runs/sweep.ts, asks
 * after every step; a test can play a whole sweep on made-up verdicts).
 *
 * 1. A synchronous baseline (concurrency 1), then a throughput step (rate inf) for the ceiling, as
 *    GuideLLM's sweep.
 * 2. The grid: `steps` rates evenly spaced strictly between the two request rates, climbed in
 *    order until one is over-saturated for sure.
 * 3. The refinement, up to `refine` more rates: while no rate is known to be over-saturated, 1.5×
 *    the highest good one (the ceiling's rate is an estimate: everything sent at once, on a busy
 *    client or a short step it can come out well under what the server sustains at a steady
 *    rate, and the grid under it); then halfway between the
 *    highest good and the lowest over-saturated rate, until they are within `precision` of each
 *    other. The knee lies between them, so the curve gets its points where it bends.
 *
 * Confirmation: a rate is over-saturated for sure only when a re-run agrees. A step stopped as
 * over-saturated is run again at once at the same load (role `confirm`); if the re-run is not
 * over-saturated, the first verdict was noise and the rate counts as good.
 */
import type { SweepLoad, SweepStep } from './file.ts';

export interface AutoPlan {
  /** Rates between baseline and ceiling (GuideLLM's K). */
  steps: number;
  /** Most rates run after the grid (default 4); 0: none. */
  refine: number;
  /** The refinement stops when (bad − good) / good is at most this (default 0.05). */
  precision: number;
  /** Over-saturated steps were stopped, and a re-run confirms each (false: one verdict decides). */
  confirm: boolean;
}

export interface NextStep {
  load: SweepLoad;
  role: SweepStep['role'];
}

/** Rates evenly spaced strictly between the baseline's and the ceiling's request rates (GuideLLM's sweep). @internal exported for its tests */
export function spacedRates(lo: number, hi: number, k: number): number[] {
  if (!(hi > lo) || k < 1) return [];
  return Array.from({ length: k }, (_, j) => round4(lo + ((hi - lo) * (j + 1)) / (k + 1)));
}

const round4 = (x: number): number => Number(x.toPrecision(4));

/** A step judged over-saturated (stopped for it, or run to its end with the verdict standing). */
function overSaturated(s: SweepStep): boolean {
  return s.stoppedEarly === 'over-saturated' || s.saturation?.overSaturated === true;
}

/** Whether this step, just run, needs a re-run to confirm its over-saturation. */
export function needsConfirm(s: SweepStep): boolean {
  return s.role !== 'confirm' && s.role !== 'search' && s.load.value !== 'inf' && overSaturated(s);
}

/** Whether the step's over-saturation is settled: confirmed by its re-run, or no re-run asked for. */
function badFor(s: SweepStep, confirm: boolean): boolean {
  return overSaturated(s) && (!confirm || s.role === 'confirm');
}

/**
 * Each finite rate's verdict from its runs: bad when over-saturated and confirmed by the re-run
 * after it, good when its last run was judged and not over-saturated, unjudged when it was too
 * short (or its client too busy) to be judged either way.
 * @internal exported for its tests
 */
export function rateVerdicts(
  steps: readonly SweepStep[],
  confirm = true,
): { good: number[]; bad: number[]; unjudged: number[] } {
  const last = new Map<number, SweepStep>();
  for (const s of steps) {
    if (s.load.kind !== 'rate' || s.load.value === 'inf' || s.numbers.completed === 0) continue;
    last.set(s.load.value, s);
  }
  const good: number[] = [];
  const bad: number[] = [];
  const unjudged: number[] = [];
  for (const [rate, s] of last) {
    if (overSaturated(s)) {
      if (badFor(s, confirm)) bad.push(rate);
    } else if (s.saturation?.judged === false) unjudged.push(rate);
    else good.push(rate);
  }
  const up = (a: number, b: number): number => a - b;
  return { good: good.sort(up), bad: bad.sort(up), unjudged: unjudged.sort(up) };
}

/** The next step of a `rate auto` sweep after `steps`; null: the sweep is done. */
export function nextAutoStep(steps: readonly SweepStep[], p: AutoPlan): NextStep | null {
  const base = steps.find((s) => s.role === 'baseline');
  if (!base) return { load: { kind: 'concurrency', value: 1 }, role: 'baseline' };
  const ceil = steps.find((s) => s.role === 'ceiling');
  if (!ceil) return { load: { kind: 'rate', value: 'inf' }, role: 'ceiling' };
  const prev = steps[steps.length - 1]!;
  if (p.confirm && needsConfirm(prev)) return { load: prev.load, role: 'confirm' };
  const { good, bad, unjudged } = rateVerdicts(steps, p.confirm);
  const run = new Set(steps.map((s) => s.load.value));
  if (bad.length === 0) {
    const grid = spacedRates(base.numbers.requestsPerS, ceil.numbers.requestsPerS, p.steps);
    const next = grid.find((r) => !run.has(r));
    if (next !== undefined) return { load: { kind: 'rate', value: next }, role: 'step' };
  }
  if (steps.filter((s) => s.role === 'refine').length >= p.refine) return null;
  const lo = Math.max(base.numbers.requestsPerS, ...good.filter((r) => bad[0] === undefined || r < bad[0]));
  // Above the highest good rate, one that could not be judged is no good either: the bracket's top
  // (at an overload few requests finish while the step lasts: too few TTFTs to judge it).
  const hi = [...bad, ...unjudged].filter((r) => r > lo).sort((a, b) => a - b)[0] ?? null;
  if (!(lo > 0)) return null;
  if (hi !== null && (hi - lo) / lo <= p.precision) return null;
  const next = round4(hi === null ? lo * 1.5 : (lo + hi) / 2);
  return run.has(next) ? null : { load: { kind: 'rate', value: next }, role: 'refine' };
}
