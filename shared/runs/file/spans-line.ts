/**
 * A run file's `spans` line, written after the requests and before the summary when the run
 * received the server's traces (run --otlp-listen; shared/tracing/join.ts): each joined request's
 * server phases by request id, what did not join, and what the receiver refused. The request lines
 * were written as the requests ended, before their spans arrived; a reader puts the phases back on
 * them (`server`).
 */
import { z } from 'zod';
import { ServerPhasesSchema, type ServerPhases } from '../../tracing/server-phases.ts';
import type { RunRequestLine } from './line-schema.ts';

export interface RunSpansLine {
  type: 'spans';
  /** The receiver's endpoint. */
  via: string;
  /** Client and server share a wall clock (a loopback target): send/return times are derivable. */
  sharedClock: boolean;
  phases: Record<string, ServerPhases>;
  unmatched: { spans: number; traceIds: string[] };
  otherSpans: number;
  /** Bodies the receiver refused, by kind (electron/otlp/receiver.ts). */
  rejected: Record<string, number>;
}

export const SpansLineSchema = z.object({
  type: z.literal('spans'),
  via: z.string().max(2000),
  sharedClock: z.boolean(),
  phases: z.record(z.string(), ServerPhasesSchema),
  unmatched: z.object({ spans: z.number().int().min(0), traceIds: z.array(z.string().max(64)).max(1000) }),
  otherSpans: z.number().int().min(0),
  rejected: z.record(z.string(), z.number().int().min(0)),
});

/** Puts the phases on the request lines they belong to. */
export function applySpans(requests: RunRequestLine[], s: RunSpansLine): void {
  for (const l of requests) {
    const p = s.phases[l.id];
    if (p !== undefined) l.server = p;
  }
}
