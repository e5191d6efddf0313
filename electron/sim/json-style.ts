/**
 * The JSON dialects of the servers we imitate. Byte-level details matter to clients that are
 * tested against us (test-corpus/FORMATS.md):
 * - vLLM chunks are pydantic `model_dump_json` (compact) but its mid-stream error is Python
 *   `json.dumps` (`", "` and `": "` separators, non-ASCII escaped) — §2.1, SOURCES.md;
 * - Ollama is Go `encoding/json`: `<`, `>`, `&`, U+2028 and U+2029 escaped as \u003c etc. (§2.5);
 * - vLLM's Responses API serialises keys alphabetically (§2.1).
 */

/** Python `json.dumps(value)` with its defaults (ensure_ascii=True, spaced separators). */
export function pyDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyDumps).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => `${pyDumps(k)}: ${pyDumps(v)}`,
  );
  return `{${entries.join(', ')}}`;
}

/** Go `json.Marshal` escaping on top of JSON.stringify. */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A copy with object keys sorted recursively (pydantic/openai models as vLLM's Responses emit them). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeysDeep((value as Record<string, unknown>)[k]);
  return out;
}

/**
 * Go's time.RFC3339Nano in UTC for a wall-clock time in ms with sub-ms precision, trailing
 * zeros of the fraction trimmed (`2025-10-26T17:21:21.24302Z`), as Ollama's `created_at`.
 */
export function rfc3339Nano(wallMs: number): string {
  const whole = Math.floor(wallMs / 1000);
  // A double holding epoch ms is only good to ~0.2 µs: keep microseconds, as the clock gives.
  const nanos = Math.round((wallMs - whole * 1000) * 1000) * 1000;
  const iso = new Date(whole * 1000).toISOString().slice(0, 19);
  const frac = String(Math.min(nanos, 999_999_999)).padStart(9, '0').replace(/0+$/, '');
  return frac ? `${iso}.${frac}Z` : `${iso}Z`;
}

/** Parse an RFC 3339 time with up to nanosecond fraction into wall-clock ms (sub-ms kept). */
export function parseRfc3339(text: string): number | null {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!m) return null;
  const base = Date.parse(`${m[1]}${m[3] === 'Z' ? 'Z' : m[3]}`);
  if (Number.isNaN(base)) return null;
  const frac = m[2] ? Number(`0.${m[2]}`) * 1000 : 0;
  return base + frac;
}

/** Wall-clock now in ms with sub-ms precision. */
export function wallNowMs(): number {
  return performance.timeOrigin + performance.now();
}
