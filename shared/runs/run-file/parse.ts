/**
 * Reading a run file's text (pure: the core reopens files with it, the renderer can read a dropped
 * file). A file is a trust boundary — users share them — so every line is validated
 * (shared/runs/file/line-schema.ts, shared/runs/summary/schema.ts); a bad line is skipped and reported, never fatal. No summary line →
 * `partial`, summary recomputed from the request lines (summarize-run.ts), exactly as the runner
 * computes it.
 *
 * Line by line (`RunLineReader`): the core feeds it a file as a stream, so a file of any size is
 * read without one string of it (electron/runs/files/run-file.ts), and yields between slices. What a
 * hostile file costs is bounded: problems are kept up to MAX_PROBLEMS (the rest counted), a line
 * that cannot be JSON is not given to the JSON parser, and a line whose counts or times no stream
 * produces (a per-event count past what max_tokens allows, event times out of order) is refused
 * and the file marked damaged.
 */
import type { z } from 'zod';
import { fail, ok, type Result } from '../../result.ts';
import { eventTokensDoubt } from '../../stats/token-bounds.ts';
import { EV_CONTENT } from '../../request.ts';
import { HeaderSchema, RequestSchema, type RunHeader, type RunRequestLine } from '../file/line-schema.ts';
import { applyTokenized, TokenizedLineSchema, type RunTokenizedLine } from '../file/tokenized-line.ts';
import { RunSummarySchema, type RunSummary } from '../summary/schema.ts';
import { summarizeRunLines } from '../summary/summarize-run.ts';
import { applySpans, SpansLineSchema, type RunSpansLine } from '../file/spans-line.ts';

/** The last line of a finished run file (the writer: electron/runs/files/run-file.ts). */
export interface RunSummaryLine {
  type: 'summary';
  summary: RunSummary;
}

/** Problems kept per file; past it they are counted, and the count is the last problem. @internal exported for its tests */
export const MAX_PROBLEMS = 100;

export interface ParsedRun {
  header: RunHeader;
  requests: RunRequestLine[];
  summary: RunSummary;
  partial: boolean;
  /**
   * Why the file's own summary was not used (malformed, impossible values): the summary above was
   * recomputed from its request lines. null when the file's summary was sound (or it had none).
   */
  damage: string | null;
  /** Lines skipped or repaired, with their line numbers (at most MAX_PROBLEMS, then a count). */
  problems: string[];
}

export type ParseRunResult = Result<ParsedRun, string>;

