/**
 * Parser for the Prometheus text format 0.0.4 and OpenMetrics 1.0 (test-corpus/FORMATS.md §3, pitfalls 9–10).
 * Pure (no Node, no DOM): the renderer can use it too.
 *
 * Lenient where real servers differ, strict where the data would be ambiguous:
 * - a bad line is reported with its 1-based line number and skipped; the rest still parses;
 * - `_sum`/`_count`/`_bucket`/`_created` lines join their family in any order;
 * - blank lines, CRLF, a missing trailing newline and a missing `# EOF` in text format are fine;
 * - OpenMetrics from prometheus_client 0.26 writes `vllm_x_total` under `# TYPE vllm:x counter`
 *   (test-corpus/FORMATS.md §3.2); such samples join the `vllm:x` family and are renamed to its spelling;
 * - families without samples are dropped, as prometheus/common does.
 */
import { unescapeHelp } from './prom-escape.ts';
import { SampleLexer } from './prom-lex.ts';
import { decimalValue, parsePromNumber } from './prom-number.ts';
import { SeriesGrouper, type GroupRole } from './prom-group.ts';
import {
  METRIC_TYPES,
  type ExpositionFormat,
  type HistogramSeries,
  type MetricFamily,
  type MetricType,
  type ParseError,
  type ParseResult,
  type Sample,
} from './prom-types.ts';

export interface ParseOptions {
  /** Force a format; otherwise taken from `contentType`, else from a final `# EOF` line. */
  format?: ExpositionFormat;
  /** The response's Content-Type header. */
  contentType?: string | null;
}

/** OpenMetrics when the Content-Type says so, or (without one) when the body ends with `# EOF`. @internal exported for its tests */
export function detectFormat(body: string, contentType?: string | null): ExpositionFormat {
  if (contentType) return /application\/openmetrics-text/i.test(contentType) ? 'openmetrics' : 'text';
  const t = body.trimEnd();
  return t === '# EOF' || t.endsWith('\n# EOF') ? 'openmetrics' : 'text';
}

/** Which sample-name suffixes belong to a family of each type (OpenMetrics 1.0 + text format). */
const SUFFIXES: Record<MetricType, readonly string[]> = {
  counter: ['_total', '_created'],
  histogram: ['_bucket', '_sum', '_count', '_created'],
  gaugehistogram: ['_bucket', '_gsum', '_gcount', '_created'],
  summary: ['_sum', '_count', '_created'],
  info: ['_info'],
  gauge: [],
  untyped: [],
  unknown: [],
  stateset: [],
};
const ALL_SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created', '_info', '_gsum', '_gcount'];
const ROLE: Record<string, GroupRole> = {
  _bucket: 'bucket',
  _sum: 'sum',
  _gsum: 'sum',
  _count: 'count',
  _gcount: 'count',
  _created: 'created',
};

interface Builder {
  fam: MetricFamily;
  typed: boolean;
  helped: boolean;
  grouper: SeriesGrouper | null;
}
interface Resolved {
  b: Builder;
  suffix: string;
  canon: string;
  role: GroupRole | undefined;
}

const mangle = (name: string): string => name.replace(/:/g, '_');

/** Longest comment line kept (HELP text past it is cut, and said). @internal exported for its tests */
export const MAX_COMMENT = 64 * 1024;

/** Index of the quote closing the quoted string that starts at s[0]; -1 if it does not close. */
function quotedEnd(s: string): number {
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i;
  }
  return -1;
}

export function parsePrometheus(body: string, opts: ParseOptions = {}): ParseResult {
  const format = opts.format ?? detectFormat(body, opts.contentType);
  return new Parser(format).run(body);
}

class Parser {
  private readonly om: boolean;
  private readonly builders: Builder[] = [];
  private readonly byName = new Map<string, Builder>();
  private readonly mangled = new Map<string, Builder>();
  private readonly cache = new Map<string, Resolved>();
  private readonly errors: ParseError[] = [];
  private lexer = new SampleLexer('');
  private lineNo = 0;
  private body = '';
  /** The current line is body[start, end), without its terminator. */
  private start = 0;
  private end = 0;
  private lastName = '';
  private lastResolved: Resolved | null = null;
  /** Series seen in this exposition: a second sample of one is a duplicate. */
  private readonly seen = new Set<string>();

  constructor(private readonly format: ExpositionFormat) {
    this.om = format === 'openmetrics';
  }

