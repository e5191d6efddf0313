/**
 * Client vs server for one window: this client's TTFT p50/p99 next to the server's TTFT
 * histogram quantiles over the same span, their difference and what it is made of; the client's
 * output tokens next to the server's generation-token counter. Numbers from
 * metrics/client-vs-server.ts.
 */
import { setPanel, usePanelStore } from './panel-store.ts';
import { CVS_WINDOWS, type WindowedComparison } from './client-vs-server.ts';
import { fmtCompact, fmtLatency, fmtLatencyDiff } from '../core/format.ts';
import { clockLabel, fmtAge } from './time-axis.ts';

interface Props {
  comparison: WindowedComparison | null;
  /** The server has a TTFT histogram at all. */
  hasTtft: boolean;
}

function bucketText(b: { lowerMs: number; upperMs: number } | null): string {
  if (!b) return '';
  if (b.upperMs === Infinity)
    return `above the highest bound, ${fmtLatency(b.lowerMs)}: the server can only say "more than that"`;
  return `(${fmtLatency(b.lowerMs)}, ${fmtLatency(b.upperMs)}]`;
}

function tokenDiff(server: number | null, client: number): string {
  if (server === null) return '';
  const d = server - client;
  if (d === 0) return 'same count';
  return d > 0 ? `${fmtCompact(d)} more on the server` : `${fmtCompact(-d)} fewer on the server`;
}

/** The comparison window: the last 1 or 5 min, or all since watching (kept in the panel store). */
function WindowSeg() {
  const win = usePanelStore((s) => s.cvsWindow);
  return (
    <div className="seg" role="group" aria-label="Comparison window">
      {CVS_WINDOWS.map((w) => (
        <button
          key={w.id}
          type="button"
          className={win === w.id ? 'on' : ''}
          aria-pressed={win === w.id}
          onClick={() => setPanel({ cvsWindow: w.id })}
        >
          {w.label}
        </button>
      ))}
    </div>
  );
}

function CvsHead({ c }: { c: WindowedComparison | null }) {
  return (
    <header className="card-head">
      <h3 title="The same window seen from both ends of the connection">Client vs server</h3>
      {c && (
        <span className="muted">
          {clockLabel(c.startMs)} – {clockLabel(c.endMs)} ({fmtAge(c.endMs - c.startMs)}
          {c.clipped ? (c.afterGap ? ', after a gap in the scraping' : ', since watching started') : ''})
        </span>
      )}
      <WindowSeg />
    </header>
  );
}

const tone = (d: number | null) => (d === null ? '' : d >= 0 ? 'pos' : 'neg');

