/**
 * Sample values as the Prometheus parsers read them (test-corpus/FORMATS.md §3.1 "Value", pitfall 9).
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

/** Exact powers of ten: 10^0 … 10^22 are the ones a double holds without rounding. */
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
];
/** 2^53: every integer below it is exact in a double. */
const EXACT = 9007199254740992;

/**
 * The value of a plain decimal token `[+-]digits[.digits][(e|E)[+-]digits]` in `s[start, end)`,
 * computed in place without slicing, or undefined when the token is not that simple (the caller
 * then slices and uses parsePromNumber, which also knows `+Inf` and `NaN`).
 *
 * Clinger's fast path: when the digits form an integer m < 2^53 and the decimal exponent x has
 * |x| ≤ 22, both m and 10^|x| are exact doubles, and one IEEE multiplication or division rounds the
 * exact quotient once — the same correctly rounded double `Number(token)` (and Go's ParseFloat)
 * gives. Anything outside that (17 significant digits, 1e-300) is left to the slow path.
 * Covers the common cases: counters (`182.0`), bucket bounds (`0.005`), sums (`0.1234567`),
 * Python's exponents (`1.2571459584e+10`).
 */
export function decimalValue(s: string, start: number, end: number): number | undefined {
  let i = start;
  let c = s.charCodeAt(i);
  const neg = c === 45;
  if (neg || c === 43) i++;
  let m = 0;
  let digits = 0;
  let frac = 0;
  for (; i < end; i++) {
    c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    m = m * 10 + (c - 48);
    digits++;
  }
  if (i < end && c === 46) {
    for (i++; i < end; i++) {
      c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      m = m * 10 + (c - 48);
      digits++;
      frac++;
    }
  }
  if (digits === 0 || m >= EXACT) return undefined;
  let x = -frac;
  if (i < end && (c === 101 || c === 69)) {
    i++;
    c = s.charCodeAt(i);
    const eneg = c === 45;
    if (eneg || c === 43) i++;
    let e = 0;
    const e0 = i;
    for (; i < end && e < 1000; i++) {
      c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      e = e * 10 + (c - 48);
    }
    if (i === e0) return undefined;
    x += eneg ? -e : e;
  }
  if (i !== end) return undefined;
  let v: number;
  if (x === 0 || m === 0) v = m;
  else if (x > 0 && x <= 22) v = m * (POW10[x] as number);
  else if (x < 0 && x >= -22) v = m / (POW10[-x] as number);
  else return undefined;
  return neg ? -v : v;
}
