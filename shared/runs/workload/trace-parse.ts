/**
 * Request traces a run can replay instead of a synthetic arrival process: Mooncake's JSONL
 * (kvcache-ai/Mooncake FAST25-release/traces) and BurstGPT's CSV (HPMLL/BurstGPT), read into one
 * list of rows — when (ms, on the trace's own clock), how many prompt and output tokens, and the
 * prompt's KV-cache block ids when the trace has them. Formats: test-corpus/traces/SOURCES.md.
 *
 * A bad line is reported with its number and kind, and the rows read are kept (the error carries
 * them). Failed requests a trace records as such (0 response or 0 request tokens: BurstGPT keeps
 * its failures) are skipped and counted, not errors. Hand-written checks rather than zod: a real
 * BurstGPT file has millions of rows.
 */
import { fail, ok, type Result } from '../../result.ts';

export type TraceFormat = 'mooncake' | 'burstgpt';

export interface TraceRow {
  /** 1-based line of the file. */
  line: number;
  /** Arrival on the trace's clock, ms (Mooncake: as written; BurstGPT: seconds × 1000). */
  atMs: number;
  inputTokens: number;
  outputTokens: number;
  /** Mooncake's block ids (each `blockTokens` prompt tokens, the last one possibly partial); null: none. */
  hashIds: number[] | null;
}

type TraceIssueKind =
  'not-json' | 'bad-field' | 'bad-row' | 'no-header' | 'blocks-mismatch' | 'unknown-format' | 'empty';

interface TraceIssue {
  /** 1-based line; 0 for the file as a whole. */
  line: number;
  kind: TraceIssueKind;
  message: string;
}

export interface Trace {
  format: TraceFormat;
  /** Sorted by time (stable: a trace's order among equal times is kept). */
  rows: TraceRow[];
  /** Rows the trace records as failed (0 tokens), left out. */
  skipped: number;
  /** Rows outside the window, left out. */
  outside: number;
}

/** What was wrong, every bad line (up to a limit), and the rows that were good. */
export interface TraceFailure {
  issues: TraceIssue[];
  /** How many issues there were in all (`issues` keeps the first MAX_ISSUES). */
  issueCount: number;
  kept: Trace;
}

export interface TraceParseOptions {
  /** Tokens per block id (Mooncake: 512). */
  blockTokens: number;
  /** Keep rows whose trace time (s) is in [startS, endS). */
  startS?: number;
  endS?: number;
  /** The most tokens one prompt or output may have (the workload's limit). */
  maxTokens?: number;
}

const MAX_ISSUES = 20;
const BURSTGPT_COLUMNS = ['Timestamp', 'Request tokens', 'Response tokens'] as const;

const isCount = (v: unknown, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/** Mooncake lines start with `{`, BurstGPT's file with its header. @internal exported for its tests */
export function detectTraceFormat(text: string): TraceFormat | null {
  const first = text.trimStart();
  if (first.startsWith('{')) return 'mooncake';
  const nl = first.indexOf('\n');
  const header = (nl < 0 ? first : first.slice(0, nl)).split(',');
  if (BURSTGPT_COLUMNS.every((c) => header.some((h) => h.trim() === c))) return 'burstgpt';
  return null;
}

class Collector {
  readonly rows: TraceRow[] = [];
  readonly issues: TraceIssue[] = [];
  issueCount = 0;
  skipped = 0;
  outside = 0;
  constructor(
    readonly format: TraceFormat,
    private readonly o: TraceParseOptions,
  ) {}

  issue(line: number, kind: TraceIssueKind, message: string): void {
    this.issueCount++;
    if (this.issues.length < MAX_ISSUES) this.issues.push({ line, kind, message });
  }

  /** A good row: kept when it is in the window. */
  row(r: TraceRow): void {
    const s = r.atMs / 1000;
    if ((this.o.startS !== undefined && s < this.o.startS) || (this.o.endS !== undefined && s >= this.o.endS))
      this.outside++;
    else this.rows.push(r);
  }

  result(): Result<Trace, TraceFailure> {
    // Array.prototype.sort is stable: equal times keep the trace's order.
    const rows = this.rows.sort((a, b) => a.atMs - b.atMs);
    const trace: Trace = { format: this.format, rows, skipped: this.skipped, outside: this.outside };
    if (this.issueCount > 0) return fail({ issues: this.issues, issueCount: this.issueCount, kept: trace });
    if (rows.length === 0) {
      const why =
        this.outside > 0
          ? 'no request in the window'
          : this.skipped > 0
            ? 'only failed requests'
            : 'no request';
      return fail({ issues: [{ line: 0, kind: 'empty', message: why }], issueCount: 1, kept: trace });
    }
    return ok(trace);
  }
}

function forEachLine(text: string, fn: (line: string, n: number) => void): void {
  let start = 0;
  let n = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    n++;
    const line = text.slice(start, end).replace(/\r$/, '');
    if (line.trim() !== '') fn(line, n);
    start = end + 1;
  }
}

