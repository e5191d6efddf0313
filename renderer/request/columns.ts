/**
 * The renderer's copy of one request's events: growable typed arrays (doubling, like the
 * engine's EventColumns) appended from RequestBatch rows, plus the text deltas, raw frames and
 * the running output text. Lives outside React; views read it when they draw.
 */
import type { RequestBatch } from '../../shared/api.ts';
import type { EventColumnsData } from '../../shared/event-columns.ts';

type NumArray = ArrayLike<number>;

function grow<T extends Float64Array | Uint32Array | Uint8Array>(
  a: T,
  cap: number,
  C: new (n: number) => T,
): T {
  const b = new C(cap);
  b.set(a);
  return b;
}

function asTyped<T extends Float64Array | Uint32Array | Uint8Array>(
  v: NumArray | undefined,
  C: { new (n: number): T; from(a: NumArray): T },
): T {
  if (v instanceof C) return v;
  return C.from(v ?? []);
}

export class LiveColumns implements EventColumnsData {
  n = 0;
  t: Float64Array;
  tokens: Uint32Array;
  read: Uint32Array;
  flags: Uint8Array;
  size: Uint32Array;
  text: string[] = [];
  raw: string[] = [];
  /** The generated text so far (all deltas joined), kept incrementally. */
  fullText = '';
  /** Rows were missed (a batch arrived with `from` past the end, e.g. after a reconnect). */
  missing = false;

  constructor(capacity = 256) {
    this.t = new Float64Array(capacity);
    this.tokens = new Uint32Array(capacity);
    this.read = new Uint32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.size = new Uint32Array(capacity);
  }

  get capacity(): number {
    return this.t.length;
  }

  private ensure(rows: number): void {
    if (rows <= this.t.length) return;
    let cap = Math.max(64, this.t.length);
    while (cap < rows) cap *= 2;
    this.t = grow(this.t, cap, Float64Array);
    this.tokens = grow(this.tokens, cap, Uint32Array);
    this.read = grow(this.read, cap, Uint32Array);
    this.flags = grow(this.flags, cap, Uint8Array);
    this.size = grow(this.size, cap, Uint32Array);
  }

  /**
   * Append the rows of a batch. Rows already held (a batch replayed after a reconnect) are
   * skipped; a batch starting past the end means rows were lost, so it is not appended out of
   * place: `missing` is set and the final snapshot repairs the columns. Returns rows added.
   */
  append(
    b: Pick<RequestBatch, 'from' | 't' | 'tokens' | 'read' | 'flags' | 'size' | 'text' | 'raw'>,
  ): number {
    const len = b.t.length;
    if (b.from > this.n) {
      this.missing = true;
      return 0;
    }
    const skip = this.n - b.from;
    if (skip >= len) return 0;
    const add = len - skip;
    this.ensure(this.n + add);
    const at = this.n;
    // Typed arrays arrive as typed arrays (structured clone, or the wire codec's tags); plain
    // arrays are accepted too rather than trusted to be typed.
    this.t.set(asTyped(b.t, Float64Array).subarray(skip), at);
    this.tokens.set(asTyped(b.tokens, Uint32Array).subarray(skip), at);
    this.read.set(asTyped(b.read, Uint32Array).subarray(skip), at);
    this.flags.set(asTyped(b.flags, Uint8Array).subarray(skip), at);
    this.size.set(asTyped(b.size, Uint32Array).subarray(skip), at);
    let delta = '';
    for (let i = skip; i < len; i++) {
      const s = b.text[i] ?? '';
      this.text.push(s);
      delta += s;
      this.raw.push(b.raw[i] ?? '');
    }
    this.fullText += delta;
    this.n += add;
    return add;
  }

  /** Replace everything with a complete record's columns (finished request or reopened from history). */
  load(d: EventColumnsData, raw: string[] | null): void {
    const n = d.n;
    this.n = 0;
    this.ensure(n);
    this.t.set(asTyped(d.t, Float64Array).subarray(0, n));
    this.tokens.set(asTyped(d.tokens, Uint32Array).subarray(0, n));
    this.read.set(asTyped(d.read, Uint32Array).subarray(0, n));
    this.flags.set(asTyped(d.flags, Uint8Array).subarray(0, n));
    this.size.set(asTyped(d.size, Uint32Array).subarray(0, n));
    this.text = Array.from({ length: n }, (_, i) => d.text[i] ?? '');
    this.raw = Array.from({ length: n }, (_, i) => raw?.[i] ?? '');
    this.fullText = this.text.join('');
    this.n = n;
    this.missing = false;
  }
}
