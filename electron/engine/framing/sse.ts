/**
 * Server-sent events parser, to the WHATWG HTML rules (§9.2.5 "Parsing an event stream",
 * §9.2.6 "Interpreting an event stream"); summarised in test-corpus/FORMATS.md §1.
 *
 * It is fed raw socket reads and returns the events each read completes, so the caller can
 * give all of them that read's arrival time. It never throws on input: invalid UTF-8 becomes
 * U+FFFD (TextDecoder, streaming, so characters split across reads are joined), unknown fields
 * are ignored. A pending event without its blank line at EOF is discarded, as the spec says; the
 * caller learns about it from `end()` (useful for diagnosing truncated streams).
 */
export interface SseEvent {
  /** Event type; 'message' when no `event:` field was given. */
  event: string;
  /** The data lines joined with '\n' (one trailing LF removed). */
  data: string;
  /** lastEventId at dispatch time. */
  id: string;
}

export interface SseEndInfo {
  /**
   * An event had data but no terminating blank line: discarded, per spec. Includes the value of
   * a last `data` line cut before its line end.
   */
  discardedData: string | null;
  /** Bytes of an unterminated last line (a line that never saw its LF/CR). */
  unterminatedLine: string;
}

const LF = 10;

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8'); // ignoreBOM=false: strips one leading BOM
  /** The unterminated tail of the previous read. */
  private tail = '';
  /** The previous read ended in CR: an LF at the start of the next read belongs to it. */
  private skipLF = false;
  private data = '';
  private hasData = false;
  private eventType = '';
  private lastEventId = '';
  /** Non-empty lines of the block being read (reset when it dispatches or ends empty). */
  private blockLines = 0;
  private ignored = 0;
  /** Reconnection time from `retry:` (ms), if the server set one. */
  retryMs: number | null = null;

  /** Characters held for an event not yet complete (its data so far and an unterminated line). */
  get pendingChars(): number {
    return this.tail.length + this.data.length;
  }

  /**
   * Framed units that are not events: comment lines (keep-alives), blank lines that end no event,
   * and the lines of a block that dispatched nothing (`event:`-only blocks), counted as they come.
   * A record counts them against its limits (stream-decoder.ts): a flood of them costs time.
   */
  get ignoredUnits(): number {
    return this.ignored + (this.hasData ? 0 : this.blockLines);
  }

  /** Parse one read. Completed events are appended to `out`; returns how many were added. */
  push(bytes: Uint8Array, out: SseEvent[]): number {
    const chunk = this.decoder.decode(bytes, { stream: true });
    return this.pushText(chunk, out);
  }

  /** Same as push, for already-decoded text (replays, tests). */
  pushText(chunk: string, out: SseEvent[]): number {
    const before = out.length;
    let s = chunk;
    let pos = 0;
    // An empty chunk (a zero-length read, or one holding only part of a UTF-8 character) must
    // not clear skipLF: the LF of a CRLF split across reads may still be coming.
    if (this.skipLF && s.length > 0) {
      this.skipLF = false;
      if (s.charCodeAt(0) === LF) pos = 1;
    }
    const len = s.length;
    // Fast path: most servers use LF only; look for CR once per read.
    let nextCR = s.indexOf('\r', pos);
    while (pos < len) {
      const nextLF = s.indexOf('\n', pos);
      if (nextCR !== -1 && nextCR < pos) nextCR = s.indexOf('\r', pos);
      let end: number;
      let termLen: number;
      if (nextCR !== -1 && (nextLF === -1 || nextCR < nextLF)) {
        end = nextCR;
        if (nextCR + 1 < len) {
          termLen = s.charCodeAt(nextCR + 1) === LF ? 2 : 1;
        } else {
          termLen = 1;
          this.skipLF = true; // CR at the end of this read; an LF may follow in the next
        }
      } else if (nextLF !== -1) {
        end = nextLF;
        termLen = 1;
      } else {
        break;
      }
      let line: string;
      if (this.tail.length > 0) {
        line = this.tail + s.slice(pos, end);
        this.tail = '';
      } else {
        line = s.slice(pos, end);
      }
      this.processLine(line, out);
      pos = end + termLen;
    }
    if (pos < len) this.tail += s.slice(pos);
    s = '';
    return out.length - before;
  }

  private processLine(line: string, out: SseEvent[]): void {
    if (line.length === 0) {
      if (!this.hasData) this.ignored += this.blockLines + 1;
      this.blockLines = 0;
      this.dispatch(out);
      return;
    }
    const c0 = line.charCodeAt(0);
    if (c0 === 58 /* ':' */) {
      this.ignored++; // comment (TGI keep-alive)
      return;
    }
    this.blockLines++;
    // Fast path for the common `data:` field.
    if (c0 === 100 /* d */ && line.startsWith('data:')) {
      const v = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
      this.appendData(v);
      return;
    }
    const [field, value] = splitField(line);
    switch (field) {
      case 'data':
        this.appendData(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break; // unknown fields (llama.cpp's old `error:`, `Data:`) are ignored by the spec
    }
  }

  private appendData(v: string): void {
    if (this.hasData) this.data += '\n' + v;
    else {
      this.data = v;
      this.hasData = true;
    }
  }

  private dispatch(out: SseEvent[]): void {
    if (!this.hasData) {
      // Spec: an empty data buffer resets the type and does not fire (event:-only blocks).
      this.eventType = '';
      return;
    }
    out.push({
      event: this.eventType === '' ? 'message' : this.eventType,
      data: this.data,
      id: this.lastEventId,
    });
    this.data = '';
    this.hasData = false;
    this.eventType = '';
  }

  /**
   * End of the body. Flushes the decoder (an incomplete UTF-8 sequence becomes U+FFFD; any event
   * that completes is appended to `out`); a pending event is discarded (spec) and reported.
   */
  end(out: SseEvent[]): SseEndInfo {
    const rest = this.decoder.decode();
    if (rest.length > 0) this.pushText(rest, out);
    // The spec discards an unterminated last line along with its event. For diagnosis we still
    // report the data that event would have had, counting a trailing `data` line that never saw
    // its line end (whatwg-edge-cases.sse ends that way); retry/id from it are NOT applied.
    let discarded = this.hasData ? this.data : null;
    if (this.tail.length > 0) {
      const [field, value] = splitField(this.tail);
      if (field === 'data') discarded = discarded === null ? value : discarded + '\n' + value;
    }
    const info: SseEndInfo = { discardedData: discarded, unterminatedLine: this.tail };
    this.tail = '';
    this.data = '';
    this.hasData = false;
    this.eventType = '';
    this.skipLF = false;
    return info;
  }
}

/** WHATWG field split: name before the first ':', value after it minus one leading space. */
function splitField(line: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon === -1) return [line, ''];
  const value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
  return [line.slice(0, colon), value];
}
