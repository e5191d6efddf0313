/**
 * The run's side of tracing (docs/tracing.md): an OTLP receiver's spans, and at the run's end
 * joined to its request lines by trace id (shared/tracing/join.ts) into the run file's `spans`
 * line. Only spans of traces the run sent are kept: the runner names each trace as its request is
 * prepared (`expect`, before a byte is sent, so no span can arrive first); a span of any other
 * trace — a server traced by someone else's client — is counted, and its trace id listed (a
 * bounded sample), at arrival, so a busy shared server cannot fill memory. A server exports its spans a moment after each request ends (vLLM's batch
 * processor: up to 5 s), so the join waits until every traced successful request has its span, or
 * until `waitMs` passes.
 */
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import type { RunSpansLine } from '../../shared/runs/file/spans-line.ts';
import { joinSpans } from '../../shared/tracing/join.ts';
import type { OtlpSpan } from '../../shared/tracing/spans.ts';
import { sharesClock } from '../../shared/tracing/ttft-parts.ts';
import { errorMessage, fail, ok, type Result } from '../../shared/result.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceiverStats } from '../otlp/receiver.ts';

/** Spans of known traces kept at most; past it new ones are counted, not kept. */
const MAX_KEPT_SPANS = 500_000;
/** Unknown traces listed at most (their spans are all counted). */
const MAX_LISTED_UNKNOWN = 50;
/** How long the end of a run waits for the last spans (vLLM's exporter batches every 5 s). */
const DEFAULT_SPAN_WAIT_MS = 6_000;

export interface SpanSource {
  /** The receiver's traces endpoint. */
  readonly url: string;
  /** A trace one of ours sent: its spans are kept from now on. */
  expect(traceId: string): void;
  /** Done with a trace: its spans are let go, and later ones counted as unknown. */
  release(traceId: string): void;
  /** The kept spans: those of expected traces only. */
  spans(): readonly OtlpSpan[];
  /** Spans of traces never expected: counted at arrival, a sample of their trace ids listed. */
  unknown(): { spans: number; traceIds: string[] };
  stats(): ReceiverStats & { dropped: number };
}

export interface SpanReceiver extends SpanSource {
  close(): Promise<void>;
}

/** A receiver for a run's spans (openSpanReceiver says why one cannot listen). @internal exported for its tests */
export async function startSpanReceiver(port: number, host?: string): Promise<SpanReceiver> {
  const kept: OtlpSpan[] = [];
  const known = new Set<string>();
  const unknown = { spans: 0, traceIds: new Set<string>() };
  let dropped = 0;
  const r: OtlpReceiver = await startOtlpReceiver({
    port,
    host,
    onSpans: (spans) => {
      for (const s of spans) {
        if (!known.has(s.traceId)) {
          unknown.spans++;
          if (unknown.traceIds.size < MAX_LISTED_UNKNOWN) unknown.traceIds.add(s.traceId);
        } else if (kept.length < MAX_KEPT_SPANS) kept.push(s);
        else dropped++;
      }
    },
  });
  return {
    url: r.url,
    expect: (traceId) => void known.add(traceId),
    release: (traceId) => {
      if (!known.delete(traceId)) return;
      const rest = kept.filter((s) => s.traceId !== traceId);
      kept.splice(0, kept.length, ...rest);
    },
    spans: () => kept,
    unknown: () => ({ spans: unknown.spans, traceIds: [...unknown.traceIds] }),
    stats: () => ({ ...r.stats(), dropped }),
    close: () => r.close(),
  };
}

export interface SpanListenError {
  kind: 'port-taken' | 'address' | 'permission' | 'other';
  message: string;
}

/**
 * The receiver a run's spans come to (run --otlp-listen, the run form's trace option), or why it
 * cannot listen, said so a user can act on it: a port already taken is the common case.
 */
export async function openSpanReceiver(
  port: number,
  host?: string,
): Promise<Result<SpanReceiver, SpanListenError>> {
  const where = `${host ?? '127.0.0.1'}:${port}`;
  try {
    return ok(await startSpanReceiver(port, host));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      return fail({
        kind: 'port-taken',
        message: `cannot listen for server traces on ${where}: the port is taken (another program listens there, e.g. an OpenTelemetry collector); choose another port`,
      });
    if (code === 'EACCES')
      return fail({
        kind: 'permission',
        message: `cannot listen for server traces on ${where}: not allowed (ports under 1024 need privileges); choose a port from 1024 up`,
      });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return fail({
        kind: 'address',
        message: `cannot listen for server traces on ${where}: this machine has no such address`,
      });
    return fail({
      kind: 'other',
      message: `cannot listen for server traces on ${where}: ${errorMessage(e)}`,
    });
  }
}

/** Joins the spans received so far to the lines, waiting (bounded) for those still to come. */
export async function collectSpans(
  src: SpanSource,
  lines: readonly RunRequestLine[],
  targetUrl: string,
  o: { waitMs?: number; signal?: AbortSignal } = {},
): Promise<RunSpansLine> {
  const want = lines.filter((l) => l.trace && l.status === 'ok');
  const deadline = performance.now() + (o.waitMs ?? DEFAULT_SPAN_WAIT_MS);
  let joined = joinSpans(lines, src.spans());
  while (want.some((l) => !joined.phases[l.id]) && performance.now() < deadline && !o.signal?.aborted) {
    await new Promise((r) => setTimeout(r, 50));
    joined = joinSpans(lines, src.spans());
  }
  const st = src.stats();
  const unknown = src.unknown();
  const listed = new Set([...unknown.traceIds, ...joined.unmatched.traceIds]);
  return {
    type: 'spans',
    via: src.url,
    sharedClock: sharesClock(targetUrl),
    phases: joined.phases,
    unmatched: {
      spans: unknown.spans + joined.unmatched.spans,
      traceIds: [...listed].slice(0, MAX_LISTED_UNKNOWN),
    },
    otherSpans: joined.otherSpans,
    rejected: { ...st.rejected, ...(st.dropped > 0 ? { dropped: st.dropped } : {}) } as Record<
      string,
      number
    >,
  };
}
