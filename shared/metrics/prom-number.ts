/**
 * Sample values as the Prometheus parsers read them (FORMATS.md §3.1 "Value", pitfall 9).
 */

/**
 * A float as Go's strconv.ParseFloat reads it (what the Prometheus parsers use), or undefined.
 * JS Number() alone is wrong both ways: it rejects `+Inf`, `Inf`, `Nan` (Triton) and accepts
 * `0x10`, `1_000`, `Infinity`-with-spaces and '' (=0). So: decimal literals go through Number()
 * only when they contain nothing but [0-9.eE+-]; the specials are mapped explicitly; anything
 * else (hex floats with `p`, underscores) is rejected as the Prometheus parser rejects it.
 */
export function parsePromNumber(s: string): number | undefined {
  const n = s.length;
  if (n === 0) return undefined;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    // 0-9 . + - e E
    if ((c >= 48 && c <= 57) || c === 46 || c === 43 || c === 45 || c === 101 || c === 69) continue;
    return parseSpecial(s);
  }
  const v = Number(s);
  return Number.isNaN(v) ? undefined : v;
}

function parseSpecial(s: string): number | undefined {
  const l = s.toLowerCase();
  if (l === 'nan') return NaN; // Go accepts NaN in any case, unsigned only
  let sign = 1;
  let body = l;
  if (l.charCodeAt(0) === 43 || l.charCodeAt(0) === 45) {
    sign = l.charCodeAt(0) === 45 ? -1 : 1;
    body = l.slice(1);
  }
  if (body === 'inf' || body === 'infinity') return sign * Infinity;
  return undefined;
}

/**
 * The value of an integral token `[-]digits[.0…]` (`8`, `140.0`, `-3.`) of up to 15 digits, computed
 * in place without slicing: exact, and the common case (counters, buckets). Undefined otherwise.
 */
export function integralValue(s: string, start: number, end: number): number | undefined {
  let i = start;
  const neg = s.charCodeAt(i) === 45;
  if (neg) i++;
  let v = 0;
  const d0 = i;
  for (; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
  }
  const digits = i - d0;
  if (digits === 0 || digits > 15) return undefined;
  if (i < end && s.charCodeAt(i) === 46) {
    i++;
    while (i < end && s.charCodeAt(i) === 48) i++;
  }
  if (i !== end) return undefined;
  return neg ? -v : v;
}
