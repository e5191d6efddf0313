/**
 * What the server's own metrics said over a load run (summary.server): where they came from, the
 * server's and the client's view of the same requests side by side (TTFT, E2E, tokens), what only
 * the server knows (queue time, running / waiting, KV-cache, preemptions), and its gauges over the
 * run's time. A run whose server had no metrics says why instead.
 */
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import {
  serverGapReason,
  type ServerHistogramStats,
  type ServerSideSummary,
} from '../../../shared/runs/summary/server-side-schema.ts';
import { wideBucket, type QuantileBucket } from '../../../shared/runs/summary/server-quantile.ts';
import { C } from '../../core/charts/theme.ts';
import { fmtBucket, fmtCompact, fmtLatency } from '../../core/format.ts';
import type { TimePoint } from '../charts/run-series.ts';
import { statsOf } from './run-detail.ts';
import { streamsTokens } from '../../../shared/runs/summary/batch.ts';
import { SeriesChart } from '../charts/SeriesChart.tsx';
import { EnergyNumbers } from './EnergyNumbers.tsx';
import { serverPrefixCacheShort, serverPrefixCacheText } from '../../../shared/runs/summary/prefix-cache.ts';
import { SpecDecodeNumbers } from './SpecDecodeNumbers.tsx';
import { RoleNumbers } from './RoleNumbers.tsx';

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);
const int = (v: number | null) => (v === null ? '—' : Math.round(v).toLocaleString('en-US'));

/**
 * The client's side of a token counter: every token of the run, failed requests' too (the
 * server's counter counts them), saying how many were in failed requests.
 * @internal exported for its tests
 */
export function clientTokens(
  ok: number,
  failed: number | undefined,
  verb: string,
  estimated = false,
): string {
  if (!failed) return `${ok.toLocaleString('en-US')} ${verb}`;
  const about = estimated ? '~' : '';
  return `${about}${(ok + failed).toLocaleString('en-US')} ${verb} (${about}${failed.toLocaleString('en-US')} in failed requests${estimated ? ', estimated' : ''})`;
}

/**
 * A server quantile: its interpolated value when its bucket is narrow next to it, else the bucket
 * itself ("0–300 ms"; shared/runs/summary/server-quantile.ts says why).
 * @internal exported for its tests
 */
export function fmtServerQuantile(
  v: number | null | undefined,
  bucket: QuantileBucket | null | undefined,
): string {
  if (v === null || v === undefined) return '—';
  const wide = wideBucket(bucket, v);
  return wide ? fmtBucket(wide) : fmtLatency(v);
}

function HistRow({
  name,
  server,
  client,
  testId,
  title,
}: {
  name: string;
  server: ServerHistogramStats | null;
  client: { p50: number | null; p99: number | null } | null;
  testId: string;
  title: string;
}) {
  return (
    <tr data-testid={testId} title={title}>
      <th>{name}</th>
      <td>{server ? server.count.toLocaleString('en-US') : '—'}</td>
      <td title={server?.p50Bucket ? `interpolated ${fmtLatency(server.p50)} in its bucket` : undefined}>
        {fmtServerQuantile(server?.p50, server?.p50Bucket)}
      </td>
      <td title={server?.p99Bucket ? `interpolated ${fmtLatency(server.p99)} in its bucket` : undefined}>
        {fmtServerQuantile(server?.p99, server?.p99Bucket)}
      </td>
      <td>{client ? fmtLatency(client.p50) : ''}</td>
      <td>{client ? fmtLatency(client.p99) : ''}</td>
    </tr>
  );
}

/**
 * The server's gauges (per scrape) and the client's in-flight count (per change) on one time axis
 * (s), each carried forward to the other's points: both are step functions, and one data array
 * with every key at every point keeps recharts from breaking the lines.
 * @internal exported for its tests
 */
