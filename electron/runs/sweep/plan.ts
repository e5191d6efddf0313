/**
 * A sweep's plan from its flags, as text (`--concurrency 1,2,4`, `--rate auto --steps 5`, `--slo …`):
 * shared by the CLI (cli/sweep.ts) and the app's Sweep mode (app/sweep-service.ts), so both refuse
 * the same things in the same words.
 */
import { isNonStreamingDialect, type DialectId } from '../../../shared/dialects.ts';
import { parseSlo } from '../../../shared/runs/sweep/slo.ts';
import { sloTermsProblem } from '../../../shared/runs/sweep/pooling.ts';
import type { SweepPlan } from './sweep.ts';

/** The flags that choose a plan (the CLI's; the app sends the same fields). */
export interface SweepPlanFlags {
  concurrency?: string;
  rate?: string;
  steps?: number;
  refine?: number;
  slo?: string;
  search?: 'rate' | 'concurrency';
  maxSteps?: number;
  precision?: number;
  maxRuns?: number;
}

/** How messages name a plan's fields: the CLI's flags by default, the app's form labels when given. */
export type PlanFieldNames = Partial<Record<keyof SweepPlanFlags, string>>;

const FLAGS: Record<keyof SweepPlanFlags, string> = {
  concurrency: '--concurrency',
  rate: '--rate',
  steps: '--steps',
  refine: '--refine',
  slo: '--slo',
  search: '--search',
  maxSteps: '--max-steps',
  precision: '--precision',
  maxRuns: '--max-runs',
};

function listOf(flag: string, v: string, allowInf: boolean): (number | 'inf')[] | string {
  const out: (number | 'inf')[] = [];
  for (const part of v.split(',').map((s) => s.trim())) {
    if (allowInf && /^inf(inity)?$/i.test(part)) out.push('inf');
    else if (part !== '' && Number.isFinite(Number(part)) && Number(part) > 0) out.push(Number(part));
    else return `${flag}: "${part}" is not ${allowInf ? 'a rate above 0 or inf' : 'a whole number above 0'}`;
  }
  return [...new Set(out)];
}

/** The sweep's plan and the concurrency cap of every step, from the flags; or what is wrong. */
export function planOf(
  o: SweepPlanFlags,
  names: PlanFieldNames = {},
): { plan: SweepPlan; cap: number | undefined } | string {
  const n = (k: keyof SweepPlanFlags): string => names[k] ?? FLAGS[k];
  const modes = [
    o.slo !== undefined,
    o.rate !== undefined,
    o.concurrency !== undefined && o.rate === undefined && o.slo === undefined,
  ];
  if (o.slo !== undefined && o.rate !== undefined) return '--slo searches the load itself: not with --rate';
  if (!modes.some(Boolean)) return 'give --concurrency LIST, --rate LIST|auto, or --slo TERMS';
  let cap: number | undefined;
  if (o.concurrency !== undefined && (o.rate !== undefined || o.slo !== undefined)) {
    cap = Number(o.concurrency);
    if (!Number.isInteger(cap) || cap < 1)
      return '--concurrency with --rate or --slo is one whole number: the cap of every step';
    if (o.slo !== undefined && o.search === 'concurrency')
      return '--search concurrency sets the concurrency itself: leave --concurrency out';
  }
  if (o.slo !== undefined) {
    const t = parseSlo(o.slo);
    if (!t.ok) return names.slo ? `${names.slo}: ${t.error}` : `--slo ${t.error}`;
    const maxSteps = o.maxSteps ?? 8;
    const precision = o.precision ?? 0.05;
    const maxRuns = o.maxRuns ?? 2;
    if (maxSteps < 2) return `${n('maxSteps')} must be at least 2`;
    if (!(precision > 0 && precision < 1)) return `${n('precision')} must be between 0 and 1`;
    if (maxRuns < 1) return `${n('maxRuns')} must be at least 1`;
    return {
      plan: {
        kind: 'slo-search',
        terms: t.value,
        termsText: o.slo,
        search: o.search ?? 'rate',
        maxSteps,
        precision,
        maxRuns,
      },
      cap,
    };
  }
  if (o.rate !== undefined) {
    if (o.rate.trim().toLowerCase() === 'auto') {
      const k = o.steps ?? 5;
      if (k < 1 || k > 50) return `${n('steps')} must be from 1 to 50`;
      const refine = o.refine ?? 4;
      if (!Number.isInteger(refine) || refine < 0 || refine > 20)
        return `${n('refine')} must be from 0 to 20`;
      return { plan: { kind: 'rate-auto', steps: k, refine }, cap };
    }
    const l = listOf(n('rate'), o.rate, true);
    return typeof l === 'string' ? l : { plan: { kind: 'rate', loads: l }, cap };
  }
  const l = listOf(n('concurrency'), o.concurrency!, false);
  if (typeof l === 'string') return l;
  if (l.some((x) => x === 'inf' || !Number.isInteger(x))) return `${n('concurrency')}: whole numbers above 0`;
  return { plan: { kind: 'concurrency', loads: l as number[] }, cap: undefined };
}

/**
 * What a plan asks that the target cannot give, once the target is known (after planOf): an SLO
 * search on TTFT, ITL or TPOT of an embeddings or rerank target (no token to time). Null: fine.
 */
export function planProblemFor(
  plan: SweepPlan,
  dialect: DialectId,
  names: PlanFieldNames = {},
): string | null {
  if (plan.kind !== 'slo-search') return null;
  return sloTermsProblem(plan.terms, !isNonStreamingDialect(dialect), names.slo ?? FLAGS.slo);
}

/** `sweep-20261126-031500.json`: the default name of a sweep file in the runs folder (local time). */
export function sweepFileName(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `sweep-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}.json`;
}
