/** What `tokenscope run` says about the prefix cache: the workload's expectation, the reset, a warm start. */
import type { RunHeader } from '../../shared/runs/file/line-schema.ts';
import type { Workload } from '../../shared/runs/workload/workload.ts';
import { cachedPerHit, expectedHits, steadyRatio } from '../../shared/runs/workload/prefix-groups.ts';

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

/**
 * Before the run, for shared prefix groups: the hit ratio to expect (over the -n requests, or the
 * steady state of a duration run), with its assumptions.
 */
export function expectedPrefixLine(w: Workload): string | null {
  const src = w.prompts;
  if (src.type !== 'synthetic' || !src.prefixGroups) return null;
  const g = src.prefixGroups;
  const meanIn = meanOf(src.inputLen);
  const prompt = g.prefixLen + meanIn;
  const share =
    w.requests !== undefined
      ? `${pct(expectedHits(g, w.seed, w.requests, () => prompt).ratio)} of the ${w.requests} requests' prompt tokens`
      : `${pct(steadyRatio(g, prompt))} of prompt tokens once every group has been seen`;
  return (
    `prefix groups: ${g.groups} × ${g.prefixLen} tokens; expected prefix-cache hits ≈ ${share} ` +
    `(${cachedPerHit(g.prefixLen)} tokens per hit in 16-token blocks, each group's first request misses; ` +
    `assumes a cache that holds every prefix)`
  );
}

function meanOf(d: Extract<Workload['prompts'], { type: 'synthetic' }>['inputLen']): number {
  if (d.type === 'fixed') return d.value;
  if (d.type === 'uniform') return (d.min + d.max) / 2;
  return d.mean;
}

/** After the test request: what the reset did, and a warning when the cache was already warm. */
export function cacheLines(h: RunHeader): string[] {
  const out: string[] = [];
  const r = h.prefixCacheReset;
  if (r)
    out.push(
      r.ok ? `prefix cache: reset (POST ${r.endpoint})` : `warning: prefix cache not reset: ${r.message}`,
    );
  if (h.warmCacheTokens)
    out.push(
      `warning: the server's prefix cache is warm: the test request found ${h.warmCacheTokens} of its prompt tokens cached (an earlier run with the same seed?); TTFT may look better than a cold server gives — --reset-prefix-cache empties it first`,
    );
  return out;
}
