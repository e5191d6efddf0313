/**
 * What the server took from its prefix cache (shared/runs/summary/prefix-cache.ts): cached prompt
 * tokens, the requests that hit, their TTFT against the misses', and — with shared prefix groups —
 * what the workload should have given. Nothing when the server reported no cached tokens and the
 * workload expected none.
 */
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { f2, int } from './summary-format.ts';

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

export function PrefixCacheTable({ s }: { s: RunSummary }) {
  const c = s.prefixCache;
  if (!c) return null;
  const said = c.reported > 0;
  const pc = s.server?.prefixCache ?? null;
  return (
    <section className="card" aria-label="Prefix cache">
      <header className="card-head">
        <h3 title="The server's usage.prompt_tokens_details.cached_tokens (Anthropic: cache_read_input_tokens), per request">
          Prefix cache
        </h3>
        <span className="muted">
          {said
            ? `${int(c.hitRequests)} of ${int(c.reported)} requests found part of their prompt cached`
            : 'the server reported no cached tokens'}
        </span>
      </header>
      <div className="table-scroll">
        <table className="run-table num" data-testid="sum-prefix-cache">
          <thead>
            <tr>
              <th></th>
              <th>cached tokens</th>
              <th>of prompt tokens</th>
              <th>hit requests</th>
              <th title="TTFT of the requests that found cached tokens">TTFT p50 hit</th>
              <th title="TTFT of the requests that found none">TTFT p50 miss</th>
              <th>TTFT p90 hit</th>
              <th>TTFT p90 miss</th>
            </tr>
          </thead>
          <tbody>
            {said && (
              <tr data-testid="sum-prefix-measured">
                <th scope="row">measured</th>
                <td>{int(c.cachedTokens)}</td>
                <td>
                  {pct(c.ratio)} of {int(c.promptTokens)}
                </td>
                <td>{int(c.hitRequests)}</td>
                <td>{f2(c.ttftHit?.median)}</td>
                <td>{f2(c.ttftMiss?.median)}</td>
                <td>{f2(c.ttftHit?.p90)}</td>
                <td>{f2(c.ttftMiss?.p90)}</td>
              </tr>
            )}
            {pc && (
              <tr data-testid="sum-prefix-server">
                <th
                  scope="row"
                  title="The server's own /metrics over the run: hit ÷ queried prompt tokens, or its hit-rate gauge"
                >
                  server metrics
                </th>
                <td>{pc.hitTokens === null ? '–' : int(pc.hitTokens)}</td>
                <td>
                  {pct(pc.hitRate)}
                  {pc.queryTokens === null ? '' : ` of ${int(pc.queryTokens)}`}
                </td>
                <td></td>
                <td colSpan={4} className="muted">
                  {pc.source === 'counters'
                    ? 'its counters over the run'
                    : 'its hit-rate gauge, not over the run alone'}
                </td>
              </tr>
            )}
            {c.expected && (
              <tr data-testid="sum-prefix-expected">
                <th
                  scope="row"
                  title="Shared prefix groups: every group's first request misses, every later one finds its prefix's full 16-token blocks cached (a cache holding every prefix)"
                >
                  expected
                </th>
                <td>{int(c.expected.cachedTokens)}</td>
                <td>{pct(c.expected.ratio)}</td>
                <td>{int(c.expected.hitRequests)}</td>
                <td colSpan={4} className="muted">
                  from the workload’s prefix groups
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
