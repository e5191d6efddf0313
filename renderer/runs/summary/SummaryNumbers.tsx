/**
 * The run's numbers, in `vllm bench serve`'s order (shared/runs/summary/text.ts): counts,
 * duration, throughputs, peaks, goodput; then the statistics table (mean, median, std, p90, p95,
 * p99, p99.9, min, max) of TTFT, TPOT, ITL, E2E plus Tokenscope's per-token ITL, queue time and
 * first event; token-count sources, errors by kind, the client self-check (SelfCheckCard.tsx).
 * Tokenscope's ITL leaves coalesced gaps out: the table says how many, with vLLM's ITL (every gap)
 * beside it when it differs.
 */
import { Fragment } from 'react';
import type { MetricStats, RunSummary } from '../../../shared/runs/summary/schema.ts';
import { COALESCED_DEF, coalescedShareText } from '../../core/coalesced-text.ts';
import { ESTIMATED_COUNTS_DEF, STAT_ROWS } from '../charts/metric-defs.ts';
import { DEFINITIONS } from '../../../shared/runs/summary/definitions.ts';
import { PEAK_ESTIMATED_NOTE } from '../../../shared/runs/summary/text.ts';
import { statsOf, tokenSourceText } from './run-detail.ts';
import { streamsTokens } from '../../../shared/runs/summary/batch.ts';
import { batchRows } from './batch-rows.ts';
import { SelfCheckCard } from './SelfCheckCard.tsx';
import { f2, int } from './summary-format.ts';

interface Row {
  label: string;
  value: string;
  unit?: string;
  testId?: string;
  title?: string;
}

/** The result's rows, in `vllm bench serve`'s order. */
function resultRows(s: RunSummary): Row[] {
  const v = s.vllm;
  // Every request failed: nothing was measured, so no latency and no peak (not vLLM's 0.00).
  const none = v.completed === 0;
  const rows: Row[] = [
    { label: 'Successful requests', value: int(v.completed), testId: 'sum-completed' },
    { label: 'Failed requests', value: int(v.failed), testId: 'sum-failed' },
  ];
  if (s.config.maxConcurrency !== null)
    rows.push({ label: 'Maximum request concurrency', value: int(s.config.maxConcurrency) });
  // A trace replay's requests leave at the trace's times: it configured no rate.
  if (s.replay) rows.push({ label: 'Arrivals', value: `trace ×${s.replay.speedup}`, testId: 'sum-arrivals' });
  else
    rows.push({
      label: 'Request rate configured',
      value: typeof s.config.requestRate === 'number' ? f2(s.config.requestRate) : '∞',
      unit: 'req/s',
    });
  rows.push(
    { label: 'Benchmark duration', value: f2(v.duration), unit: 's', testId: 'sum-duration' },
    { label: 'Total input tokens', value: int(v.total_input_tokens) },
    // Embeddings and rerank generate nothing: no output rows at all (not zeros).
    ...(streamsTokens(s)
      ? [{ label: 'Total generated tokens', value: int(v.total_output_tokens), testId: 'sum-output-tokens' }]
      : []),
    ...reasoningRows(s),
    {
      label: 'Request throughput',
      value: f2(v.request_throughput),
      unit: 'req/s',
      testId: 'sum-req-throughput',
    },
  );
  if (v.request_goodput !== null)
    rows.push({
      label: 'Request goodput',
      value: f2(v.request_goodput),
      unit: 'req/s',
      testId: 'sum-goodput',
      title: 'Successful requests meeting every SLO, per second (vLLM --goodput)',
    });
  // Embeddings and rerank: their batch instead of the token throughputs (batch-rows.ts).
  if (s.batch)
    return [
      ...rows,
      ...batchRows(s.batch),
      {
        label: 'Peak concurrent requests',
        value: none ? '—' : f2(v.max_concurrent_requests),
        testId: 'sum-peak-concurrency',
      },
    ];
  rows.push(
    {
      label: 'Output token throughput',
      value: f2(v.output_throughput),
      unit: 'tok/s',
      testId: 'sum-output-throughput',
    },
    {
      label: 'Peak output token throughput',
      value: none ? '—' : f2(v.max_output_tokens_per_s),
      unit: s.tokens.peakEstimated ? 'tok/s (estimated counts)' : 'tok/s',
      testId: 'sum-peak-tput',
      title:
        DEFINITIONS[s.definitions ?? 'tokenscope'].peak === 'tokens'
          ? `Output tokens in the busiest 1-s bucket${s.tokens.peakEstimated ? `: ${PEAK_ESTIMATED_NOTE}, so each request's total is spread over its events` : ''}`
          : 'Chunks (not tokens) in the busiest 1-s bucket, as vLLM counts them',
    },
    {
      label: 'Peak concurrent requests',
      value: none ? '—' : f2(v.max_concurrent_requests),
      testId: 'sum-peak-concurrency',
    },
    { label: 'Total token throughput', value: f2(v.total_token_throughput), unit: 'tok/s' },
  );
  return rows;
}

