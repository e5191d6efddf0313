/**
 * NDJSON framing (Ollama's native /api/*): one JSON value per line, split on LF only (a CR
 * before the LF is dropped). Blank lines are skipped. Like the SSE parser it takes raw reads
 * and returns the lines each read completes, so they share that read's arrival time.
 * A last line without its LF is returned by `end()` marked unterminated: Go's encoder always
 * writes the LF, so its absence means the body was cut.
 */
export interface NdjsonLine {
  data: string;
}

export interface NdjsonEndInfo {
  /** The bytes after the last LF, if any (a cut-off line). */
  unterminatedLine: string;
}

export class NdjsonFramer {
  private readonly decoder = new TextDecoder('utf-8');
  private tail = '';
  /** Blank lines skipped (counted against a record's limits like SSE keep-alives). */
  ignoredUnits = 0;

  /** Characters of a line not yet complete. */
  get pendingChars(): number {
    return this.tail.length;
  }

  push(bytes: Uint8Array, out: NdjsonLine[]): number {
    return this.pushText(this.decoder.decode(bytes, { stream: true }), out);
  }

  pushText(chunk: string, out: NdjsonLine[]): number {
    const before = out.length;
    let pos = 0;
    const len = chunk.length;
    while (pos < len) {
      const nl = chunk.indexOf('\n', pos);
      if (nl === -1) break;
      let line = this.tail.length > 0 ? this.tail + chunk.slice(pos, nl) : chunk.slice(pos, nl);
      this.tail = '';
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      if (line.trim().length > 0) out.push({ data: line });
      else this.ignoredUnits++;
      pos = nl + 1;
    }
    if (pos < len) this.tail += chunk.slice(pos);
    return out.length - before;
  }

  end(out: NdjsonLine[]): NdjsonEndInfo {
    const rest = this.decoder.decode();
    if (rest.length > 0) this.pushText(rest, out);
    const info = { unterminatedLine: this.tail.trim().length > 0 ? this.tail : '' };
    this.tail = '';
    return info;
  }
}
