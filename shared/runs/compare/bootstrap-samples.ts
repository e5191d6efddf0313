/**
 * What the bootstrap resamples (bootstrap.ts): a statistic of a metric, and each request's values
 * for that metric exactly as the summary pools them.
 */
import type { RequestOutcome, Values } from '../summary/outcome.ts';

/** The per-request values a statistic pools (one list per request, as the summary takes them). */
export type SampleMetric =
  | 'ttft'
  | 'ttfat'
  | 'tpot'
  | 'itl'
  | 'itl_every_gap'
  | 'itl_per_token'
  | 'itl_per_token_every_gap'
  | 'e2el'
  | 'failed'
  | RateMetric;

/**
 * A run's rates: successful requests, output tokens, input + output tokens, or requests that met
 * every SLO, per second of the run (bootstrap-rate.ts resamples them with each request's share of
 * the run's time).
 */
export type RateMetric = 'req_tput' | 'out_tput' | 'total_tput' | 'goodput';

export const isRateMetric = (m: SampleMetric): m is RateMetric =>
  m === 'req_tput' || m === 'out_tput' || m === 'total_tput' || m === 'goodput';

/** A statistic: the mean (for a rate: the rate itself), or a percentile (numpy linear) of the pooled values. */
export type SampleStat = 'mean' | 50 | 90 | 99;

export interface SampleSpec {
  metric: SampleMetric;
  stat: SampleStat;
}

/**
 * A request's values for a metric, exactly as shared/runs/summary/summary.ts pools them: successful
 * requests only (failed requests are in `failed`, as 1, successes as 0); TPOT only for more than
 * one output token; Tokenscope's ITL leaves coalesced gaps out where known.
 */
export function valuesOf(o: RequestOutcome, m: SampleMetric): Values | null {
  if (m === 'failed') return [o.ok ? 0 : 1];
  if (isRateMetric(m)) return null; // not a list of values: bootstrap-rate.ts
  if (!o.ok) return null;
  switch (m) {
    case 'ttft':
      return o.ttftMs === null ? null : [o.ttftMs];
    case 'ttfat': {
      // As summary.ts pools it: a request that did not reason has its answer's first token at TTFT.
      const t = o.reasoningTokens !== undefined ? (o.ttfatMs ?? null) : o.ttftMs;
      return t === null ? null : [t];
    }
    case 'tpot':
      return o.outputTokens > 1 && o.tpotMs !== null ? [o.tpotMs] : null;
    case 'e2el':
      return o.e2eMs === null ? null : [o.e2eMs];
    case 'itl':
      return o.itlChunkMeasuredMs ?? o.itlChunkMs;
    case 'itl_every_gap':
      return o.itlChunkMs;
    case 'itl_per_token':
      return o.itlTokenMeasuredMs ?? o.itlTokenMs;
    case 'itl_per_token_every_gap':
      return o.itlTokenMs ?? o.itlTokenMeasuredMs ?? null;
  }
}

export const specKey = (s: SampleSpec): string => `${s.metric}:${s.stat}`;
