/**
 * HTTP/1.1 response parsing for the stream-I/O thread, by hand (it is the product's core): the
 * status line and headers once per response, then the body — chunked, Content-Length or
 * close-delimited — decoded *in place* in the read buffer, so a socket read becomes one run of
 * body bytes with no allocation (chunked framing removed, bytes moved down with copyWithin).
 *
 * One parser per connection, reset per response. Never throws on input: malformed bytes set
 * `error` and stop the parser.
 */

const CR = 13;
const LF = 10;
/** Headers larger than this are refused (Node's default limit is 16 KiB; servers stay far below). @internal exported for its tests */
export const MAX_HEADER_BYTES = 64 * 1024;

export interface ResponseHead {
  status: number;
  contentType: string | null;
  requestId: string | null;
  /** Where a 3xx points (Tokenscope does not follow redirects: it says where). */
  location: string | null;
  /** A 429/503's Retry-After, as sent (seconds or an HTTP date). */
  retryAfter: string | null;
  /** Content-Encoding, when the server compressed the body. */
  contentEncoding: string | null;
  /** The connection may carry another request after this response. */
  keepAlive: boolean;
}

type BodyMode = 'chunked' | 'length' | 'close' | 'none';

const enum St {
  Head,
  ChunkSize,
  ChunkExt,
  ChunkSizeLF,
  ChunkData,
  ChunkDataCR,
  ChunkDataLF,
  Trailer,
  TrailerLF,
  Length,
  Close,
  Done,
}

export class Http1ResponseParser {
  private st = St.Head;
  private head: Buffer | null = null;
  private headLen = 0;
  private mode: BodyMode = 'none';
  private remaining = 0;
  /** Size digits seen for the current chunk. */
  private sizeDigits = 0;
  /** Characters on the current trailer line. */
  private trailerLine = 0;
  /** Body bytes delivered so far. */
  bodyBytes = 0;
  headInfo: ResponseHead | null = null;
  error: string | null = null;

  reset(): void {
    this.st = St.Head;
    this.headLen = 0;
    this.mode = 'none';
    this.remaining = 0;
    this.sizeDigits = 0;
    this.trailerLine = 0;
    this.bodyBytes = 0;
    this.headInfo = null;
    this.error = null;
  }

  get done(): boolean {
    return this.st === St.Done;
  }

  get inHead(): boolean {
    return this.st === St.Head;
  }

  /** The body runs until the connection closes: a clean EOF ends it. */
  get closeDelimited(): boolean {
    return this.st === St.Close;
  }

  /**
   * Parses buf[start, end). Body bytes are moved in place to buf[start, start + n) and n is
   * returned in `out.body`; `out.headEnded` says the head completed in this call; `out.used` is
   * where parsing stopped (bytes after a complete response are not consumed).
   */
  push(buf: Buffer, start: number, end: number, out: ParseOut): void {
    out.headEnded = false;
    out.body = 0;
    let i = start;
    let w = start; // where the next body byte goes
    while (i < end && this.st !== St.Done && this.error === null) {
      switch (this.st) {
        case St.Head:
          i = this.pushHead(buf, i, end, out);
          break;
        case St.ChunkData:
        case St.Length:
        case St.Close: {
          // Body bytes: moved down to where the body so far ends (chunk framing removed).
          const n = Math.min(this.remaining, end - i);
          if (w !== i) buf.copyWithin(w, i, i + n);
          w += n;
          i += n;
          this.remaining -= n;
          this.bodyBytes += n;
          if (this.remaining === 0) this.st = this.st === St.ChunkData ? St.ChunkDataCR : St.Done;
          break;
        }
        default:
          i = this.framing(buf, i, end);
      }
    }
    out.body = w - start;
    out.used = i;
  }

  /** Collects head bytes from buf[i, end) until the blank line (CRLFCRLF or LFLF), then parses once. */
  private pushHead(buf: Buffer, i: number, end: number, out: ParseOut): number {
    const n = end - i;
    const take = Math.min(n, MAX_HEADER_BYTES - this.headLen);
    const need = this.headLen + take;
    if (!this.head || need > this.head.length) {
      const grown = Buffer.allocUnsafe(
        Math.min(MAX_HEADER_BYTES, Math.max(need, (this.head?.length ?? 2048) * 2)),
      );
      this.head?.copy(grown, 0, 0, this.headLen);
      this.head = grown;
    }
    buf.copy(this.head, this.headLen, i, i + take);
    const hEnd = findHeadEnd(this.head, Math.max(0, this.headLen - 3), need);
    if (hEnd < 0) {
      if (need >= MAX_HEADER_BYTES) {
        this.error = `response headers larger than ${MAX_HEADER_BYTES} bytes`;
        return i;
      }
      this.headLen = need;
      return i + take;
    }
    i += hEnd - this.headLen;
    this.headLen = hEnd;
    this.finishHead(out);
    return i;
  }

