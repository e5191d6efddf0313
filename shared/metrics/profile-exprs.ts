/** The building blocks of a server profile's concept mappings (profiles.ts, profiles-disagg.ts). */
import type { Expr, HistogramSource } from './profile-types.ts';

type PickOptions = Partial<Omit<Extract<Expr, { op: 'pick' }>, 'op' | 'name'>>;

/** A sample by name, summed across label sets unless the options say otherwise. */
export const pick = (name: string, opts: PickOptions = {}): Expr => ({
  op: 'pick',
  name,
  agg: 'sum',
  scale: 1,
  ...opts,
});

/** A sample by name, averaged across label sets (fractions: KV usage, hit rates). */
export const mean = (name: string, opts: PickOptions = {}): Expr => pick(name, { agg: 'mean', ...opts });

/** Histogram families in seconds, alternatives in order (renamed metrics). */
export const hist = (...names: string[]): HistogramSource[] => names.map((name) => ({ name, scale: 1 }));
