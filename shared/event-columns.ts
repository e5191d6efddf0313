/**
 * Columnar store of a request's events: typed arrays that grow by doubling. One row per
 * dispatched event. This is what the engine records, what crosses IPC in batches and what the
 * timeline draws from, so it stays compact: ~18 bytes a row plus the text deltas.
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
  flags: Uint16Array;
  /**
   * Generated text delta of the event ('' when none). Empty when the columns keep no text (a load
   * run's: EventColumns `keepsText`), whatever `n` is.
   */
  text: string[];
  /** Size of the event's raw frame, bytes (UTF-16 length of the data for SSE; close enough for display). */
  size: Uint32Array;
}

type Typed = Float64Array | Uint32Array | Uint16Array;

function grown<T extends Typed>(a: T, cap: number, C: new (n: number) => T): T {
  const b = new C(cap);
  b.set(a);
  return b;
}

/** A trimmed copy of rows [from, to) of any columns: what a batch to the UI or a snapshot carries. */
export function sliceColumns(d: EventColumnsData, from = 0, to = d.n): EventColumnsData {
  return {
    n: to - from,
    t: d.t.slice(from, to),
    tokens: d.tokens.slice(from, to),
    read: d.read.slice(from, to),
    flags: d.flags.slice(from, to),
    size: d.size.slice(from, to),
    text: d.text.slice(from, to),
  };
}

/**
 * The growable columns (doubling): the engine records into them, the renderer's LiveColumns
 * (renderer/request/columns.ts) extends them with the raw frames and the running text.
 */
export class EventColumns implements EventColumnsData {
  n = 0;
  t: Float64Array;
  tokens: Uint32Array;
  read: Uint32Array;
  flags: Uint16Array;
  size: Uint32Array;
  text: string[] = [];

  /**
   * `keepsText` false: the text column stays empty (a load run reads no event's text; a string per
   * event in an array that grows with the stream was promoted with it, 16 MB in a 1 M-chunk run).
   */
  constructor(
    capacity = 64,
    readonly keepsText = true,
  ) {
    this.t = new Float64Array(capacity);
    this.tokens = new Uint32Array(capacity);
    this.read = new Uint32Array(capacity);
    this.flags = new Uint16Array(capacity);
    this.size = new Uint32Array(capacity);
  }

  get capacity(): number {
    return this.t.length;
  }

  push(t: number, tokens: number, read: number, flags: number, text: string, size: number): number {
    if (this.n === this.t.length) this.ensure(this.n + 1);
    const i = this.n++;
    this.t[i] = t;
    this.tokens[i] = tokens;
    this.read[i] = read;
    this.flags[i] = flags;
    this.size[i] = size;
    if (this.keepsText) this.text.push(text);
    return i;
  }

  /** Room for `rows` rows (capacity doubles until it fits). */
  protected ensure(rows: number): void {
    if (rows <= this.t.length) return;
    let cap = Math.max(64, this.t.length);
    while (cap < rows) cap *= 2;
    this.t = grown(this.t, cap, Float64Array);
    this.tokens = grown(this.tokens, cap, Uint32Array);
    this.read = grown(this.read, cap, Uint32Array);
    this.flags = grown(this.flags, cap, Uint16Array);
    this.size = grown(this.size, cap, Uint32Array);
  }

  /** A trimmed copy of rows [from, n): what a batch to the UI or a run file carries. */
  slice(from = 0, to = this.n): EventColumnsData {
    return sliceColumns(this, from, to);
  }

  static from(d: EventColumnsData): EventColumns {
    const c = new EventColumns(Math.max(64, d.n));
    for (let i = 0; i < d.n; i++)
      c.push(d.t[i]!, d.tokens[i]!, d.read[i]!, d.flags[i]!, d.text[i] ?? '', d.size[i]!);
    return c;
  }
}
