/**
 * Columnar store of a request's events: typed arrays that grow by doubling. One row per
 * dispatched event. This is what the engine records, what crosses IPC in batches and what the
 * timeline draws from, so it stays compact: ~17 bytes a row plus the text deltas.
 */
export interface EventColumnsData {
  n: number;
  /** Arrival time, ms since request start (the socket read that completed the event). */
  t: Float64Array;
  /** Generated tokens in the event (exact when EV_TOKENS_EXACT, else estimated; 0 for non-content). */
  tokens: Uint32Array;
  /** Index of the socket read that completed the event (0-based). */
  read: Uint32Array;
  /** EV_* bit flags. */
  flags: Uint8Array;
  /** Generated text delta of the event ('' when none). */
  text: string[];
  /** Size of the event's raw frame, bytes (UTF-16 length of the data for SSE; close enough for display). */
  size: Uint32Array;
}

export class EventColumns implements EventColumnsData {
  n = 0;
  t: Float64Array;
  tokens: Uint32Array;
  read: Uint32Array;
  flags: Uint8Array;
  size: Uint32Array;
  text: string[] = [];

  constructor(capacity = 64) {
    this.t = new Float64Array(capacity);
    this.tokens = new Uint32Array(capacity);
    this.read = new Uint32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.size = new Uint32Array(capacity);
  }

  push(t: number, tokens: number, read: number, flags: number, text: string, size: number): number {
    if (this.n === this.t.length) this.grow();
    const i = this.n++;
    this.t[i] = t;
    this.tokens[i] = tokens;
    this.read[i] = read;
    this.flags[i] = flags;
    this.size[i] = size;
    this.text.push(text);
    return i;
  }

  private grow(): void {
    const cap = this.t.length * 2 || 64;
    const t = new Float64Array(cap);
    t.set(this.t);
    this.t = t;
    const tokens = new Uint32Array(cap);
    tokens.set(this.tokens);
    this.tokens = tokens;
    const read = new Uint32Array(cap);
    read.set(this.read);
    this.read = read;
    const flags = new Uint8Array(cap);
    flags.set(this.flags);
    this.flags = flags;
    const size = new Uint32Array(cap);
    size.set(this.size);
    this.size = size;
  }

  /** A trimmed copy of rows [from, n): what a batch to the UI or a run file carries. */
  slice(from = 0, to = this.n): EventColumnsData {
    return {
      n: to - from,
      t: this.t.slice(from, to),
      tokens: this.tokens.slice(from, to),
      read: this.read.slice(from, to),
      flags: this.flags.slice(from, to),
      size: this.size.slice(from, to),
      text: this.text.slice(from, to),
    };
  }

  static from(d: EventColumnsData): EventColumns {
    const c = new EventColumns(Math.max(64, d.n));
    for (let i = 0; i < d.n; i++)
      c.push(d.t[i]!, d.tokens[i]!, d.read[i]!, d.flags[i]!, d.text[i] ?? '', d.size[i]!);
    return c;
  }
}
