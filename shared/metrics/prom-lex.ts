/**
 * Line-level scanning for the Prometheus text format 0.0.4 and OpenMetrics 1.0
 * (rules: test-corpus/FORMATS.md §3, prometheus/common expfmt/text_parse.go, the OpenMetrics 1.0 spec).
 * Hand-written char-code scanning: a 1 MB scrape must parse in a few milliseconds.
 */
import { isBlank, isNameChar, isNameStart, sameText } from './prom-chars.ts';
import { decimalValue, parsePromNumber } from './prom-number.ts';
import type { Exemplar, Labels } from './prom-types.ts';

/** Scans one sample line. Results land in the public fields; `err` is set on failure. */
export class SampleLexer {
  name: string | null = null;
  labels: Labels = {};
  value = 0;
  /** Raw timestamp token, converted by the caller (ms in text, seconds in OpenMetrics). */
  timestamp: string | null = null;
  exemplar: Exemplar | undefined = undefined;
  /** Fatal problem: the line is dropped. */
  err: string | null = null;
  /** Non-fatal problem (invalid escape kept literally, bad exemplar): reported, line kept. */
  warn: string | null = null;
  /** The series as written (name and labels) is s[seriesStart, seriesEnd). */
  seriesStart = 0;
  seriesEnd = 0;
  private i = 0;
  private end = 0;
  // The previous line's name, label names and values: consecutive lines mostly repeat them, so
  // the text at the cursor is compared with where that token sat in the body (both reads from the
  // same flat string: the token strings themselves are slices, slower to index) and, when equal,
  // the same string is reused: no allocation per token. `at` is -1 when a token may not be reused.
  private prevName = '';
  private prevNameAt = -1;
  private readonly prevLabelNames: string[] = [];
  private readonly prevLabelNameAt: number[] = [];
  private readonly prevValues: string[] = [];
  private readonly prevValueAt: number[] = [];
  private lastQuotedClean = true;
  private badToken = '';

  /** One lexer per body: the reuse above refers to positions in it. */
  constructor(private readonly s: string) {}

  /** Lex `s[start, end)`: one line of the body, without its line terminator. */
  lex(start: number, end: number): boolean {
    const s = this.s;
    this.i = start;
    this.end = end;
    this.name = null;
    this.timestamp = null;
    this.exemplar = undefined;
    this.err = null;
    this.warn = null;
    this.skipBlanks();
    const c0 = s.charCodeAt(this.i);
    const nameAt = this.i;
    this.seriesStart = nameAt;
    if (c0 === 34) this.name = this.readQuoted();
    else if (c0 !== 123)
      this.name = this.reuseName(this.prevName, this.prevNameAt, true) ?? this.readName(true);
    if (this.err !== null) return false;
    if (this.name !== null && c0 !== 34) {
      // quoted names never match unquoted
      this.prevName = this.name;
      this.prevNameAt = nameAt;
    }
    this.seriesEnd = this.i;
    let blank = this.skipBlanks();
    if (s.charCodeAt(this.i) === 123) {
      const labels = this.readLabels(this.name === null);
      if (labels === null) return false;
      this.labels = labels;
      this.seriesEnd = this.i;
      blank = this.skipBlanks() || this.i < this.end; // `x{a="b"}1` is accepted by the Go parser
    } else {
      this.labels = {};
    }
    if (this.name === null || this.name === '') return this.fail('missing metric name');
    if (this.i >= this.end) return this.fail('missing value');
    if (!blank) return this.fail('expected blank before value');
    const v = this.readNumber();
    if (v === undefined) return this.fail(`invalid value "${this.badToken}"`);
    this.value = v;
    this.skipBlanks();
    if (this.i >= this.end) return true;
    if (s.charCodeAt(this.i) !== 35) {
      this.timestamp = this.readToken();
      this.skipBlanks();
      if (this.i >= this.end) return true;
      if (s.charCodeAt(this.i) !== 35) return this.fail('spurious string after timestamp');
    }
    this.readExemplar();
    return true;
  }

