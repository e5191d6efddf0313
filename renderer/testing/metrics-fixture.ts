/** Hand-made metrics payloads for tests (no server, no parser): concepts and scrapes. */
import type { ExplorerSeries, MetricsScrape, MetricsState } from '../../shared/metrics-api.ts';
import type { Concepts } from '../../shared/metrics/concepts.ts';
import type { HistogramData } from '../../shared/metrics/prom-math.ts';
import { HISTOGRAM_CONCEPTS, SCALAR_CONCEPTS } from '../../shared/metrics/profile-types.ts';

export function concepts(p: Partial<Concepts> = {}): Concepts {
  const c = {} as Record<string, unknown>;
  for (const k of SCALAR_CONCEPTS) c[k] = null;
  for (const k of HISTOGRAM_CONCEPTS) c[k] = null;
  return { ...(c as Concepts), ...p };
}

/** A TTFT-like histogram with vLLM's bounds around 100 ms: ≤ 0.05, ≤ 0.1, ≤ 0.25, ≤ 1, +Inf. */
export function ttftHist(counts: [number, number, number, number, number], sum = 0): HistogramData {
  const les = [0.05, 0.1, 0.25, 1, Infinity];
  return { buckets: les.map((le, i) => ({ le, count: counts[i]! })), sum, count: counts[4] };
}

export function scrape(p: {
  t: number;
  targetId?: string;
  concepts?: Partial<Concepts>;
  explorer?: ExplorerSeries[];
  help?: Record<string, string>;
}): MetricsScrape {
  return {
    targetId: p.targetId ?? 'sim',
    wallMs: p.t,
    durationMs: 2,
    bytes: 1000,
    profile: 'vllm-v1',
    profileName: 'vLLM v1',
    concepts: concepts(p.concepts),
    rates: null,
    families: 3,
    series: p.explorer?.length ?? 0,
    parseErrors: [],
    explorer: p.explorer ?? [],
    explorerTruncated: false,
    help: p.help ?? {},
  };
}

export function state(p: Partial<MetricsState> = {}): MetricsState {
  return {
    targetId: 'sim',
    url: 'http://127.0.0.1:9/metrics',
    source: 'scrape',
    status: 'ok',
    lastError: null,
    consecutiveFailures: 0,
    nextAttemptInMs: 1000,
    profile: 'vllm-v1',
    ...p,
  };
}