/** @internal exported for its tests */
export function parseMooncake(text: string, o: TraceParseOptions): Result<Trace, TraceFailure> {
  const c = new Collector('mooncake', o);
  const max = o.maxTokens ?? Number.MAX_SAFE_INTEGER;
  const B = o.blockTokens;
  forEachLine(text, (line, n) => {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return c.issue(n, 'not-json', 'not JSON');
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return c.issue(n, 'bad-field', 'expected an object {timestamp, input_length, output_length, hash_ids}');
    const o2 = v as Record<string, unknown>;
    const ts = o2.timestamp;
    if (typeof ts !== 'number' || !Number.isFinite(ts) || ts < 0)
      return c.issue(n, 'bad-field', 'timestamp: expected ms ≥ 0');
    if (!isCount(o2.input_length, max))
      return c.issue(n, 'bad-field', `input_length: expected 0–${max} tokens`);
    if (!isCount(o2.output_length, max))
      return c.issue(n, 'bad-field', `output_length: expected 0–${max} tokens`);
    const ids = o2.hash_ids;
    if (ids !== undefined && !(Array.isArray(ids) && ids.every((x) => isCount(x, Number.MAX_SAFE_INTEGER))))
      return c.issue(n, 'bad-field', 'hash_ids: expected a list of block ids (integers ≥ 0)');
    const input = o2.input_length;
    const hashIds = ids && ids.length > 0 ? (ids as number[]) : null;
    if (hashIds && !((hashIds.length - 1) * B < input && input <= hashIds.length * B))
      return c.issue(
        n,
        'blocks-mismatch',
        `${hashIds.length} blocks of ${B} tokens cannot hold input_length ${input} (is the block size ${B}?)`,
      );
    if (input === 0 || o2.output_length === 0) {
      c.skipped++;
      return;
    }
    c.row({ line: n, atMs: ts, inputTokens: input, outputTokens: o2.output_length, hashIds });
  });
  return c.result();
}

/** @internal exported for its tests */
export function parseBurstGpt(text: string, o: TraceParseOptions): Result<Trace, TraceFailure> {
  const c = new Collector('burstgpt', o);
  const max = o.maxTokens ?? Number.MAX_SAFE_INTEGER;
  let cols: { ts: number; req: number; res: number; width: number } | null = null;
  forEachLine(text, (line, n) => {
    const cells = line.split(',').map((s) => s.trim());
    if (!cols) {
      const at = (name: string): number => cells.indexOf(name);
      const missing = BURSTGPT_COLUMNS.filter((name) => at(name) < 0);
      if (missing.length > 0)
        return c.issue(n, 'no-header', `the header lacks ${missing.map((m) => `"${m}"`).join(', ')}`);
      cols = {
        ts: at('Timestamp'),
        req: at('Request tokens'),
        res: at('Response tokens'),
        width: cells.length,
      };
      return;
    }
    if (cells.length !== cols.width)
      return c.issue(n, 'bad-row', `${cells.length} columns where the header has ${cols.width}`);
    const ts = Number(cells[cols.ts]);
    const req = Number(cells[cols.req]);
    const res = Number(cells[cols.res]);
    if (cells[cols.ts] === '' || !Number.isFinite(ts) || ts < 0)
      return c.issue(n, 'bad-field', `Timestamp: expected seconds ≥ 0, got "${cells[cols.ts]}"`);
    if (cells[cols.req] === '' || !isCount(req, max))
      return c.issue(n, 'bad-field', `Request tokens: expected 0–${max}, got "${cells[cols.req]}"`);
    if (cells[cols.res] === '' || !isCount(res, max))
      return c.issue(n, 'bad-field', `Response tokens: expected 0–${max}, got "${cells[cols.res]}"`);
    if (req === 0 || res === 0) {
      c.skipped++; // BurstGPT's failed requests: 0 response tokens
      return;
    }
    c.row({ line: n, atMs: ts * 1000, inputTokens: req, outputTokens: res, hashIds: null });
  });
  if (!cols && c.issueCount === 0) c.issue(1, 'no-header', 'no header line');
  return c.result();
}

export function parseTrace(
  text: string,
  format: TraceFormat | 'auto',
  o: TraceParseOptions,
): Result<Trace, TraceFailure> {
  const f = format === 'auto' ? detectTraceFormat(text) : format;
  if (f === null) {
    const kept: Trace = { format: 'mooncake', rows: [], skipped: 0, outside: 0 };
    const message = 'neither Mooncake JSONL (lines of {"timestamp": …}) nor BurstGPT CSV (its header)';
    return fail({ issues: [{ line: 1, kind: 'unknown-format', message }], issueCount: 1, kept });
  }
  return f === 'mooncake' ? parseMooncake(text, o) : parseBurstGpt(text, o);
}

/** "line 3: not-json (not JSON); line 9: …" — the first few, and how many more. */
export function describeTraceIssues(f: TraceFailure, shown = 5): string {
  const list = f.issues
    .slice(0, shown)
    .map((i) => `${i.line > 0 ? `line ${i.line}: ` : ''}${i.kind} (${i.message})`);
  const more = f.issueCount - Math.min(shown, f.issues.length);
  return list.join('; ') + (more > 0 ? ` (+${more} more)` : '');
}

/**
 * Planned send times (ms on the run clock) of the first `limit` rows: the trace's gaps divided by
 * `speedup`, the first kept row at 0.
 */
export function traceSchedule(rows: readonly TraceRow[], speedup: number, limit = Infinity): Float64Array {
  const n = Math.min(rows.length, limit);
  const out = new Float64Array(n);
  const zero = n > 0 ? rows[0]!.atMs : 0;
  for (let i = 0; i < n; i++) out[i] = (rows[i]!.atMs - zero) / speedup;
  return out;
}