  run(body: string): ParseResult {
    this.body = body;
    this.lexer = new SampleLexer(body);
    let pos = body.charCodeAt(0) === 0xfeff ? 1 : 0;
    const n = body.length;
    let sawEof = false;
    while (pos < n) {
      let end = body.indexOf('\n', pos);
      if (end < 0) end = n;
      this.start = pos;
      pos = end + 1;
      if (end > this.start && body.charCodeAt(end - 1) === 13) end--;
      this.end = end;
      this.lineNo++;
      let i = this.start;
      while (i < end && (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9)) i++;
      if (sawEof) {
        if (i === end) continue;
        this.error('content after "# EOF"');
        break;
      }
      if (i === end) continue;
      if (body.charCodeAt(i) === 35) sawEof = this.comment(this.commentText(i, end));
      else this.sample();
    }
    if (this.om && !sawEof) {
      this.lineNo++;
      this.start = this.end = n;
      this.error('OpenMetrics body does not end with "# EOF"');
    }
    return { families: this.finish(), errors: this.errors, format: this.format };
  }

  private error(message: string): void {
    const len = this.end - this.start;
    const text = this.body.slice(this.start, this.start + Math.min(len, 200)) + (len > 200 ? '…' : '');
    this.errors.push({ line: this.lineNo, message, text });
  }

  /**
   * A comment line's text, cut to MAX_COMMENT characters (a 10–20 MB `# HELP` must cost neither the
   * whole scrape nor a copy that size); the cut is reported, the family still parsed.
   */
  private commentText(i: number, end: number): string {
    if (end - i <= MAX_COMMENT) return this.body.slice(i, end);
    this.error(`comment line of ${end - i} characters cut to ${MAX_COMMENT}`);
    return this.body.slice(i, i + MAX_COMMENT);
  }

  /** Returns true on `# EOF`. */
  private comment(line: string): boolean {
    const m = /^#[ \t]+(HELP|TYPE|UNIT|EOF)(?:[ \t]+|$)/.exec(line);
    if (m === null) return false; // a plain comment
    const kw = m[1] as string;
    if (kw === 'EOF') return this.om; // in text format `# EOF` is just a comment
    let rest = line.slice(m[0].length);
    let name: string;
    if (rest.charCodeAt(0) === 34) {
      // A loop, not a regex: a backtracking match over a long quoted name overflows the stack.
      const close = quotedEnd(rest);
      if (close < 0) return this.bad(`unterminated quoted name in # ${kw}`);
      name = unescapeHelp(rest.slice(1, close), () => undefined);
      rest = rest.slice(close + 1);
    } else {
      const q = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(rest);
      if (q === null) return this.bad(`missing or invalid metric name in # ${kw}`);
      name = q[0];
      rest = rest.slice(name.length);
    }
    if (rest !== '' && rest.charCodeAt(0) !== 32 && rest.charCodeAt(0) !== 9)
      return this.bad(`invalid metric name in # ${kw}`);
    const arg = kw === 'HELP' ? rest.replace(/^[ \t]/, '') : rest.trim();
    const b = this.declare(name);
    if (kw === 'HELP') {
      if (b.helped) return this.bad(`second HELP line for ${name}`);
      b.helped = true;
      b.fam.help = unescapeHelp(arg, (seq) =>
        this.error(`invalid escape sequence "${seq}" in HELP (kept literally)`),
      );
    } else if (kw === 'UNIT') {
      b.fam.unit = arg;
    } else {
      if (arg === '') return false; // `# TYPE name` with no type: tolerated, stays untyped
      if (!METRIC_TYPES.has(arg)) return this.bad(`unknown metric type "${arg}"`);
      if (b.typed) return this.bad(`second TYPE line for ${name}`);
      if (b.fam.samples.length > 0) return this.bad(`TYPE line for ${name} after its samples`);
      b.typed = true;
      b.fam.type = arg as MetricType;
      const t = b.fam.type;
      if (t === 'histogram' || t === 'gaugehistogram') b.grouper = new SeriesGrouper('histogram');
      else if (t === 'summary') b.grouper = new SeriesGrouper('summary');
    }
    return false;
  }

  private bad(message: string): false {
    this.error(message);
    return false;
  }

  private declare(name: string): Builder {
    let b = this.byName.get(name);
    if (b !== undefined) return b;
    b = this.newBuilder(name);
    if (name.includes(':')) this.mangled.set(mangle(name), b);
    // Resolutions already cached stay as they were: a family's TYPE must precede its samples.
    return b;
  }

  private newBuilder(name: string): Builder {
    const type: MetricType = this.om ? 'unknown' : 'untyped';
    const b: Builder = {
      fam: { name, type, help: '', unit: '', samples: [] },
      typed: false,
      helped: false,
      grouper: null,
    };
    this.builders.push(b);
    this.byName.set(name, b);
    return b;
  }

  private resolve(name: string): Resolved {
    const hit = this.cache.get(name);
    if (hit !== undefined) return hit;
    let r = this.lookup(name, this.byName, false) ?? this.lookup(name, this.mangled, true);
    if (r === undefined) {
      const b = this.newBuilder(name); // a sample with no TYPE: its own untyped family
      r = { b, suffix: '', canon: name, role: undefined };
    }
    this.cache.set(name, r);
    return r;
  }

