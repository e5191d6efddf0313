/** Character classes of the exposition formats, as char-code tests (no regex, no allocation). */

// Metric names: [a-zA-Z_:][a-zA-Z0-9_:]*; label names: the same without ':'.
const NAME_START = new Uint8Array(128);
const NAME_CONT = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  NAME_START[c] = alpha || c === 58 ? 1 : 0;
  NAME_CONT[c] = alpha || c === 58 || (c >= 48 && c <= 57) ? 1 : 0;
}

export function isNameStart(c: number, metric: boolean): boolean {
  return c < 128 && NAME_START[c] === 1 && (metric || c !== 58);
}

export function isNameChar(c: number, metric: boolean): boolean {
  return c < 128 && NAME_CONT[c] === 1 && (metric || c !== 58);
}

/** Blanks separate tokens: spaces and tabs. */
export function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * s[a, a+len) equals s[b, b+len), compared from the end (names mostly share a prefix and differ
 * in the suffix: `_bucket`, `_sum`). Both reads come from the same string, the body, which is flat.
 */
export function sameText(s: string, a: number, b: number, len: number): boolean {
  for (let k = len - 1; k >= 0; k--) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}