  private fail(msg: string): false {
    if (this.err === null) this.err = msg;
    return false;
  }

  /** Returns true when at least one blank was skipped. */
  private skipBlanks(): boolean {
    const start = this.i;
    while (this.i < this.end && isBlank(this.s.charCodeAt(this.i))) this.i++;
    return this.i > start;
  }

  private skipToken(): void {
    while (this.i < this.end && !isBlank(this.s.charCodeAt(this.i))) this.i++;
  }

  private readToken(): string {
    const start = this.i;
    this.skipToken();
    return this.s.slice(start, this.i);
  }

  /** `prev` (found at `prevAt`) when the text at the cursor is exactly that name; else null (nothing consumed). */
  private reuseName(prev: string | undefined, prevAt: number | undefined, metric: boolean): string | null {
    if (prev === undefined || prevAt === undefined || prevAt < 0 || prev.length === 0) return null;
    const j = this.i + prev.length;
    if (j > this.end || !sameText(this.s, prevAt, this.i, prev.length)) return null;
    if (j < this.end && isNameChar(this.s.charCodeAt(j), metric)) return null;
    this.i = j;
    return prev;
  }

  /** The sample value: plain decimals in place, the rest (`+Inf`, `NaN`, long digits) through parsePromNumber. */
  private readNumber(): number | undefined {
    const start = this.i;
    this.skipToken();
    const fast = decimalValue(this.s, start, this.i);
    if (fast !== undefined) return fast;
    const tok = this.s.slice(start, this.i);
    const r = parsePromNumber(tok);
    if (r === undefined) this.badToken = tok;
    return r;
  }

  private readName(metric: boolean): string | null {
    const s = this.s;
    const start = this.i;
    const c = s.charCodeAt(start);
    if (!isNameStart(c, metric)) {
      this.fail(metric ? 'invalid metric name' : 'invalid label name');
      return null;
    }
    let i = start + 1;
    while (i < this.end && isNameChar(s.charCodeAt(i), metric)) i++;
    this.i = i;
    return s.slice(start, i);
  }

  /** At a `"`: read the quoted string with `\\`, `\"`, `\n` escapes. */
  private readQuoted(): string | null {
    const s = this.s;
    let i = this.i + 1;
    let start = i;
    let out = '';
    this.lastQuotedClean = true;
    for (;;) {
      if (i >= this.end) {
        this.fail('unterminated quoted string');
        return null;
      }
      const c = s.charCodeAt(i);
      if (c === 34) {
        this.i = i + 1;
        return out + s.slice(start, i);
      }
      if (c === 92) {
        this.lastQuotedClean = false;
        out += s.slice(start, i);
        if (i + 1 >= this.end) {
          this.fail('unterminated quoted string');
          return null;
        }
        const n = s.charCodeAt(i + 1);
        if (n === 92) out += '\\';
        else if (n === 34) out += '"';
        else if (n === 110) out += '\n';
        else {
          const seq = '\\' + s.charAt(i + 1);
          if (this.warn === null)
            this.warn = `invalid escape sequence "${seq}" in quoted string (kept literally)`;
          out += seq;
        }
        i += 2;
        start = i;
        continue;
      }
      i++;
    }
  }

