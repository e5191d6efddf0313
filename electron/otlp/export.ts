/**
 * Sends client spans to an OTLP/HTTP traces endpoint (`tokenscope export --otlp URL RUN`): protobuf
 * (`application/x-protobuf`, encode.ts), in batches bounded by spans and by events so no body grows
 * past what a collector takes (the repo's receiver and the OpenTelemetry Collector: 8 MiB and more).
 * Batches go one after another; the first the endpoint refuses (a status other than 2xx) or that
 * cannot reach it stops the export with what was sent and why, as a value.
 */
import type { ExportSpan } from '../../shared/tracing/run-spans.ts';
import type { SpanAttributeValue } from '../../shared/tracing/spans.ts';
import { errorMessage, fail, ok, type Result } from '../../shared/result.ts';
import { encodeSpans } from './encode.ts';

/** Spans per export at most (the OpenTelemetry SDK's batch default). */
const MAX_BATCH_SPANS = 512;
/** Span events per export at most (~30 bytes each: a body of a few MB). */
const MAX_BATCH_EVENTS = 100_000;
const TIMEOUT_MS = 30_000;

export interface ExportError {
  kind: 'refused' | 'network' | 'url';
  message: string;
  /** Spans the endpoint had accepted before. */
  sent: number;
}

/** Splits spans into batches of at most `maxSpans` spans and `maxEvents` events (a span alone may pass it). */
function batchesOf(
  spans: readonly ExportSpan[],
  maxSpans = MAX_BATCH_SPANS,
  maxEvents = MAX_BATCH_EVENTS,
): ExportSpan[][] {
  const out: ExportSpan[][] = [];
  let cur: ExportSpan[] = [];
  let events = 0;
  for (const s of spans) {
    if (cur.length > 0 && (cur.length >= maxSpans || events + s.events.length > maxEvents)) {
      out.push(cur);
      cur = [];
      events = 0;
    }
    cur.push(s);
    events += s.events.length;
  }
  if (cur.length) out.push(cur);
  return out;
}

export async function exportSpans(
  url: string,
  spans: readonly ExportSpan[],
  o: {
    resource: Record<string, SpanAttributeValue>;
    maxSpans?: number;
    maxEvents?: number;
    signal?: AbortSignal;
  },
): Promise<Result<{ spans: number; batches: number }, ExportError>> {
  let endpoint: URL;
  try {
    endpoint = new URL(url);
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    return fail({ kind: 'url', message: `not an http(s) URL: ${url}`, sent: 0 });
  }
  // fetch refuses a URL with credentials: they travel as Basic auth, never in a message.
  const headers: Record<string, string> = { 'content-type': 'application/x-protobuf' };
  if (endpoint.username || endpoint.password) {
    const user = decodeURIComponent(endpoint.username);
    const pass = decodeURIComponent(endpoint.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    endpoint.username = '';
    endpoint.password = '';
  }
  let sent = 0;
  const batches = batchesOf(spans, o.maxSpans, o.maxEvents);
  for (const b of batches) {
    const body = encodeSpans(b, o.resource);
    let res: Response;
    try {
      res = await fetch(endpoint, {
        method: 'POST',
        headers,
        body: new Uint8Array(body),
        signal: o.signal ?? AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (e) {
      const cause = (e as { cause?: unknown }).cause;
      return fail({
        kind: 'network',
        message: `cannot reach ${endpoint.origin}: ${cause ? errorMessage(cause) : errorMessage(e)}`,
        sent,
      });
    }
    const text = (await res.text().catch(() => '')).slice(0, 500);
    if (!res.ok)
      return fail({
        kind: 'refused',
        message: `the endpoint refused the spans: HTTP ${res.status}${text ? ` (${text.replace(/\s+/g, ' ').trim()})` : ''}`,
        sent,
      });
    sent += b.length;
  }
  return ok({ spans: sent, batches: batches.length });
}