/** Runs with reasoning: where the generated tokens went (~: some splits estimated). Else none. */
function reasoningRows(s: RunSummary): Row[] {
  const r = s.reasoning;
  if (!r) return [];
  const about = r.estimatedRequests > 0 ? '~' : '';
  const title =
    r.estimatedRequests > 0
      ? `${r.estimatedRequests} of ${r.requests} requests with reasoning gave no reasoning count: their split is estimated with Tokenscope's tokenizer`
      : "The servers' reasoning token counts";
  return [
    {
      label: 'Reasoning tokens',
      value: about + int(r.reasoningTokens),
      testId: 'sum-reasoning-tokens',
      title,
    },
    { label: 'Answer tokens', value: about + int(r.answerTokens), testId: 'sum-answer-tokens', title },
  ];
}

/** The goodput SLOs the run was held to ("TTFT ≤ 200 ms, E2E ≤ 2000 ms"), or '' without any. */
function sloText(slo: RunSummary['slo']): string {
  return slo
    ? [
        slo.ttftMs !== undefined && `TTFT ≤ ${slo.ttftMs} ms`,
        slo.tpotMs !== undefined && `TPOT ≤ ${slo.tpotMs} ms`,
        slo.e2elMs !== undefined && `E2E ≤ ${slo.e2elMs} ms`,
      ]
        .filter(Boolean)
        .join(', ')
    : '';
}

export function SummaryNumbers({ s }: { s: RunSummary }) {
  return (
    <div className="sum-grid">
      <ResultCard s={s} />
      <div className="sum-side">
        <ErrorsCard errors={s.errors} samples={s.errorSamples ?? {}} />
        <SelfCheckCard s={s} />
      </div>
    </div>
  );
}

/** "Serving benchmark result": the numbers, the SLOs, where token counts came from, what was not counted. */
function ResultCard({ s }: { s: RunSummary }) {
  const rows = resultRows(s);
  const slo = sloText(s.slo);
  return (
    <section className="card" aria-label="Benchmark result">
      <header className="card-head">
        <h3>Serving benchmark result</h3>
      </header>
      <dl className="sum-rows" data-testid="run-summary-numbers">
        {rows.map((r) => (
          <div key={r.label} className="sum-row" title={r.title}>
            <dt>{r.label}</dt>
            <dd data-testid={r.testId}>
              {r.value}
              {r.unit && r.value !== '—' && <span className="unit"> {r.unit}</span>}
            </dd>
          </div>
        ))}
        {slo && (
          <div className="sum-row">
            <dt>Goodput SLOs</dt>
            <dd>
              {slo} · {s.goodRequests ?? '—'} good
            </dd>
          </div>
        )}
      </dl>
      {!s.imported && s.batch && (
        <p className="caption" data-testid="sum-token-source">
          Input tokens: {s.tokens.inputFromUsage} from server usage, {s.tokens.inputEstimated} estimated. Each
          answer came whole, not as a token stream: latency is sent → whole answer.
        </p>
      )}
      {!s.imported && !s.batch && (
        <p className="caption" data-testid="sum-token-source">
          Output tokens: {tokenSourceText(s)}. Input tokens: {s.tokens.inputFromUsage} from server usage,{' '}
          {s.tokens.inputEstimated} estimated.
          {s.tokens.inputFromUsage > 0 &&
            " The server's count includes its chat template (role markers, formatting), so on a chat endpoint it exceeds the prompt's own length (128 tokens arrive as ~138)."}
        </p>
      )}
      {(s.warmupRequests > 0 || s.cancelledRequests > 0) && (
        <p className="caption">
          Not counted: {s.warmupRequests} warm-up request{s.warmupRequests === 1 ? '' : 's'},{' '}
          {s.cancelledRequests} stopped by cancel.
        </p>
      )}
    </section>
  );
}