function issueText(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.join('.') || '(line)'}: ${i.message}` : 'invalid';
}

/** Why a request line's events cannot be a stream's, or null. */
function implausible(l: RunRequestLine): string | null {
  const { t, tok, f } = l.events;
  for (let i = 1; i < t.length; i++)
    if (t[i]! < t[i - 1]!) return `event times out of order (event ${i} at ${t[i]} ms after ${t[i - 1]} ms)`;
  for (let i = 0; i < tok.length; i++) {
    if ((f[i]! & EV_CONTENT) === 0) continue;
    const doubt = eventTokensDoubt(tok[i]!, l.expectedOutputTokens);
    if (doubt) return `event ${i}: ${doubt}`;
  }
  return null;
}

/** A run file read one line at a time: `line()` for each, in order, then `finish()`. */
export class RunLineReader {
  private header: RunHeader | null = null;
  private summary: RunSummary | null = null;
  private damage: string | null = null;
  private readonly requests: RunRequestLine[] = [];
  /** The server tokenizer's counts, put back on the request lines at the end. */
  private readonly tokenized: RunTokenizedLine[] = [];
  /** The server's spans joined to the requests (run --otlp-listen), put back at the end. */
  private readonly spans: RunSpansLine[] = [];
  private readonly seenIds = new Set<string>();
  private readonly seenSeqs = new Set<string>();
  private readonly problems: string[] = [];
  private moreProblems = 0;
  private duplicates = false;
  /** Lines whose values no stream produces (implausible): refused, the summary recomputed. */
  private impossible = 0;
  private n = 0;
  private fatal: string | null = null;

  /** False once the file is known not to be a run file (the header is bad): stop reading. */
  get reading(): boolean {
    return this.fatal === null;
  }

  private problem(p: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(p);
    else this.moreProblems++;
  }

  /** The next line (without its newline); `unterminated`: the file ends in it with no newline. */
  line(line: string, unterminated = false): void {
    const i = this.n++;
    if (this.fatal !== null) return;
    const first = firstChar(line);
    if (first === '') return;
    // A line that does not open an object is not given to the JSON parser: junk costs no exception.
    const v = first === '{' ? parseJson(line) : undefined;
    if (v === undefined) {
      this.problem(
        unterminated
          ? `line ${i + 1}: incomplete (the run stopped mid-write); skipped`
          : `line ${i + 1}: not JSON; skipped`,
      );
      return;
    }
    const type = typeof v === 'object' && v !== null ? (v as { type?: unknown }).type : undefined;
    if (i === 0 || (this.header === null && type === 'header')) {
      const h = HeaderSchema.safeParse(v);
      if (!h.success) this.fatal = `line ${i + 1}: not a Tokenscope run header (${issueText(h.error)})`;
      else this.header = h.data;
    } else if (type === 'request') this.request(v, i);
    else if (type === 'summary') {
      const s = RunSummarySchema.safeParse((v as { summary?: unknown }).summary);
      if (s.success) this.summary = s.data;
      else {
        this.damage = `its summary line is malformed (${issueText(s.error)})`;
        this.problem(
          `line ${i + 1}: bad summary line (${issueText(s.error)}); recomputed from the request lines`,
        );
      }
    } else if (type === 'tokenized') {
      const t = TokenizedLineSchema.safeParse(v);
      if (t.success) this.tokenized.push(t.data);
      else this.problem(`line ${i + 1}: bad tokenized line (${issueText(t.error)}); skipped`);
    } else if (type === 'spans') {
      const t = SpansLineSchema.safeParse(v);
      if (t.success) this.spans.push(t.data);
      else this.problem(`line ${i + 1}: bad spans line (${issueText(t.error)}); skipped`);
    } else this.problem(`line ${i + 1}: unknown line type; skipped`);
  }

  /** The next line is longer than `max` characters: skipped unread (it counts as a line). */
  tooLong(max: number): void {
    const i = this.n++;
    if (i === 0) this.fatal = `line 1: longer than ${max} characters: not a Tokenscope run header`;
    else this.problem(`line ${i + 1}: longer than ${max} characters; skipped`);
  }

  private request(v: unknown, i: number): void {
    const r = RequestSchema.safeParse(v);
    if (!r.success) {
      this.problem(`line ${i + 1}: bad request line (${issueText(r.error)}); skipped`);
      return;
    }
    const l = r.data;
    const why = implausible(l);
    if (why) {
      this.impossible++;
      this.problem(`line ${i + 1}: request ${l.seq} cannot be a stream's: ${why}; skipped`);
      return;
    }
    // The same request twice (a file concatenated or edited by hand) would count twice.
    // Warm-up requests number their own sequence (w00000 …) beside the measured one (r00000 …).
    const seqKey = `${l.warmup ? 'w' : 'r'}${l.seq}`;
    if (this.seenIds.has(l.id) || this.seenSeqs.has(seqKey)) {
      this.duplicates = true;
      this.problem(`line ${i + 1}: request ${l.seq} (${l.id}) appears again; the first kept`);
      return;
    }
    this.seenIds.add(l.id);
    this.seenSeqs.add(seqKey);
    this.requests.push(l);
  }

  finish(): ParseRunResult {
    if (this.fatal !== null) return fail(this.fatal);
    const header = this.header;
    if (!header) return fail('empty file: no run header');
    const requests = this.requests;
    for (const t of this.tokenized) applyTokenized(requests, t);
    for (const s of this.spans) applySpans(requests, s);
    let damage = this.damage;
    const partial = this.summary === null && damage === null;
    const notes: string[] = [];
    if (this.duplicates)
      notes.push(
        damage ? 'duplicate request lines dropped' : 'duplicate request lines (the first of each kept)',
      );
    if (this.impossible > 0)
      notes.push(
        `${this.impossible} request line${this.impossible > 1 ? 's' : ''} with values no stream produces refused`,
      );
    if (notes.length) damage = damage ? `${damage}; ${notes.join('; ')}` : notes.join('; ');
    // A summary line written over lines no stream produces is not believed either: recomputed.
    const own = this.impossible > 0 ? null : this.summary;
    const kept = this.summary; // what of it is not computed from the lines: the run's own facts
    const summary =
      own ??
      summarizeRunLines(header, requests, {
        partial,
        ...(kept
          ? { cancelled: kept.cancelled, durationS: kept.vllm.duration, selfCheck: kept.selfCheck }
          : {}),
        // The decomposition's send/return need the spans line's shared-clock flag: a file cut before
        // its summary (an interrupted run) has the line but no summary to carry it.
        sharedClock: kept?.serverPhases?.sharedClock ?? this.spans.some((s) => s.sharedClock),
      });
    const problems = this.problems;
    if (this.moreProblems > 0) problems.push(`… and ${this.moreProblems} more problems`);
    return ok({ header, requests, summary, partial, damage, problems });
  }
}

/** The line's JSON value, or undefined when it is not JSON. */
function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

function firstChar(line: string): string {
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c !== ' ' && c !== '\t' && c !== '\r') return c;
  }
  return '';
}

export function parseRunText(text: string): ParseRunResult {
  const reader = new RunLineReader();
  let start = 0;
  while (start <= text.length && reader.reading) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    reader.line(text.slice(start, end), nl === -1);
    start = end + 1;
  }
  return reader.finish();
}