export function mergeSteps(
  server: readonly { t: number; running: number | null; waiting: number | null }[],
  client: readonly TimePoint[],
  xMax: number,
): TimePoint[] {
  const ev: { t: number; running?: number | null; waiting?: number | null; client?: number | null }[] = [];
  for (const p of server)
    if (p.t >= 0 && p.t / 1000 <= xMax) ev.push({ t: p.t / 1000, running: p.running, waiting: p.waiting });
  for (const p of client) ev.push({ t: p.t, client: (p.inFlight as number | null | undefined) ?? null });
  ev.sort((a, b) => a.t - b.t);
  const out: TimePoint[] = [];
  let running: number | null = null;
  let waiting: number | null = null;
  let inFlight: number | null = null;
  for (const e of ev) {
    if (e.running !== undefined) running = e.running;
    if (e.waiting !== undefined) waiting = e.waiting;
    if (e.client !== undefined) inFlight = e.client;
    const last = out[out.length - 1];
    const point = { t: e.t, running, waiting, client: inFlight };
    if (last && last.t === e.t) out[out.length - 1] = point;
    else out.push(point);
  }
  return out;
}

export function ServerSideCard({
  s,
  clientInFlight,
  xMax,
  width,
}: {
  s: RunSummary;
  /** The client's in-flight requests over the run (s), drawn beside the server's gauges. */
  clientInFlight: TimePoint[];
  xMax: number;
  width?: number;
}) {
  const sv = s.server;
  if (!sv) return null;
  const where = sv.source === 'prometheus' ? `Prometheus ${sv.url} · ${sv.selector ?? ''}` : sv.url;
  if (sv.scrapes === 0 || sv.window === null)
    return (
      <section className="card" aria-label="Server side" data-testid="sum-server">
        <header className="card-head">
          <h3>Server side</h3>
          <span className="mono muted">{where}</span>
        </header>
        <p className="caption" data-testid="sum-server-none">
          No server metrics for this run: {serverGapReason(sv)}. The client’s numbers above stand on their
          own.
        </p>
        <EnergyNumbers sv={sv} />
        <RoleNumbers sv={sv} />
      </section>
    );
  return (
    <section className="card" aria-label="Server side" data-testid="sum-server">
      <header className="card-head">
        <h3
          title={`The server's own metrics, ${sv.scrapes} scrapes from ${(sv.window.fromMs / 1000).toFixed(2)} s to ${(
            sv.window.toMs / 1000
          ).toFixed(2)} s of the run (deltas between the first and the last)`}
        >
          Server side · {sv.profileName}
        </h3>
        <span className="mono muted">{where}</span>
        {sv.failures > 0 && <span className="badge warn">{sv.failures} failed scrapes</span>}
      </header>
      <div className="sum-side">
        <ServerLatencyTable s={s} sv={sv} />
        <div>
          <ServerNumbers s={s} sv={sv} />
          <EnergyNumbers sv={sv} />
          <SpecDecodeNumbers sv={sv} />
        </div>
      </div>
      <p className="caption">
        The server’s counters count every client’s traffic in the window, so they can exceed this run’s own.
      </p>
      <RoleNumbers sv={sv} />
      <ServerRequestsChart data={mergeSteps(sv.series, clientInFlight, xMax)} xMax={xMax} width={width} />
    </section>
  );
}

/** The server's latency histograms beside the client's quantiles of the same requests. */
function ServerLatencyTable({ s, sv }: { s: RunSummary; sv: ServerSideSummary }) {
  const ttft = statsOf(s, 'ttft');
  const e2e = statsOf(s, 'e2el');
  // Embeddings and rerank: no token, so no TTFT or inter-token rows (vLLM still observes a
  // "first token" for them at the end of their pass: not a token time, left out).
  const streams = streamsTokens(s);
  return (
    <div>
      <table className="run-table num" data-testid="sum-server-latency">
        <thead>
          <tr>
            <th>from its histograms</th>
            <th>count</th>
            <th>server p50</th>
            <th>server p99</th>
            <th>client p50</th>
            <th>client p99</th>
          </tr>
        </thead>
        <tbody>
          {streams && (
            <HistRow
              name="TTFT"
              server={sv.ttft}
              client={ttft ? { p50: ttft.median, p99: ttft.p99 } : null}
              testId="sum-server-ttft"
              title="Server: arrival at the server to its first token. Client: request sent to first token received — plus network, HTTP and any proxy."
            />
          )}
          <HistRow
            name="Queue time"
            server={sv.queueTime}
            client={null}
            testId="sum-server-queue"
            title="Time the server kept requests waiting for a batch slot (only the server knows it)."
          />
          <HistRow
            name="E2E latency"
            server={sv.e2e}
            client={e2e ? { p50: e2e.median, p99: e2e.p99 } : null}
            testId="sum-server-e2e"
            title="Whole request, as the server and as the client timed it."
          />
          {streams && (
            <HistRow
              name="Inter-token"
              server={sv.itl}
              client={null}
              testId="sum-server-itl"
              title="The server's own inter-token histogram (compare with ITL per token above)."
            />
          )}
        </tbody>
      </table>
      <p className="caption">
        Quantiles interpolate inside the server’s histogram buckets (Prometheus’ histogram_quantile); where a
        bucket is wide next to its value, the bucket itself is shown: the true value is anywhere in it.
      </p>
    </div>
  );
}

