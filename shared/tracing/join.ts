/**
 * Joins a server's spans to a run's requests by W3C trace id: a request sent with a fresh trace
 * (electron/engine/prepare-request.ts `addTraceHeaders`) is the only one that can own a span of
 * that trace. Spans of traces no request sent — a server traced by someone else's client — are
 * counted and listed, never attached; so are spans of ours that carry no request latencies.
 */
import { isRequestSpan, serverPhasesOf, type ServerPhases } from './server-phases.ts';
import type { OtlpSpan } from './spans.ts';

/** Listed unmatched trace ids, at most. */
const MAX_LISTED_TRACES = 50;

export interface JoinedSpans {
  /** Request (line) id → the server's phases. */
  phases: Record<string, ServerPhases>;
  /** Spans whose trace no request of the run sent. */
  unmatched: { spans: number; traceIds: string[] };
  /** Spans of the run's traces without vLLM's request latencies (other spans of the server). */
  otherSpans: number;
}

export interface TracedRequest {
  id: string;
  trace?: { traceId: string; spanId: string };
}

export function joinSpans(requests: readonly TracedRequest[], spans: readonly OtlpSpan[]): JoinedSpans {
  const byTrace = new Map<string, TracedRequest>();
  for (const r of requests) if (r.trace) byTrace.set(r.trace.traceId, r);
  const out: JoinedSpans = { phases: {}, unmatched: { spans: 0, traceIds: [] }, otherSpans: 0 };
  const listed = new Set<string>();
  for (const s of spans) {
    const r = byTrace.get(s.traceId);
    if (!r) {
      out.unmatched.spans++;
      if (listed.size < MAX_LISTED_TRACES && !listed.has(s.traceId)) {
        listed.add(s.traceId);
        out.unmatched.traceIds.push(s.traceId);
      }
      continue;
    }
    if (!isRequestSpan(s)) {
      out.otherSpans++;
      continue;
    }
    // One request span per request; a direct child of the client's span wins over a deeper one.
    const had = out.phases[r.id];
    if (had && !(s.parentSpanId === r.trace!.spanId && had.spanId !== s.spanId)) continue;
    out.phases[r.id] = serverPhasesOf(s);
  }
  return out;
}