  private lookup(name: string, map: Map<string, Builder>, mangled: boolean): Resolved | undefined {
    const exact = map.get(name);
    if (exact !== undefined) return { b: exact, suffix: '', canon: exact.fam.name, role: undefined };
    for (const suffix of ALL_SUFFIXES) {
      if (!name.endsWith(suffix)) continue;
      const b = map.get(name.slice(0, -suffix.length));
      if (b !== undefined && SUFFIXES[b.fam.type].includes(suffix)) {
        return { b, suffix, canon: mangled ? b.fam.name + suffix : name, role: ROLE[suffix] };
      }
    }
    return undefined;
  }

  private sample(): void {
    const lx = this.lexer;
    if (!lx.lex(this.start, this.end)) return this.error(lx.err ?? 'malformed sample line');
    if (lx.warn !== null) this.error(lx.warn);
    let timestampMs: number | undefined;
    if (lx.timestamp !== null) {
      const t = lx.timestamp;
      if (this.om) {
        const sec = parsePromNumber(t);
        if (sec === undefined || !Number.isFinite(sec)) return this.error(`invalid timestamp "${t}"`);
        timestampMs = sec * 1000;
      } else {
        if (!/^[+-]?\d+$/.test(t))
          return this.error(`invalid timestamp "${t}" (expected integer milliseconds)`);
        timestampMs = Number(t);
      }
    }
    const name = lx.name as string;
    // Consecutive lines usually share a name (buckets): skip the map lookup and its hashing.
    const r = name === this.lastName && this.lastResolved !== null ? this.lastResolved : this.resolve(name);
    this.lastName = name;
    this.lastResolved = r;
    const { b } = r;
    const labels = lx.labels;
    // One sample per series per exposition: a second one would count as another series (or
    // double a bucket). The first is kept, the repeat reported. The series as written is the key (a
    // slice of the body, no allocation of its own): a repeat with its labels reordered is not
    // caught, a cost per sample that would double the parse time (bench/metrics-parse.bench.ts).
    const key = this.body.slice(lx.seriesStart, lx.seriesEnd);
    if (this.seen.has(key)) return this.error(`duplicate sample of series ${r.canon} (the first kept)`);
    this.seen.add(key);
    if (b.grouper !== null) {
      let role: GroupRole | undefined = r.role;
      let bound = NaN;
      if (role === 'bucket' || (role === undefined && b.grouper.kind === 'summary')) {
        const bl = role === 'bucket' ? 'le' : 'quantile';
        const raw = labels[bl];
        // In place for plain decimals (`0.005`, `1.0`); `+Inf` and the rest through the full reader.
        const v = raw === undefined ? undefined : (decimalValue(raw, 0, raw.length) ?? parsePromNumber(raw));
        if (v === undefined || Number.isNaN(v)) {
          return this.error(raw === undefined ? `missing "${bl}" label` : `invalid "${bl}" value "${raw}"`);
        }
        bound = v;
        role = role ?? 'quantile';
      }
      if (role !== undefined) b.grouper.add(role, labels, lx.value, bound);
    }
    const s: Sample = { name: r.canon, labels, value: lx.value };
    if (timestampMs !== undefined) s.timestampMs = timestampMs;
    if (lx.exemplar !== undefined) s.exemplar = lx.exemplar;
    b.fam.samples.push(s);
  }

  /**
   * Histograms whose counts cannot be (negative, not a number, cumulative counts that fall) are
   * left out and reported: shown, they would give negative rates or quantiles.
   */
  private soundHistograms(name: string, hs: HistogramSeries[]): HistogramSeries[] {
    return hs.filter((h) => {
      let prev = 0;
      let why: string | null = null;
      for (const bk of h.buckets) {
        if (!(bk.count >= 0)) why = `bucket le=${bk.le} count ${bk.count}`;
        else if (bk.count < prev)
          why = `bucket le=${bk.le} count ${bk.count} below the previous bucket's ${prev}`;
        if (why) break;
        prev = bk.count;
      }
      if (!why && !Number.isNaN(h.count) && !(h.count >= 0)) why = `_count ${h.count}`;
      if (!why) return true;
      const labels = Object.entries(h.labels)
        .map(([k, v]) => `${k}="${v}"`)
        .join(',');
      this.errors.push({
        line: 0,
        message: `histogram ${name}{${labels}} left out: ${why} (counts are never negative and never fall)`,
        text: '',
      });
      return false;
    });
  }

  private finish(): MetricFamily[] {
    const out: MetricFamily[] = [];
    for (const b of this.builders) {
      if (b.fam.samples.length === 0) continue;
      if (b.grouper !== null) {
        if (b.grouper.kind === 'histogram')
          b.fam.histograms = this.soundHistograms(b.fam.name, b.grouper.histograms());
        else b.fam.summaries = b.grouper.summaries();
      }
      out.push(b.fam);
    }
    return out;
  }
}
