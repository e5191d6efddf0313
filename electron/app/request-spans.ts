/**
 * The request debugger's server phases (docs/tracing.md "In the request debugger"): the app's own
 * OTLP receiver on loopback, to which the built-in simulator exports its spans (and a user's vLLM
 * can, with `--otlp-traces-endpoint`). Each debugger request's trace is announced before it is sent;
 * once the request ends, its server span is waited for (bounded: a server exports a moment later,
 * vLLM's batch processor up to 5 s) and joined by trace id, exactly as a run joins its requests
 * (shared/tracing/join.ts). The trace is then let go, so the receiver holds only requests in flight.
 */
import type { TraceContext } from '../../shared/record.ts';
import { joinSpans } from '../../shared/tracing/join.ts';
import type { ServerPhases } from '../../shared/tracing/server-phases.ts';
import { sharesClock } from '../../shared/tracing/ttft-parts.ts';
import type { SpanReceiver } from '../runs/server-spans.ts';

/** How long a finished request waits for its span (vLLM's exporter batches every 5 s). */
const SPAN_WAIT_MS = 6_000;
const POLL_MS = 50;

/** A debugger request's server span, joined (shared/api.ts RequestSnapshot `server`). */
export interface RequestServerSide {
  phases: ServerPhases;
  /** Client and server on one machine (a loopback URL): send and return can be split. */
  sharedClock: boolean;
}

export class DebuggerSpans {
  private closed = false;

  constructor(
    private readonly r: SpanReceiver,
    private readonly waitMs = SPAN_WAIT_MS,
  ) {}

  /** The traces endpoint a server exports to. */
  get url(): string {
    return this.r.url;
  }

  expect(trace: TraceContext): void {
    this.r.expect(trace.traceId);
  }

  /** The request's server span once it has come (null: none within the wait, or closed). */
  async serverOf(trace: TraceContext, url: string): Promise<RequestServerSide | null> {
    const deadline = performance.now() + this.waitMs;
    try {
      for (;;) {
        const phases = joinSpans([{ id: 'r', trace }], this.r.spans()).phases.r;
        if (phases) return { phases, sharedClock: sharesClock(url) };
        if (this.closed || performance.now() >= deadline) return null;
        await new Promise((res) => setTimeout(res, POLL_MS));
      }
    } finally {
      this.r.release(trace.traceId);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.r.close();
  }
}
