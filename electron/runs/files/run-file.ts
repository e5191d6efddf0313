/**
 * Run files on disk: one JSONL file per run (lines: shared/runs/file/line-schema.ts, summary: shared/runs/summary/schema.ts), appended while
 * the run goes. Lines are buffered and written at least every FLUSH_MS (a plain write, no fsync:
 * what we guard against is the process dying, not the machine), so a kill loses at most the last
 * FLUSH_MS of finished requests; the reader reopens such a file as `partial`.
 * Writes are serialized through one promise chain so lines never interleave.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { RunHeader, RunRequestLine } from '../../../shared/runs/file/line-schema.ts';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import {
  RunLineReader,
  type ParseRunResult,
  type RunSummaryLine,
} from '../../../shared/runs/run-file/parse.ts';
import type { RunTokenizedLine } from '../../../shared/runs/file/tokenized-line.ts';
import { errorMessage } from '../../../shared/result.ts';
import type { RunSpansLine } from '../../../shared/runs/file/spans-line.ts';

/** Buffered lines are written at least this often (the issue asks for ≤ 250 ms). @internal exported for its tests */
export const FLUSH_MS = 200;
/** …or sooner when this much is buffered. */
const FLUSH_BYTES = 256 * 1024;

export class RunFileWriter {
  private buf: string[] = [];
  private bufBytes = 0;
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout;
  private closed = false;
  private writeError: Error | null = null;
  /** Lines wait in the buffer until the header is written (see open/start). */
  private headerWritten = false;

  private constructor(
    readonly path: string,
    private fh: FileHandle,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Creates the file (and its folder) and writes the header line at once. Fails if the file exists. */
  static async create(file: string, header: RunHeader): Promise<RunFileWriter> {
    const w = await RunFileWriter.open(file);
    await w.start(header);
    return w;
  }

  /**
   * Creates the file (and its folder), empty: it fails now if it exists or cannot be written, but
   * the header comes later (`start`), when the run clock's zero it records is known. Lines
   * appended before then wait for it.
   */
  static async open(file: string): Promise<RunFileWriter> {
    await mkdir(path.dirname(file), { recursive: true });
    const fh = await open(file, 'wx', 0o600); // a run file is the user's data: theirs alone
    return new RunFileWriter(file, fh);
  }

  get started(): boolean {
    return this.headerWritten;
  }

  /** Writes the header line, then whatever was appended before it. */
  async start(header: RunHeader): Promise<void> {
    if (this.headerWritten || this.closed) return;
    this.headerWritten = true;
    this.buf.unshift(JSON.stringify(header) + '\n');
    await this.flush();
  }

  append(line: RunRequestLine): void {
    if (this.closed) return;
    const s = JSON.stringify(line) + '\n';
    this.buf.push(s);
    this.bufBytes += s.length;
    if (this.bufBytes >= FLUSH_BYTES) void this.flush();
  }

  /** The server's tokenizer counts of output texts (shared/runs/file/tokenized-line.ts), before the summary. */
  /** A line written after the requests, before the summary (`tokenized`, `spans`). */
  appendTokenized(t: RunTokenizedLine | RunSpansLine): void {
    if (this.closed) return;
    this.buf.push(JSON.stringify(t) + '\n');
  }

  /** Writes whatever is buffered; resolves when it is on its way to the OS. */
  flush(): Promise<void> {
    if (this.buf.length === 0 || !this.headerWritten) return this.chain;
    const data = this.buf.join('');
    this.buf = [];
    this.bufBytes = 0;
    this.chain = this.chain.then(async () => {
      if (this.writeError) return;
      try {
        await this.fh.write(data);
      } catch (e) {
        this.writeError = e as Error; // kept and reported by finish(): a full disk must not kill the run
      }
    });
    return this.chain;
  }

  /** Appends the summary line and closes (the header must have been written). */
  async finish(summary: RunSummary): Promise<void> {
    if (this.closed || !this.headerWritten) return;
    const line: RunSummaryLine = { type: 'summary', summary };
    this.buf.push(JSON.stringify(line) + '\n');
    await this.close();
  }

  /** Closes and deletes the file: nothing was run (its test request failed). */
  async discard(): Promise<void> {
    this.buf = [];
    this.bufBytes = 0;
    if (!this.closed) {
      clearInterval(this.timer);
      this.closed = true;
      await this.chain;
      await this.fh.close();
    }
    await unlink(this.path).catch(() => undefined);
  }

  /** Flushes and closes without a summary (the file stays partial). */
  async close(): Promise<void> {
    if (this.closed) return;
    clearInterval(this.timer);
    await this.flush();
    this.closed = true;
    await this.fh.close();
    if (this.writeError) throw new Error(`could not write run file ${this.path}: ${this.writeError.message}`);
  }
}

export type ReadRunResult = ParseRunResult & { path: string };

/** A line longer than this is no run file's (a request line with its text is a few MB at most). @internal exported for its tests */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;
const READ_CHUNK = 256 * 1024;

/**
 * Feeds a file's lines to `reader` as it streams in (256-KiB reads: a slice of junk lines costs tens of ms): a file of any size is read
 * without a string of it (V8 refuses strings past 512 MiB), and the event loop runs between reads.
 * A line past MAX_LINE_CHARS is skipped unread.
 */
async function readLines(file: string, reader: RunLineReader): Promise<void> {
  const stream = createReadStream(file, { highWaterMark: READ_CHUNK });
  const dec = new StringDecoder('utf8');
  // The line being read, in pieces: each read is searched once (a long line costs no rescans).
  let parts: string[] = [];
  let partsLen = 0;
  let skipping = false;
  try {
    for await (const chunk of stream) {
      const s = dec.write(chunk as Buffer);
      let start = 0;
      for (let nl = s.indexOf('\n'); nl !== -1 && reader.reading; nl = s.indexOf('\n', start)) {
        if (skipping) skipping = false;
        else reader.line(partsLen > 0 ? parts.join('') + s.slice(start, nl) : s.slice(start, nl));
        parts = [];
        partsLen = 0;
        start = nl + 1;
      }
      if (!reader.reading) break;
      if (skipping || start === s.length) continue;
      parts.push(s.slice(start));
      partsLen += s.length - start;
      if (partsLen > MAX_LINE_CHARS) {
        reader.tooLong(MAX_LINE_CHARS);
        skipping = true;
        parts = [];
        partsLen = 0;
      }
    }
  } finally {
    stream.destroy();
  }
  const last = skipping ? '' : parts.join('') + dec.end();
  if (last !== '' && reader.reading) reader.line(last, true);
}

export async function readRunFile(file: string): Promise<ReadRunResult> {
  const reader = new RunLineReader();
  try {
    await readLines(file, reader);
  } catch (e) {
    return {
      ok: false,
      error: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`,
      path: file,
    };
  }
  return { ...reader.finish(), path: file };
}

/** Default file name: runs/<local timestamp>.jsonl, sortable and unique to the second (+ suffix). */
export function defaultRunFileName(wall: number, runId: string): string {
  const d = new Date(wall);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}-${runId.slice(0, 6)}.jsonl`;
}
