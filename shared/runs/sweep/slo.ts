/**
 * SLOs of a sweep's search (`--slo "p99_ttft_ms<=500,p99_tpot_ms<=50"`): parsing, and a step's
 * verdict on each with its bootstrap interval (bootstrap.ts: requests resampled, the statistic
 * recomputed exactly as the summary computes it). A verdict is `pass` or `fail` only when the 95 %
 * interval of the statistic lies wholly on one side of the limit; otherwise it is `noise` (the
 * margin is inside the run-to-run noise) and the search repeats the load.
 */
import { ok, fail, type Result } from '../../result.ts';
import { bootstrapRun, CI_LEVEL } from '../compare/bootstrap.ts';
import { percentileSorted } from '../../stats/summary.ts';
import {
  specKey,
  type SampleMetric,
  type SampleSpec,
  type SampleStat,
} from '../compare/bootstrap-samples.ts';
import type { RequestOutcome } from '../summary/outcome.ts';

export interface SloTerm {
  /** As written: p99_ttft_ms, mean_e2el_ms, error_rate. */
  key: string;
  spec: SampleSpec;
  op: '<=' | '<';
  limit: number;
}

const STATS: Record<string, SampleStat> = { mean: 'mean', median: 50, p50: 50, p90: 90, p99: 99 };
const METRICS: readonly SampleMetric[] = ['ttft', 'tpot', 'itl', 'e2el'];

/** "p99_ttft_ms<=500, p99_tpot_ms<=50" → terms; `error_rate<=0.01` bounds the share of failed requests. */
export function parseSlo(text: string): Result<SloTerm[], string> {
  const terms: SloTerm[] = [];
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9_]+)\s*(<=|<)\s*([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)$/i.exec(part);
    if (!m) return fail(`"${part}": expected METRIC<=NUMBER, e.g. p99_ttft_ms<=500`);
    const key = m[1]!.toLowerCase();
    const limit = Number(m[3]);
    const op = m[2] as '<=' | '<';
    if (key === 'error_rate') {
      terms.push({ key, spec: { metric: 'failed', stat: 'mean' }, op, limit });
      continue;
    }
    const k = /^(mean|median|p50|p90|p99)_(ttft|tpot|itl|e2el)_ms$/.exec(key);
    if (!k || !METRICS.includes(k[2] as SampleMetric))
      return fail(
        `"${key}": known are {mean,p50,p90,p99}_{ttft,tpot,itl,e2el}_ms and error_rate (a share, 0…1)`,
      );
    terms.push({ key, spec: { metric: k[2] as SampleMetric, stat: STATS[k[1]!]! }, op, limit });
  }
  if (terms.length === 0) return fail('no SLO given: e.g. --slo "p99_ttft_ms<=500"');
  return ok(terms);
}

type Verdict = 'pass' | 'fail' | 'noise';

interface SloCheck {
  key: string;
  limit: number;
  /** The statistic on the step's requests (null: no values, e.g. every request failed). */
  value: number | null;
  /** Its 95 % bootstrap interval. */
  ci: [number, number] | null;
  verdict: Verdict;
  /** Whether the point estimate meets the limit (what decides a verdict still in the noise after repeats). */
  pointMeets: boolean;
}

export interface StepSloVerdict {
  /** fail when any term fails; noise when none fails and one is inside the noise; else pass. */
  verdict: Verdict;
  checks: SloCheck[];
}

const meets = (v: number, t: SloTerm): boolean => (t.op === '<' ? v < t.limit : v <= t.limit);

/** Every term on a step's outcomes (several runs at one load pooled: `strata` their sizes). */
export function judgeSlo(
  terms: readonly SloTerm[],
  outcomes: readonly RequestOutcome[],
  o: { replicates?: number; strata?: readonly number[] } = {},
): StepSloVerdict {
  const specs = terms.map((t) => t.spec);
  const b = bootstrapRun(outcomes, specs, {
    replicates: o.replicates ?? 1000,
    strata: o.strata ?? null,
    salt: 'slo',
  });
  const tail = ((1 - CI_LEVEL) / 2) * 100;
  const checks = terms.map((t): SloCheck => {
    const k = specKey(t.spec);
    const point = b.point.get(k);
    const value = point !== undefined && Number.isFinite(point) ? point : null;
    const reps = Float64Array.from((b.replicates.get(k) ?? []).filter((x) => Number.isFinite(x))).sort();
    const ci: [number, number] | null =
      reps.length > 0 ? [percentileSorted(reps, tail), percentileSorted(reps, 100 - tail)] : null;
    // No value at all (nothing succeeded) cannot meet a latency objective.
    let verdict: Verdict = value === null ? 'fail' : meets(value, t) ? 'pass' : 'fail';
    if (value !== null && ci && meets(ci[0], t) !== meets(ci[1], t)) verdict = 'noise';
    return { key: t.key, limit: t.limit, value, ci, verdict, pointMeets: value !== null && meets(value, t) };
  });
  const verdict: Verdict = checks.some((c) => c.verdict === 'fail')
    ? 'fail'
    : checks.some((c) => c.verdict === 'noise')
      ? 'noise'
      : 'pass';
  return { verdict, checks };
}
