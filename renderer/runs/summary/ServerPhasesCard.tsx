/**
 * The server's own phases in the run view (docs/tracing.md): the percentiles of summary.serverPhases
 * — queue, prefill, decode, server TTFT and E2E from the spans, exact per request, next to the same
 * requests' client TTFT and its parts — and, for one request picked (the slowest first token by
 * default), its phases drawn under its chunk arrivals with the TTFT decomposition.
 */
import { useMemo, useState } from 'react';
import type { RunDetail } from '../../../shared/runs-api.ts';
import type { MetricStats, RunSummary } from '../../../shared/runs/summary/schema.ts';
import { EV_CONTENT } from '../../../shared/request.ts';
import { ttftParts } from '../../../shared/tracing/ttft-parts.ts';
import { PhaseBands } from '../../request/timeline/PhaseBands.tsx';
import { f2 } from './summary-format.ts';

/** Requests offered in the picker at most (slowest TTFT first). */
const MAX_PICK = 200;

export function ServerPhasesCard({ d, s, width }: { d: RunDetail; s: RunSummary; width?: number }) {
  const p = s.serverPhases;
  if (!p) return null;
  return (
    <section className="card" aria-label="Server phases">
      <header className="card-head">
        <h3 title="From the server's OTLP spans joined to the requests by trace id: each request's own numbers, not a histogram's buckets">
          Server phases (spans)
        </h3>
        <span className="muted">
          {p.joined} of {p.requests} requests joined to their span ·{' '}
          {p.sharedClock
            ? 'shared clock: send and return derived'
            : 'no shared clock: send + return not split'}
        </span>
      </header>
      <div className="table-scroll">
        <table className="run-table num" data-testid="sum-server-phases">
          <thead>
            <tr>
              <th>ms</th>
              <th>median</th>
              <th>p90</th>
              <th>p99</th>
              <th className="how">how it is known</th>
            </tr>
          </thead>
          <tbody>
            <Row label="Queue" m={p.queueMs} how="measured by the server" />
            <Row label="Prefill" m={p.prefillMs} how="measured by the server" />
            <Row label="Decode" m={p.decodeMs} how="measured by the server" />
            <Row label="Server TTFT" m={p.serverTtftMs} how="measured by the server: arrival → first token" />
            <Row label="Server E2E" m={p.serverE2eMs} how="measured by the server" />
            <Row label="Client TTFT" m={p.clientTtftMs} how="measured by the client" strong />
            <Row label="  pre-queue" m={p.preQueueMs} how="derived: server TTFT − queue − prefill" />
            {p.sharedClock ? (
              <>
                <Row label="  send" m={p.sendMs} how="derived: span start − client send (shared clock)" />
                <Row label="  return" m={p.returnMs} how="derived: client TTFT − send − server TTFT" />
              </>
            ) : (
              <Row
                label="  outside the server"
                m={p.outsideServerMs}
                how="derived: client TTFT − server TTFT (a split needs a shared clock)"
              />
            )}
          </tbody>
        </table>
      </div>
      <RequestPhases d={d} sharedClock={p.sharedClock} width={width} />
    </section>
  );
}

function Row({
  label,
  m,
  how,
  strong,
}: {
  label: string;
  m: MetricStats | null;
  how: string;
  strong?: boolean;
}) {
  return (
    <tr className={strong ? 'total' : undefined}>
      <th scope="row" style={{ whiteSpace: 'pre' }}>
        {label}
      </th>
      <td>{f2(m?.median)}</td>
      <td>{f2(m?.p90)}</td>
      <td>{f2(m?.p99)}</td>
      <td className="how">{how}</td>
    </tr>
  );
}

/** One request's phases drawn: a picker of the joined requests, slowest client TTFT first. */
function RequestPhases({ d, sharedClock, width }: { d: RunDetail; sharedClock: boolean; width?: number }) {
  const joined = useMemo(
    () =>
      (d.lines ?? [])
        .filter((l) => !l.warmup && l.server && l.ttftMs !== null)
        .sort((a, b) => b.ttftMs! - a.ttftMs!)
        .slice(0, MAX_PICK),
    [d.lines],
  );
  const [picked, setPicked] = useState<string | null>(null);
  const line = joined.find((l) => l.id === picked) ?? joined[0];
  if (!line) return null;
  const zero = d.header?.clockZeroWall;
  const sent = sharedClock && zero !== undefined && line.sentMs !== undefined ? zero + line.sentMs : null;
  const parts = ttftParts(line.ttftMs, line.server, sent);
  const chunks = line.events.t.filter((_, i) => (line.events.f[i]! & EV_CONTENT) !== 0);
  return (
    <div className="request-phases">
      <label className="row gap" style={{ alignItems: 'center' }}>
        <span className="muted">Request</span>
        <select
          aria-label="Request to decompose"
          data-testid="phase-request"
          value={line.id}
          onChange={(e) => setPicked(e.target.value)}
        >
          {joined.map((l) => (
            <option key={l.id} value={l.id}>
              #{l.seq} · TTFT {f2(l.ttftMs)} ms · queue {f2(l.server!.queueMs)} ms
            </option>
          ))}
        </select>
        <span className="muted">(slowest first token first)</span>
      </label>
      {parts ? (
        <PhaseBands
          parts={parts}
          server={line.server!}
          chunkTimes={chunks}
          width={Math.min(width ?? 760, 900)}
        />
      ) : (
        <p className="muted">This request&apos;s span lacks queue, prefill or TTFT: nothing to decompose.</p>
      )}
    </div>
  );
}