  /**
   * One step of chunked framing at buf[i] (a size line, the CRLF after a chunk's data, the
   * trailer): returns where parsing goes on; malformed framing sets `error` instead.
   */
  private framing(buf: Buffer, i: number, end: number): number {
    switch (this.st) {
      case St.ChunkSize: {
        const c = buf[i]!;
        const d = hexVal(c);
        if (d >= 0) {
          if (++this.sizeDigits > 12) {
            this.error = 'chunk size too large';
            break;
          }
          this.remaining = this.remaining * 16 + d;
          i++;
        } else if (this.sizeDigits > 0 && (c === 0x3b || c === 0x20 || c === 0x09)) {
          this.st = St.ChunkExt; // ";ext" or whitespace before CRLF
          i++;
        } else if (this.sizeDigits > 0 && c === CR) {
          this.st = St.ChunkSizeLF;
          i++;
        } else if (this.sizeDigits > 0 && c === LF) {
          i++;
          this.afterSize();
        } else {
          this.error = `malformed chunk size (byte 0x${c.toString(16)})`;
        }
        break;
      }
      case St.ChunkExt: {
        const c = buf[i++]!;
        if (c === CR) this.st = St.ChunkSizeLF;
        else if (c === LF) this.afterSize();
        break;
      }
      case St.ChunkSizeLF:
        if (buf[i] !== LF) {
          this.error = 'malformed chunk size line (CR without LF)';
          break;
        }
        i++;
        this.afterSize();
        break;
      case St.ChunkDataCR: {
        const c = buf[i]!;
        if (c === CR) {
          this.st = St.ChunkDataLF;
          i++;
        } else if (c === LF) {
          this.st = St.ChunkSize;
          i++;
        } else this.error = 'chunk data longer than its size';
        break;
      }
      case St.ChunkDataLF:
        if (buf[i] !== LF) {
          this.error = 'chunk data longer than its size';
          break;
        }
        i++;
        this.st = St.ChunkSize;
        break;
      case St.Trailer: {
        // Trailer lines until an empty line.
        const c = buf[i++]!;
        if (c === CR) this.st = St.TrailerLF;
        else if (c === LF) {
          if (this.trailerLine === 0) this.st = St.Done;
          this.trailerLine = 0;
        } else this.trailerLine++;
        break;
      }
      case St.TrailerLF:
        if (buf[i] !== LF) {
          this.error = 'malformed trailer (CR without LF)';
          break;
        }
        i++;
        if (this.trailerLine === 0) this.st = St.Done;
        else {
          this.trailerLine = 0;
          this.st = St.Trailer;
        }
        break;
      default:
        i = end;
    }
    return i;
  }

  private afterSize(): void {
    this.sizeDigits = 0;
    if (this.remaining === 0) {
      this.trailerLine = 0;
      this.st = St.Trailer;
    } else this.st = St.ChunkData;
  }

  private finishHead(out: ParseOut): void {
    const text = this.head!.toString('latin1', 0, this.headLen);
    const info = parseHead(text);
    if (typeof info === 'string') {
      this.error = info;
      return;
    }
    if (info.head.status >= 100 && info.head.status < 200) {
      // An interim response (100 Continue): its head is skipped, the real one follows.
      this.headLen = 0;
      return;
    }
    this.headInfo = info.head;
    this.mode = info.mode;
    this.remaining = info.length;
    out.headEnded = true;
    if (info.mode === 'chunked') this.st = St.ChunkSize;
    else if (info.mode === 'length') this.st = info.length > 0 ? St.Length : St.Done;
    else if (info.mode === 'close') {
      this.st = St.Close;
      this.remaining = Infinity; // until the connection closes
    } else this.st = St.Done;
  }
}

export interface ParseOut {
  headEnded: boolean;
  body: number;
  used: number;
}

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Index just past the blank line ending the head in b[from, to), or −1. */
function findHeadEnd(b: Buffer, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    if (b[i] !== LF) continue;
    if (i + 1 < to && b[i + 1] === LF) return i + 2;
    if (i + 2 < to && b[i + 1] === CR && b[i + 2] === LF) return i + 3;
  }
  return -1;
}

/** The status line and the headers this client needs; a string when malformed. @internal exported for its tests */
export function parseHead(text: string): { head: ResponseHead; mode: BodyMode; length: number } | string {
  const lines = text.split(/\r?\n/);
  const m = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (!m) return `malformed status line: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`;
  const minor = Number(m[1]);
  const status = Number(m[2]);
  let contentType: string | null = null;
  let requestId: string | null = null;
  let location: string | null = null;
  let retryAfter: string | null = null;
  let contentEncoding: string | null = null;
  let te: string | null = null;
  let cl: string | null = null;
  let conn: string | null = null;
  for (let k = 1; k < lines.length; k++) {
    const line = lines[k]!;
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return `malformed header line: ${JSON.stringify(line.slice(0, 80))}`;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-type') contentType = value;
    else if (name === 'x-request-id') requestId = value;
    else if (name === 'location') location = value.slice(0, 2048);
    else if (name === 'retry-after') retryAfter = value.slice(0, 100);
    else if (name === 'content-encoding') contentEncoding = value.slice(0, 100).toLowerCase();
    else if (name === 'transfer-encoding') te = te === null ? value : `${te}, ${value}`;
    else if (name === 'content-length') {
      if (cl !== null && cl !== value) return 'conflicting Content-Length headers';
      cl = value;
    } else if (name === 'connection') conn = conn === null ? value : `${conn}, ${value}`;
  }
  const connTokens = (conn ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());
  const keepAlive = minor === 1 ? !connTokens.includes('close') : connTokens.includes('keep-alive');
  const head: ResponseHead = {
    status,
    contentType,
    requestId,
    location,
    retryAfter,
    contentEncoding,
    keepAlive,
  };
  const noBody = status === 204 || status === 304;
  if (noBody) return { head, mode: 'none', length: 0 };
  if (te !== null && /(^|,)\s*chunked\s*$/i.test(te)) return { head, mode: 'chunked', length: 0 };
  if (te !== null) return { head: { ...head, keepAlive: false }, mode: 'close', length: 0 };
  if (cl !== null) {
    if (!/^\d{1,15}$/.test(cl)) return `malformed Content-Length: ${JSON.stringify(cl.slice(0, 40))}`;
    return { head, mode: 'length', length: Number(cl) };
  }
  return { head: { ...head, keepAlive: false }, mode: 'close', length: 0 };
}
