/**
 * The debugger's request, inside the server (docs/tracing.md "In the request debugger"): when its
 * server exported a span to the app's receiver, the server's phases under the chunk arrivals —
 * arrival → queue → prefill → first token leaves the server → first byte at the client — with the
 * TTFT decomposed, each part saying whether it was measured or derived (PhaseBands, as in a run's
 * view). Nothing is drawn for a server that does not trace.
 */
import { useEffect, useState } from 'react';
import { EV_CONTENT } from '../../shared/request.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { ttftParts } from '../../shared/tracing/ttft-parts.ts';
import { liveStore } from './live-store.ts';
import { PhaseBands } from './timeline/PhaseBands.tsx';

export function RequestServerPhases({ requestId }: { requestId: string | null }) {
  const [, setVersion] = useState(0);
  useEffect(
    () =>
      liveStore.subscribe((id) => {
        if (id === requestId) setVersion((v) => v + 1);
      }),
    [requestId],
  );
  const r = liveStore.get(requestId);
  const server = r?.server;
  const rec = r?.final;
  if (!server || !rec) return null;
  const ttft = computeRequestStats(rec).ttftMs;
  const parts = ttftParts(ttft, server.phases, server.sharedClock ? rec.startedAtWall : null);
  const ev = rec.events;
  const chunks: number[] = [];
  for (let i = 0; i < ev.n; i++) if ((ev.flags[i]! & EV_CONTENT) !== 0) chunks.push(ev.t[i]!);
  return (
    <section className="card" aria-label="Server phases" data-testid="request-server-phases">
      <header className="card-head">
        <h3 title="The server's own span for this request (OTLP), joined by its trace id">
          Inside the server
        </h3>
        <span className="muted">span {server.phases.spanId}</span>
      </header>
      {parts ? (
        <PhaseBands parts={parts} server={server.phases} chunkTimes={chunks} />
      ) : (
        <p className="muted">The server&apos;s span lacks queue, prefill or TTFT: nothing to decompose.</p>
      )}
    </section>
  );
}
