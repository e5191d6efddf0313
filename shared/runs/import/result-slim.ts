/**
 * A vLLM `--save-detailed` result is mostly text Tokenscope never reads (`generated_texts`, the
 * prompts), and Python writes bare `NaN` / `Infinity` that JSON.parse refuses. One linear pass over
 * the bytes drops the values of the named top-level keys and rewrites those tokens, so that what is
 * parsed is only the numbers and errors the import needs: a 200 MB file imports in about its own
 * size of memory, and no step is quadratic or recursive.
 *
 * Works on every top-level value in the text (one object, an array of them, or one per line).
 * Bare tokens become: NaN → "n", Infinity → "inf", -Infinity → "-inf" (import-common's `num` reads
 * "n" as no number, like null, and the others as ±Infinity). Every replacement is no longer than
 * what it replaces, so the bytes are compacted in place: no second buffer of the file's size.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const NAN = enc('NaN');
const INF = enc('Infinity');
const NEG_INF = enc('-Infinity');
const NULL = enc('null');
const S_NAN = enc('"n"');
const S_INF = enc('"inf"');
const S_NEG_INF = enc('"-inf"');

/** Keys of a result object whose values an import never reads (the bulk of a detailed file). */
const DROPPED_RESULT_KEYS: ReadonlySet<string> = new Set(['generated_texts', 'prompts', 'input_texts']);

function startsWith(b: Uint8Array, i: number, t: Uint8Array): boolean {
  if (i + t.length > b.length) return false;
  for (let k = 0; k < t.length; k++) if (b[i + k] !== t[k]) return false;
  return true;
}

/** The index just past the string that starts (with its quote) at `i`; b.length if unterminated. */
function stringEnd(b: Uint8Array, i: number): number {
  let j = i + 1;
  while (j < b.length) {
    const c = b[j]!;
    if (c === BACKSLASH) j += 2;
    else if (c === QUOTE) return j + 1;
    else j++;
  }
  return b.length;
}

/** The index just past the JSON value that starts at `i` (strings and nesting aware, no recursion). */
function valueEnd(b: Uint8Array, i: number): number {
  let depth = 0;
  let j = i;
  while (j < b.length) {
    const c = b[j]!;
    if (c === QUOTE) {
      j = stringEnd(b, j);
      if (depth === 0) return j;
      continue;
    }
    if (c === OPEN_OBJ || c === OPEN_ARR) depth++;
    else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      if (depth === 0) return j; // the end of the enclosing container: an empty value
      depth--;
      if (depth === 0) return j + 1;
    } else if (depth === 0 && c === COMMA) return j;
    j++;
  }
  return b.length;
}

/**
 * The slimmed text of `b`. `b` is overwritten (compacted in place): pass bytes you own, e.g. a
 * file just read.
 */
export function slimResultBytes(b: Uint8Array, drop: ReadonlySet<string> = DROPPED_RESULT_KEYS): string {
  // o ≤ i throughout: each write copies bytes already read, or a shorter replacement.
  let o = 0;
  const dropKeys = [...drop].map((k) => enc(`"${k}"`));
  let depth = 0;
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i]!;
    if (c === QUOTE) {
      const end = stringEnd(b, i);
      // A key of a top-level object whose value is dropped: keep the key, write null for the value.
      if (depth === 1 && dropKeys.length > 0) {
        let key: Uint8Array | undefined;
        for (const k of dropKeys) if (k.length === end - i && startsWith(b, i, k)) key = k;
        if (key) {
          let j = end;
          while (j < n && b[j] !== COLON) j++;
          let v = j + 1;
          while (v < n && (b[v] === 0x20 || b[v] === 0x0a || b[v] === 0x0d || b[v] === 0x09)) v++;
          const after = valueEnd(b, v);
          if (j < n && after - i >= j + 1 - i + NULL.length) {
            b.copyWithin(o, i, j + 1);
            o += j + 1 - i;
            b.set(NULL, o);
            o += NULL.length;
            i = after;
            continue;
          }
        }
      }
      if (o !== i) b.copyWithin(o, i, end);
      o += end - i;
      i = end;
      continue;
    }
    let rep: Uint8Array | null = null;
    let len = 1;
    if (c === OPEN_OBJ || c === OPEN_ARR) depth++;
    else if (c === CLOSE_OBJ || c === CLOSE_ARR) depth = depth > 0 ? depth - 1 : 0;
    else if (c === 0x4e /* N */ && startsWith(b, i, NAN)) {
      rep = S_NAN;
      len = NAN.length;
    } else if (c === 0x49 /* I */ && startsWith(b, i, INF)) {
      rep = S_INF;
      len = INF.length;
    } else if (c === 0x2d /* - */ && startsWith(b, i, NEG_INF)) {
      rep = S_NEG_INF;
      len = NEG_INF.length;
    }
    if (rep) {
      b.set(rep, o);
      o += rep.length;
      i += len;
      continue;
    }
    b[o++] = c;
    i++;
  }
  return new TextDecoder().decode(b.subarray(0, o));
}
