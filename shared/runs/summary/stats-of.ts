/** A run's statistics per metric, whatever the run came from (native, or an import with only vLLM's keys). */
import type { MetricStats, RunSummary, StatMetric } from './schema.ts';
import { percentileKey } from './summary.ts';

/** A metric's statistics: the summary's own, else (imports that reported only aggregates) vLLM's keys. */
export function statsOf(s: RunSummary, m: StatMetric): MetricStats | null {
  const own = s.stats[m];
  if (own) return own;
  // A native run without the metric had no value to give (every request failed): nothing, not
  // vLLM's 0 for an empty list.
  if (!s.imported) return null;
  const v = s.vllm;
  const mean = v[`mean_${m}_ms`];
  if (mean === undefined || mean === null) return null;
  const get = (k: string): number | null => {
    const x = v[k];
    return typeof x === 'number' ? x : null;
  };
  return {
    count: null,
    mean,
    median: get(`median_${m}_ms`) ?? NaN,
    std: get(`std_${m}_ms`) ?? NaN,
    min: null,
    max: null,
    p90: get(percentileKey(90, m)),
    p95: get(percentileKey(95, m)),
    p99: get(percentileKey(99, m)),
    p999: get(percentileKey(99.9, m)),
  };
}