  /** At a `{`: labels up to the matching `}`. A quoted first item without `=` is the metric name. */
  private readLabels(nameAllowed: boolean): Labels | null {
    const s = this.s;
    const labels: Labels = {};
    this.i++;
    let first = true;
    let k = 0;
    for (;;) {
      this.skipBlanks();
      if (this.i >= this.end) return this.failNull('unterminated label set');
      let c = s.charCodeAt(this.i);
      if (c === 125) {
        this.i++;
        return labels;
      }
      let lname: string | null;
      const quoted = c === 34;
      if (quoted) {
        lname = this.readQuoted();
        if (lname === null) return null;
        this.skipBlanks();
        if (s.charCodeAt(this.i) !== 61) {
          if (!(first && nameAllowed)) return this.failNull('quoted metric name must come first inside {}');
          this.name = lname;
          first = false;
          if (!this.endOfPair()) return null;
          if (s.charCodeAt(this.i - 1) === 125) return labels;
          continue;
        }
      } else {
        const at = this.i;
        lname =
          this.reuseName(this.prevLabelNames[k], this.prevLabelNameAt[k], false) ?? this.readName(false);
        if (lname === null) return null;
        this.prevLabelNames[k] = lname;
        this.prevLabelNameAt[k] = at;
        this.skipBlanks();
      }
      first = false;
      if (s.charCodeAt(this.i) !== 61) return this.failNull(`expected "=" after label name "${lname}"`);
      this.i++;
      this.skipBlanks();
      if (s.charCodeAt(this.i) !== 34) return this.failNull(`expected quoted value for label "${lname}"`);
      const valueAt = this.i + 1;
      const value = this.reuseValue(k) ?? this.readQuoted();
      if (value === null) return null;
      if (quoted) this.prevLabelNameAt[k] = -1; // only unquoted names may be matched unquoted
      this.prevValues[k] = value;
      this.prevValueAt[k] = this.lastQuotedClean ? valueAt : -1; // escapes: the raw text is not the value
      k++;
      if (lname === '__name__') return this.failNull('label name "__name__" is reserved');
      if (Object.prototype.hasOwnProperty.call(labels, lname))
        return this.failNull(`duplicate label "${lname}"`);
      if (lname === '__proto__')
        Object.defineProperty(labels, lname, { value, enumerable: true, writable: true });
      else labels[lname] = value;
      if (!this.endOfPair()) return null;
      c = s.charCodeAt(this.i - 1);
      if (c === 125) return labels;
    }
  }

  /** At a `"`: the previous line's k-th value when its raw text (no escapes) is repeated here. */
  private reuseValue(k: number): string | null {
    const prev = this.prevValues[k];
    const at = this.prevValueAt[k];
    if (prev === undefined || at === undefined || at < 0) return null;
    const j = this.i + 1 + prev.length;
    if (j >= this.end || this.s.charCodeAt(j) !== 34 || !sameText(this.s, at, this.i + 1, prev.length))
      return null;
    this.i = j + 1;
    this.lastQuotedClean = true;
    return prev;
  }

  /** After a pair: `,` (continue) or `}` (done). Leaves i just past it. */
  private endOfPair(): boolean {
    this.skipBlanks();
    const c = this.s.charCodeAt(this.i);
    if (c === 44 || c === 125) {
      this.i++;
      return true;
    }
    this.fail(this.i >= this.end ? 'unterminated label set' : 'expected "," or "}" in label set');
    return false;
  }

  private failNull(msg: string): null {
    this.fail(msg);
    return null;
  }

  /** ` # {labels} value [timestamp-seconds]`: tolerated; a malformed one is reported, not fatal. */
  private readExemplar(): void {
    const s = this.s;
    this.i++; // '#'
    this.skipBlanks();
    const saveErr = this.err;
    let labels: Labels | null = null;
    if (s.charCodeAt(this.i) === 123) labels = this.readLabels(false);
    let value: number | undefined;
    if (labels !== null && this.skipBlanks()) value = parsePromNumber(this.readToken());
    if (labels === null || value === undefined) {
      this.err = saveErr;
      if (this.warn === null) this.warn = 'malformed exemplar (ignored)';
      return;
    }
    const ex: Exemplar = { labels, value };
    this.skipBlanks();
    if (this.i < this.end) {
      const ts = parsePromNumber(this.readToken());
      if (ts !== undefined && Number.isFinite(ts)) ex.timestampMs = ts * 1000; // exemplar timestamps are seconds
    }
    this.exemplar = ex;
  }
}
