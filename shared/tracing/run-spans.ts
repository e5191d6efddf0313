/**
 * A run's requests as client spans (`tokenscope export --otlp`, docs/tracing.md): one span per
 * request, in the request's own trace (the W3C trace id it sent, so a tracing backend shows it
 * beside the server's span of the same request), a new span id, no parent, kind CLIENT, from the
 * request's send to its end, with one span event per streamed chunk (its time and tokens).
 *
 * Times are the recorded wall clock, exact to the microsecond the file keeps: the run header's
 * clockZeroWall + the line's sentMs + an event's t, each rounded to µs on its own and summed as
 * integers (a double of epoch ms cannot hold µs exactly past ~2^52 µs, so no float sum). A line
 * without that clock (older files) cannot be placed and is counted, not guessed.
 *
 * Nothing secret goes in: the target is named by host and port only (no path, query or
 * credentials), no header is copied, no prompt or output text.
 */
import type { RunHeader, RunRequestLine } from '../runs/file/line-schema.ts';
import type { SpanAttributeValue } from './spans.ts';

/** OTLP SpanKind CLIENT; status codes UNSET/ERROR. */
const KIND_CLIENT = 3;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

interface ExportEvent {
  /** Nanoseconds since the epoch. */
  timeNs: bigint;
  name: string;
  attributes: Record<string, SpanAttributeValue>;
}

export interface ExportSpan {
  traceId: string;
  spanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, SpanAttributeValue>;
  events: ExportEvent[];
  status: { code: number; message: string };
}

export interface RunSpans {
  spans: ExportSpan[];
  /** Measured lines left out: no trace id (sent without trace headers), or no wall clock. */
  untraced: number;
  noClock: number;
}

/** ms (3 decimals in the file) → whole µs. */
const us = (ms: number): bigint => BigInt(Math.round(ms * 1000));

/** Where the target is, without anything a URL may carry besides its host and port. */
function serverAddressOf(url: string): { host: string; port: number } | null {
  try {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    return { host: u.hostname, port };
  } catch {
    return null;
  }
}

/** `newSpanId`: 16 hex digits, fresh per span (crypto in the caller: shared/ has no node:*). */
export function runSpansOf(
  header: RunHeader,
  lines: readonly RunRequestLine[],
  newSpanId: () => string,
): RunSpans {
  const out: RunSpans = { spans: [], untraced: 0, noClock: 0 };
  const zero = header.clockZeroWall;
  const where = serverAddressOf(header.target.url);
  for (const l of lines) {
    if (l.warmup) continue;
    if (!l.trace) {
      out.untraced++;
      continue;
    }
    if (zero === undefined || l.sentMs === undefined) {
      out.noClock++;
      continue;
    }
    const sentUs = us(zero) + us(l.sentMs);
    const at = (t: number): bigint => (sentUs + us(t)) * 1000n;
    const lastT = l.events.t.length ? l.events.t[l.events.t.length - 1]! : 0;
    const events: ExportEvent[] = l.events.t.map((t, i) => ({
      timeNs: at(t),
      name: 'chunk',
      attributes: { 'tokenscope.chunk.index': i, 'tokenscope.chunk.tokens': l.events.tok[i]! },
    }));
    const attributes: Record<string, SpanAttributeValue> = {
      'tokenscope.run.id': header.runId,
      'tokenscope.request.id': l.id,
      'tokenscope.request.seq': l.seq,
      'gen_ai.request.model': header.target.model,
      'gen_ai.usage.output_tokens': l.outputTokens,
      'tokenscope.x_request_id': l.trace.requestId,
      'tokenscope.parent_span_id_sent': l.trace.spanId,
    };
    if (where) {
      attributes['server.address'] = where.host;
      attributes['server.port'] = where.port;
    }
    if (l.inputTokens !== null) attributes['gen_ai.usage.input_tokens'] = l.inputTokens;
    if (l.ttftMs !== null) attributes['tokenscope.ttft_ms'] = l.ttftMs;
    if (l.httpStatus !== null) attributes['http.response.status_code'] = l.httpStatus;
    if (l.responseId) attributes['gen_ai.response.id'] = l.responseId;
    if (l.error) attributes['error.type'] = `${l.error.kind}/${l.error.code}`;
    out.spans.push({
      traceId: l.trace.traceId,
      spanId: newSpanId(),
      name: 'tokenscope.request',
      kind: KIND_CLIENT,
      startNs: sentUs * 1000n,
      endNs: at(Math.max(l.phases.endMs ?? lastT, lastT)),
      attributes,
      events,
      status:
        l.status === 'ok'
          ? { code: STATUS_OK, message: '' }
          : { code: STATUS_ERROR, message: l.error?.kind ?? 'error' },
    });
  }
  return out;
}
