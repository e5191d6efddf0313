/**
 * Test fixtures: records from hand-built event columns, small enough to check every number by hand.
 * Not shipped: used by the stats and run-summary tests.
 */
import { newRecord, type RequestRecord } from '../record.ts';
import { EV_COALESCED, EV_CONTENT, EV_TERMINAL, EV_TOKENS_EXACT, EV_USAGE, type Usage } from '../request.ts';

export type Row = [t: number, tok: number, f: number, read: number];

export const C = EV_CONTENT | EV_TOKENS_EXACT;
export const X = EV_COALESCED;

/** A record from hand-built columns: [t, tokens, flags, read] per event. */
export function recordOf(
  rows: readonly Row[],
  o: { usage?: Usage | null; endMs?: number } = {},
): RequestRecord {
  const n = rows.length;
  return newRecord({
    id: 'r',
    url: 'http://x',
    dialect: 'openai-chat',
    model: 'm',
    startedAtWall: 0,
    phases: {
      connectedMs: 1,
      requestWrittenMs: 2,
      headersMs: 5,
      firstByteMs: rows[0]?.[0] ?? null,
      endMs: o.endMs ?? rows[n - 1]?.[0] ?? null,
    },
    status: 200,
    usage: o.usage ?? null,
    events: {
      n,
      t: Float64Array.from(rows.map((r) => r[0])),
      tokens: Uint32Array.from(rows.map((r) => r[1])),
      flags: Uint16Array.from(rows.map((r) => r[2])),
      read: Uint32Array.from(rows.map((r) => r[3])),
      text: rows.map(() => ''),
      size: new Uint32Array(n),
    },
  });
}

/**
 * Exact per-event tokens. Reads: role · 1 tok · 2 tok · [1, 1, 2 tok] · 1 tok · [1 tok + usage] ·
 * [1, 3 tok] · [DONE]. Chunk gaps 20 30 0 0 10 20 20 0: three coalesced (two content events of one read).
 */
export const EXACT: Row[] = [
  [10, 0, 0, 0],
  [50, 1, C, 1],
  [70, 2, C, 2],
  [100, 1, C | X, 3],
  [100, 1, C | X, 3],
  [100, 2, C | X, 3],
  [110, 1, C, 4],
  [130, 1, C | X, 5],
  [130, 0, EV_USAGE | X, 5], // shares the read, but is no content: the 130 gap is measured
  [150, 1, C | X, 6],
  [150, 3, C | X, 6],
  [160, 0, EV_TERMINAL, 7],
];

/** The same columns with every EV_COALESCED flag cleared: what a client that read in time would record. */
export const withoutCoalesced = (rows: readonly Row[]): Row[] =>
  rows.map(([t, k, f, r]) => [t, k, f & ~X, r]);
