/**
 * Repairs what JSON loses on the web-mode socket: shared/wire.ts sends plain JSON, where
 * Infinity and NaN become null. A histogram's `+Inf` bound arrives as `le: null` and a NaN
 * value (a missing `_sum`) as null; without the repair histogramQuantile sees no +Inf bucket
 * and answers NaN for every quantile. Electron's IPC (structured clone) keeps them, and the
 * repair is then a no-op. Only bounds and values are touched: a null concept stays "not exposed".
 */
import type { ExplorerSeries, MetricsScrape } from '../../shared/metrics-api.ts';
import type { Concepts } from '../../shared/metrics/concepts.ts';
import type { HistogramData } from '../../shared/metrics/prom-math.ts';
import type { HistogramBucket } from '../../shared/metrics/prom-types.ts';
import { HISTOGRAM_CONCEPTS } from '../../shared/metrics/profile-types.ts';

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

function repairBuckets(bs: HistogramBucket[]): HistogramBucket[] {
  let changed = false;
  const out = bs.map((b) => {
    if (typeof b.le === 'number' && typeof b.count === 'number') return b;
    changed = true;
    // The only bound JSON cannot carry is +Inf (a NaN bound is rejected by the parser).
    return { le: typeof b.le === 'number' ? b.le : Infinity, count: num(b.count) };
  });
  return changed ? out : bs;
}

function repairHistogram(h: HistogramData | null): HistogramData | null {
  if (!h) return h;
  const buckets = repairBuckets(h.buckets);
  if (buckets === h.buckets && typeof h.sum === 'number' && typeof h.count === 'number') return h;
  return { buckets, sum: num(h.sum), count: num(h.count) };
}

function repairSeries(s: ExplorerSeries): ExplorerSeries {
  if (typeof s.value === 'number' && !s.buckets && (s.sum === undefined || typeof s.sum === 'number'))
    return s;
  return {
    ...s,
    value: num(s.value),
    ...(s.buckets ? { buckets: repairBuckets(s.buckets) } : {}),
    ...(s.sum !== undefined ? { sum: num(s.sum) } : {}),
  };
}

export function repairScrape(s: MetricsScrape): MetricsScrape {
  const concepts: Concepts = { ...s.concepts };
  for (const c of HISTOGRAM_CONCEPTS) concepts[c] = repairHistogram(s.concepts[c]);
  return { ...s, concepts, explorer: s.explorer.map(repairSeries) };
}
