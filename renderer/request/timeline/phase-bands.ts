/**
 * Where one request's time went before its first token, laid out for drawing under its chunk
 * arrivals (PhaseBands.tsx; docs/tracing.md "TTFT, decomposed"). Every x is ms since the client sent
 * the request (the chunk arrivals' zero). Two rows:
 *   client: the chunks as they arrived, first token at the client TTFT;
 *   server: send → pre-queue → queue → prefill → return, the server's own part from its span.
 * With a shared clock (client and server on one machine) the span's start places the server's part
 * exactly: send and return are derived. Without one, only their sum (client TTFT − server TTFT) is
 * known: the server's part is drawn centred in the client TTFT and the sum on both sides as one
 * undivided "outside the server" band, marked as such.
 */
import type { ServerPhases } from '../../../shared/tracing/server-phases.ts';
import type { TtftParts } from '../../../shared/tracing/ttft-parts.ts';

export type BandKey = 'send' | 'preQueue' | 'queue' | 'prefill' | 'return' | 'outside';

interface Band {
  key: BandKey;
  label: string;
  x0: number;
  x1: number;
  ms: number;
  /** How it is known: measured by a clock, or derived from measured ones. */
  how: 'measured (server span)' | 'derived' | 'derived (shared clock)' | 'derived (sum only)';
}

export interface PhaseLayout {
  /** Domain of the x axis, ms since the client's send. */
  xMax: number;
  clientTtftMs: number;
  /** Arrival of the server's first token at the server, ms since the client's send (shared clock only). */
  serverFirstTokenMs: number | null;
  arrivalMs: number | null;
  bands: Band[];
  /** Chunk arrivals in view. */
  chunks: number[];
  sharedClock: boolean;
}

/** Chunks shown after the first, at most: enough to see the stream start, not its whole decode. */
const CHUNKS_AFTER_FIRST = 6;

export function phaseLayout(
  parts: TtftParts,
  server: ServerPhases,
  chunkTimes: readonly number[],
): PhaseLayout {
  const ttft = parts.clientTtftMs;
  const firstIdx = chunkTimes.findIndex((t) => t >= ttft - 1e-9);
  const shownTo =
    firstIdx < 0 ? chunkTimes.length : Math.min(chunkTimes.length, firstIdx + 1 + CHUNKS_AFTER_FIRST);
  const chunks = chunkTimes.slice(0, shownTo);
  const serverTtft = server.ttftMs ?? ttft - parts.outsideServerMs;
  const shared = parts.sharedClock && parts.sendMs !== null && parts.returnMs !== null;
  const arrival = shared ? parts.sendMs! : Math.max(0, parts.outsideServerMs / 2);
  const inside: Band[] = [];
  let x = arrival;
  const push = (key: BandKey, label: string, ms: number, how: Band['how']) => {
    inside.push({ key, label, x0: x, x1: x + ms, ms, how });
    x += ms;
  };
  push('preQueue', 'pre-queue', parts.preQueueMs, 'derived');
  push('queue', 'queue', parts.queueMs, 'measured (server span)');
  push('prefill', 'prefill', parts.prefillMs, 'measured (server span)');
  const bands: Band[] = shared
    ? [
        { key: 'send', label: 'send', x0: 0, x1: arrival, ms: parts.sendMs!, how: 'derived (shared clock)' },
        ...inside,
        {
          key: 'return',
          label: 'return',
          x0: arrival + serverTtft,
          x1: ttft,
          ms: parts.returnMs!,
          how: 'derived (shared clock)',
        },
      ]
    : [
        {
          key: 'outside',
          label: 'outside (½)',
          x0: 0,
          x1: arrival,
          ms: parts.outsideServerMs,
          how: 'derived (sum only)',
        },
        ...inside,
        {
          key: 'outside',
          label: 'outside (½)',
          x0: arrival + serverTtft,
          x1: ttft,
          ms: parts.outsideServerMs,
          how: 'derived (sum only)',
        },
      ];
  const last = chunks.length ? chunks[chunks.length - 1]! : ttft;
  return {
    xMax: Math.max(ttft, last, arrival + serverTtft) * 1.04 || 1,
    clientTtftMs: ttft,
    serverFirstTokenMs: shared ? arrival + serverTtft : null,
    arrivalMs: shared ? arrival : null,
    bands,
    chunks,
    sharedClock: shared,
  };
}
