/**
 * What the workload form's load fields mean under a sweep plan: every plan sets each step's rate
 * (a concurrency step sends all at once), and concurrency steps set the concurrency too; what a
 * plan leaves alone (the cap of its rate steps) still applies. The form disables the others and
 * says why, so "rate inf" and "max concurrency 32" never sit there without saying whether they count.
 */
import { SWEEP_FORM_LABELS } from '../../shared/sweeps-api.ts';
import type { LoadFieldsUse } from '../runs/form/field-use.ts';
import type { PlanForm } from './sweep-store.ts';

export function loadFieldsOf(p: Pick<PlanForm, 'kind' | 'search'>): LoadFieldsUse {
  const bySearch = p.kind === 'slo' && p.search === 'concurrency';
  const rateNote =
    p.kind === 'auto'
      ? 'Not used: each step sets its own (a concurrency-1 baseline, a rate-inf ceiling, rates between).'
      : p.kind === 'rate'
        ? 'Not used: each step runs at one of the rates above.'
        : p.kind === 'concurrency' || bySearch
          ? 'Not used: each step sends at once, at its concurrency.'
          : 'Not used: the search sets each step’s rate.';
  const capped = p.kind === 'auto' || p.kind === 'rate' || (p.kind === 'slo' && !bySearch);
  return {
    rate: { applies: false, note: rateNote },
    maxConcurrency: capped
      ? {
          applies: true,
          note:
            p.kind === 'auto'
              ? 'Caps every rate step, the rate-inf ceiling too (the baseline runs at 1); empty: no cap.'
              : 'Caps every step; empty: no cap.',
        }
      : {
          applies: false,
          note:
            p.kind === 'concurrency'
              ? 'Not used: each step runs at one of the concurrencies above.'
              : 'Not used: the search sets each step’s concurrency.',
        },
  };
}

/** The plan form's labels: the core names the same ones in its messages about the plan. */
export const PLAN_LABELS = SWEEP_FORM_LABELS;
