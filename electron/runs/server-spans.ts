/**
 * The run's side of tracing (docs/tracing.md): an OTLP receiver's spans, kept bounded, and at the
 * run's end joined to its request lines by trace id (shared/tracing/join.ts) into the run file's
 * `spans` line. A server exports its spans a moment after each request ends (vLLM's batch
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

/** Spans kept at most; past it new ones are counted, not kept. */
const MAX_KEPT_SPANS = 500_000;
/** How long the end of a run waits for the last spans (vLLM's exporter batches every 5 s). */
const DEFAULT_SPAN_WAIT_MS = 6_000;

export interface SpanSource {
  /** The receiver's traces endpoint. */
  readonly url: string;
  spans(): readonly OtlpSpan[];
  stats(): ReceiverStats & { dropped: number };
}

export interface SpanReceiver extends SpanSource {
  close(): Promise<void>;
}

/** A receiver for a run's spans (openSpanReceiver says why one cannot listen). @internal exported for its tests */
export async function startSpanReceiver(port: number, host?: string): Promise<SpanReceiver> {
  const kept: OtlpSpan[] = [];
  let dropped = 0;
  const r: OtlpReceiver = await startOtlpReceiver({
    port,
    host,
    onSpans: (spans) => {
      for (const s of spans) {
        if (kept.length < MAX_KEPT_SPANS) kept.push(s);
        else dropped++;
      }
    },
  });
  return {
    url: r.url,
    spans: () => kept,
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
  return {
    type: 'spans',
    via: src.url,
    sharedClock: sharesClock(targetUrl),
    phases: joined.phases,
    unmatched: joined.unmatched,
    otherSpans: joined.otherSpans,
    rejected: { ...st.rejected, ...(st.dropped > 0 ? { dropped: st.dropped } : {}) } as Record<
      string,
      number
    >,
  };
}