/** The server's token counters against the client's, and what only the server knows. */
function ServerNumbers({ s, sv }: { s: RunSummary; sv: ServerSideSummary }) {
  return (
    <dl className="sum-rows compact" data-testid="sum-server-numbers">
      {streamsTokens(s) && (
        <div className="sum-row">
          <dt>Generated tokens (server counter)</dt>
          <dd data-testid="sum-server-gen">
            {int(sv.delta.generationTokens)}
            <span className="unit">
              {' '}
              vs {clientTokens(s.vllm.total_output_tokens, s.tokens.failedOutput, 'received')}
            </span>
          </dd>
        </div>
      )}
      <div className="sum-row">
        <dt>Prompt tokens (server counter)</dt>
        <dd>
          {int(sv.delta.promptTokens)}
          <span className="unit">
            {' '}
            vs{' '}
            {clientTokens(
              s.vllm.total_input_tokens,
              s.tokens.failedInput,
              'sent',
              s.tokens.failedInputEstimated,
            )}
          </span>
        </dd>
      </div>
      <div className="sum-row">
        <dt>Peak running / waiting</dt>
        <dd data-testid="sum-server-peaks">
          {int(sv.peak.running)} / {int(sv.peak.waiting)}
        </dd>
      </div>
      <div className="sum-row">
        <dt>Peak KV-cache usage</dt>
        <dd>{pct(sv.peak.kvCacheUsage)}</dd>
      </div>
      <div className="sum-row">
        <dt>Preemptions</dt>
        <dd>{int(sv.delta.preemptions)}</dd>
      </div>
      {sv.prefixCache !== undefined && (
        <div className="sum-row">
          <dt title="The server's own prefix-cache counters (hit ÷ queried prompt tokens) over the run, or its hit-rate gauge">
            Prefix-cache hits
          </dt>
          <dd data-testid="sum-server-prefix" title={serverPrefixCacheText(sv.prefixCache)}>
            {serverPrefixCacheShort(sv.prefixCache)}
          </dd>
        </div>
      )}
    </dl>
  );
}

/** The server's running and waiting gauges and the client's in-flight count (mergeSteps). */
function ServerRequestsChart({ data, xMax, width }: { data: TimePoint[]; xMax: number; width?: number }) {
  return (
    <div className="mchart">
      <header className="card-head mchart-head">
        <h3 title="The server's running and waiting gauges at each scrape, and this client's requests in flight.">
          Server requests
        </h3>
        <ul className="legend mchart-legend">
          <li>
            <i className="sw mline" style={{ borderColor: C.ttft }} />
            running
          </li>
          <li>
            <i className="sw mline" style={{ borderColor: C.error }} />
            waiting
          </li>
          <li>
            <i className="sw mline dashed" style={{ borderColor: C.muted }} />
            client in flight
          </li>
        </ul>
      </header>
      <SeriesChart
        width={width}
        data={data}
        lines={[
          { key: 'running', name: 'running', color: C.ttft, step: true },
          { key: 'waiting', name: 'waiting', color: C.error, step: true },
          { key: 'client', name: 'client in flight', color: C.muted, step: true, dashed: true },
        ]}
        xMax={xMax}
        yLabel="requests"
        integer
        format={(v) => `${fmtCompact(v)} requests`}
        testId="sum-server-chart"
      />
    </div>
  );
}
