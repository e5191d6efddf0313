/**
 * What the server said it took from its prefix cache, request by request: the sum of
 * `usage.prompt_tokens_details.cached_tokens` (OpenAI shape: vLLM with
 * --enable-prompt-tokens-details, SGLang, llama.cpp) or Anthropic's `cache_read_input_tokens`,
 * the share of prompt tokens it covers, and TTFT of the requests that hit against those that did
 * not — the effect a warm cache has on the numbers beside it. Present only when some successful
 * request reported a cached count (a server that never says is not a server with a cold cache), or
 * the workload's prefix groups set an expectation.
 */
import { summarize } from '../../stats/summary.ts';
import type { MetricStats } from './schema.ts';
import type { RequestOutcome } from './outcome.ts';
import { toMetricStats } from './summary.ts';
import type { ExpectedHits } from '../workload/prefix-groups.ts';
import type { ServerSideSummary } from './server-side-schema.ts';

export interface PrefixCacheSummary {
  /**
   * Successful requests with a usage from the server, once any of the run's requests reported a
   * cached count (vLLM omits the field when it is 0, so the others count as 0).
   */
  reported: number;
  /** Of those, the ones with at least one cached token. */
  hitRequests: number;
  cachedTokens: number;
  /** Prompt tokens of the `reported` requests. */
  promptTokens: number;
  /** cachedTokens ÷ promptTokens. */
  ratio: number;
  /** Per request: cached ÷ its prompt tokens. */
  perRequestRatio: MetricStats | null;
  ttftHit: MetricStats | null;
  ttftMiss: MetricStats | null;
  /**
   * With shared prefix groups (workload.prompts.prefixGroups): what the workload should give
   * (shared/runs/workload/prefix-groups.ts `expectedHits`, its assumptions stated there).
   */
  expected?: ExpectedHits;
}

export function prefixCacheOf(
  ok: readonly RequestOutcome[],
  expected: ExpectedHits | null = null,
): PrefixCacheSummary | null {
  let reported = 0;
  let hitRequests = 0;
  let cachedTokens = 0;
  let promptTokens = 0;
  const ratios: number[] = [];
  const hit: number[] = [];
  const miss: number[] = [];
  // vLLM leaves the field out when nothing was cached (`and num_cached_tokens`): once the server
  // has given a count for one request, a request of the same run whose usage gave none had 0.
  const anyReported = ok.some((o) => o.cachedTokens !== undefined && o.cachedTokens !== null);
  for (const o of anyReported ? ok : []) {
    if (o.inputTokensSource !== 'usage') continue; // no usage at all: nothing was said
    const c = o.cachedTokens ?? 0;
    reported++;
    cachedTokens += c;
    const p = o.inputTokens ?? 0;
    promptTokens += p;
    if (p > 0) ratios.push(Math.min(1, c / p));
    if (c > 0) hitRequests++;
    if (o.ttftMs !== null) (c > 0 ? hit : miss).push(o.ttftMs);
  }
  if (reported === 0 && !expected) return null;
  return {
    ...(expected ? { expected } : {}),
    reported,
    hitRequests,
    cachedTokens,
    promptTokens,
    ratio: promptTokens > 0 ? cachedTokens / promptTokens : 0,
    perRequestRatio: toMetricStats(summarize(ratios)),
    ttftHit: toMetricStats(summarize(hit)),
    ttftMiss: toMetricStats(summarize(miss)),
  };
}

/**
 * The server's own prefix-cache hit rate over the run, in words (the text summary, the run view,
 * the report): from its counters, or its gauge — which is not over the run alone — or not exposed.
 */
export function serverPrefixCacheText(pc: ServerSideSummary['prefixCache']): string {
  if (pc === undefined || pc === null) return 'not exposed by this server';
  const p = `${(pc.hitRate * 100).toFixed(1)} %`;
  return pc.source === 'counters' && pc.hitTokens !== null && pc.queryTokens !== null
    ? `${p} (${Math.round(pc.hitTokens)} of ${Math.round(pc.queryTokens)} prompt tokens, its counters over the run)`
    : `${p} (its hit-rate gauge at the end, not over the run alone)`;
}

/** The same, short (a card's value; the long form goes in its tooltip). */
export function serverPrefixCacheShort(pc: ServerSideSummary['prefixCache']): string {
  if (pc === undefined || pc === null) return 'not exposed';
  const p = `${(pc.hitRate * 100).toFixed(1)} %`;
  return pc.source === 'counters' && pc.queryTokens !== null
    ? `${p} of ${Math.round(pc.queryTokens).toLocaleString('en-US')} tokens`
    : `${p} (gauge)`;
}
