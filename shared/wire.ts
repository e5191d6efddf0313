/**
 * Web-mode wire format (WebSocket, JSON text frames). Electron's IPC carries the same values by
 * structured clone; over the socket typed arrays are tagged so they arrive as typed arrays again.
 *
 *   UI → core:  { type: 'call', id, method, args }   { type: 'ready' }
 *   core → UI:  { type: 'result', id, result }       { type: 'event', event, payload }
 *
 * The core queues events until the UI says 'ready' (as electron/fiddle does), so nothing sent
 * while the page loads is lost.
 *
 * Non-finite numbers, which JSON would turn into null, are tagged too: `{"__num":"+Inf"}`,
 * `"-Inf"`, `"NaN"` (also inside typed arrays), so a histogram's `+Inf` bucket bound or a NaN
 * sample arrives as it was sent, as it does through Electron's structured clone.
 */
import type { ApiEvent, ApiMethod, Result } from './api.ts';

export type UiMessage = { type: 'call'; id: number; method: ApiMethod; args: unknown[] } | { type: 'ready' };
export type CoreMessage =
  | { type: 'result'; id: number; result: Result<unknown> }
  | { type: 'event'; event: ApiEvent; payload: unknown };

const TAGS = {
  Float64Array,
  Float32Array,
  Uint32Array,
  Int32Array,
  Uint8Array,
  Uint16Array,
} as const;
type Tag = keyof typeof TAGS;

function tagOf(v: unknown): Tag | null {
  for (const k of Object.keys(TAGS) as Tag[]) if (v instanceof TAGS[k]) return k;
  return null;
}

type NonFinite = '+Inf' | '-Inf' | 'NaN';
const NON_FINITE: Record<NonFinite, number> = { '+Inf': Infinity, '-Inf': -Infinity, NaN: NaN };

function nonFiniteTag(v: number): { __num: NonFinite } {
  return { __num: Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf' };
}

export function encodeWire(msg: unknown): string {
  return JSON.stringify(msg, function (this: unknown, _key: string, value: unknown) {
    if (typeof value === 'number') return Number.isFinite(value) ? value : nonFiniteTag(value);
    if (value !== null && typeof value === 'object' && ArrayBuffer.isView(value)) {
      const tag = tagOf(value);
      if (tag) return { __ta: tag, v: Array.from(value as unknown as ArrayLike<number>) };
    }
    return value;
  });
}

export function decodeWire(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    // Exactly the tag's shape; `__num` (like `__ta`) is reserved as a key of the wire format.
    if (
      value !== null &&
      typeof value === 'object' &&
      '__num' in (value as object) &&
      Object.keys(value).length === 1
    ) {
      const tag = (value as { __num: unknown }).__num;
      if (typeof tag === 'string' && Object.prototype.hasOwnProperty.call(NON_FINITE, tag))
        return NON_FINITE[tag as NonFinite];
    }
    if (value !== null && typeof value === 'object' && '__ta' in (value as object)) {
      const { __ta, v } = value as { __ta: Tag; v: number[] };
      const C = TAGS[__ta];
      if (C && Array.isArray(v)) return C.from(v);
    }
    return value;
  });
}