/** Failed requests by kind, each with a sample of its message when the run kept one. */
function ErrorsCard({
  errors,
  samples,
}: {
  errors: RunSummary['errors'];
  samples: NonNullable<RunSummary['errorSamples']>;
}) {
  const errs = Object.entries(errors);
  return (
    <section className="card" aria-label="Errors">
      <header className="card-head">
        <h3>Errors by kind</h3>
      </header>
      {errs.length === 0 ? (
        <p className="muted sum-none" data-testid="sum-errors">
          none
        </p>
      ) : (
        <table className="run-table" data-testid="sum-errors">
          <tbody>
            {errs.map(([k, n]) => (
              <tr key={k}>
                <th className="danger-text">
                  {k}
                  {samples[k] && (
                    <span className="err-sample" data-testid="sum-error-sample" title={samples[k]}>
                      {samples[k]}
                    </span>
                  )}
                </th>
                <td>{n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function StatRow({ id, name, m, title }: { id: string; name: string; m: MetricStats; title?: string }) {
  // An empty list (every ITL gap coalesced) has nothing to show but its count.
  const v = (x: number | null): string => (m.count === 0 ? '—' : f2(x));
  return (
    <tr data-metric={id}>
      <th title={title}>{name}</th>
      <td>{m.count === null ? '—' : m.count.toLocaleString('en-US')}</td>
      <td>{v(m.mean)}</td>
      <td>{v(m.median)}</td>
      <td>{v(m.std)}</td>
      <td>{v(m.p90)}</td>
      <td>{v(m.p95)}</td>
      <td>{v(m.p99)}</td>
      <td>{v(m.p999)}</td>
      <td>{v(m.min)}</td>
      <td>{v(m.max)}</td>
    </tr>
  );
}

export function StatsTable({ s }: { s: RunSummary }) {
  const c = s.coalesced;
  const vllmItl = s.stats.itl?.vllm;
  if (STAT_ROWS.every((r) => !statsOf(s, r.id)))
    return (
      <section className="card" aria-label="Latency statistics">
        <header className="card-head">
          <h3>Latency statistics (ms)</h3>
        </header>
        <p className="muted sum-none" data-testid="sum-stats-none">
          No request succeeded: there is no latency to show. The errors above say why.
        </p>
      </section>
    );
  return (
    <section className="card" aria-label="Latency statistics">
      <header className="card-head">
        <h3 title="numpy's mean, median, population std and linear percentiles over successful requests, as vLLM computes them">
          Latency statistics (ms)
        </h3>
        <span className="muted">
          successful requests · exact
          {streamsTokens(s) && ` · ITL pooled over every chunk${c ? ' (coalesced gaps left out)' : ''}`}
        </span>
      </header>
      <div className="table-scroll">
        <table className="run-table num" data-testid="sum-stats">
          <thead>
            <tr>
              <th>metric</th>
              <th>count</th>
              <th>mean</th>
              <th>median</th>
              <th>std</th>
              <th>p90</th>
              <th>p95</th>
              <th>p99</th>
              <th>p99.9</th>
              <th>min</th>
              <th>max</th>
            </tr>
          </thead>
          <tbody>
            {STAT_ROWS.map((r) => {
              const m = statsOf(s, r.id);
              if (!m) return null;
              // Per token without per-event counts from the server: spread over estimated counts.
              const est =
                r.id === 'itl_per_token' &&
                (s.tokens.outputSource.estimated > 0 || s.tokens.outputSource['usage-total'] > 0);
              const row = (
                <StatRow
                  key={r.id}
                  id={r.id}
                  name={est ? `${r.name} (est.)` : r.name}
                  m={m}
                  {...(est ? { title: ESTIMATED_COUNTS_DEF } : {})}
                />
              );
              // vLLM's ITL (every gap, what vLLM prints and the vLLM keys hold) right below ours.
              return r.id === 'itl' && vllmItl ? (
                <Fragment key={r.id}>
                  {row}
                  <StatRow
                    id="itl-vllm"
                    name="ITL per chunk (vLLM)"
                    m={vllmItl}
                    title="vLLM's ITL: every chunk gap, coalesced ones included (the vLLM keys and exports)"
                  />
                </Fragment>
              ) : (
                row
              );
            })}
          </tbody>
        </table>
      </div>
      {c && c.totalGaps > 0 && (
        <p className="caption muted" data-testid="sum-coalesced" title={COALESCED_DEF}>
          Coalesced gaps {coalescedShareText(c.gaps, c.totalGaps)} — left out of Tokenscope&apos;s ITL;
          vLLM&apos;s ITL keeps them
        </p>
      )}
    </section>
  );
}