/** TTFT p50 and p99 and output tokens, each from both ends and their difference. */
function CvsTable({ c, noServer }: { c: WindowedComparison; noServer: boolean }) {
  const s = c.server;
  return (
    <table className="compare-table cvs-table">
      <thead>
        <tr>
          <th />
          <th title="Measured here: from before connecting to the arrival of the first token">
            client (this app)
          </th>
          <th title="The server's TTFT histogram, quantile interpolated in its buckets">server histogram</th>
          <th title="Client minus server: what the client saw on top of what the server measured">
            client − server
          </th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th>TTFT p50</th>
          <td data-testid="cvs-client-ttft-p50">{fmtLatency(c.client.p50Ms)}</td>
          <td data-testid="cvs-server-ttft-p50" title={bucketText(s.p50.bucket)}>
            {noServer ? 'not exposed' : s.n === 0 ? 'no observations' : fmtLatency(s.p50.ms)}
          </td>
          <td className={tone(c.diff.p50Ms)} data-testid="cvs-diff-ttft-p50">
            {fmtLatencyDiff(c.diff.p50Ms)}
          </td>
        </tr>
        <tr>
          <th>TTFT p99</th>
          <td data-testid="cvs-client-ttft-p99">{fmtLatency(c.client.p99Ms)}</td>
          <td data-testid="cvs-server-ttft-p99" title={bucketText(s.p99.bucket)}>
            {noServer ? 'not exposed' : s.n === 0 ? 'no observations' : fmtLatency(s.p99.ms)}
          </td>
          <td className={tone(c.diff.p99Ms)}>{fmtLatencyDiff(c.diff.p99Ms)}</td>
        </tr>
        <tr>
          <th>TTFT samples</th>
          <td>
            {c.client.n} request{c.client.n === 1 ? '' : 's'}
          </td>
          <td>{s.n === null ? '—' : `${fmtCompact(s.n)} observation${s.n === 1 ? '' : 's'}`}</td>
          <td />
        </tr>
        <tr>
          <th>Output tokens</th>
          <td data-testid="cvs-client-tokens">
            {fmtCompact(c.client.outputTokens)}{' '}
            <span className="muted">
              ({c.client.tokenRequests} request{c.client.tokenRequests === 1 ? '' : 's'})
            </span>
          </td>
          <td data-testid="cvs-server-tokens">
            {s.generationTokens === null ? 'not exposed' : `${fmtCompact(s.generationTokens)} generated`}
          </td>
          <td>{tokenDiff(s.generationTokens, c.client.outputTokens)}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** What the two sides count, how exact the server's quantiles are, and what the difference holds. */
function CvsNotes({ c, noServer }: { c: WindowedComparison; noServer: boolean }) {
  const s = c.server;
  return (
    <div className="cvs-notes">
      <p data-testid="cvs-population">
        <b>Same population.</b> TTFT on both sides counts the requests whose first token came in this window:
        the client&apos;s, by when the token arrived here; the server&apos;s, by the observations its
        histogram gained between the scrapes that bracket the window (it records a TTFT when the first token
        is produced). The window never reaches back across a gap in the scraping.
      </p>
      {c.client.n === 0 && (
        <p>
          No request of this client got its first token in this window: send one from the composer (the server
          side still shows what it saw from everyone).
        </p>
      )}
      {!noServer && s.p50.bucket && (
        <p data-testid="cvs-buckets">
          <b>Bucket resolution.</b> The server&apos;s p50 lies in its histogram bucket{' '}
          {bucketText(s.p50.bucket)}
          {s.p99.bucket ? <>, its p99 in {bucketText(s.p99.bucket)}</> : null}. Prometheus interpolates
          linearly inside a bucket, so the true value can be anywhere in that range; a client − server
          difference smaller than the bucket&apos;s width says nothing.
        </p>
      )}
      <p>
        <b>What the difference contains.</b> The client&apos;s TTFT runs from before connecting to the first
        token arriving here, so on top of the server&apos;s own figure it includes the network both ways,
        connection and TLS set-up, sending the request and HTTP handling, and any queueing outside the engine
        (API server, proxy, load balancer) — plus the bucket interpolation above, which can make the
        difference negative.
      </p>
      <p>
        <b>Tokens.</b> The server&apos;s generation counter counts every client&apos;s traffic (and requests
        that were still running or were cancelled), so it is usually larger than this client&apos;s output;
        the client counts only its requests that started and ended inside the window
        {c.client.unfinished > 0 ? ` (${c.client.unfinished} unfinished left out)` : ''}.
      </p>
    </div>
  );
}

export function ClientVsServer({ comparison: c, hasTtft }: Props) {
  if (!c) {
    return (
      <section className="card cvs" data-testid="client-vs-server" aria-label="Client vs server">
        <CvsHead c={c} />
        <p className="empty">Waiting for two scrapes of the server to compare against.</p>
      </section>
    );
  }
  const noServer = !hasTtft;
  return (
    <section className="card cvs" data-testid="client-vs-server" aria-label="Client vs server">
      <CvsHead c={c} />
      <CvsTable c={c} noServer={noServer} />
      <CvsNotes c={c} noServer={noServer} />
    </section>
  );
}
