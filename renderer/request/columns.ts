/**
 * The renderer's copy of one request's events: the engine's growable columns (shared/event-columns.ts)
 * appended from RequestBatch rows, plus the raw frames and the running output text. Lives outside
 * React; views read it when they draw.
 */
import type { RequestBatch } from '../../shared/api.ts';
import { EventColumns, type EventColumnsData } from '../../shared/event-columns.ts';

type NumArray = ArrayLike<number>;

function asTyped<T extends Float64Array | Uint32Array | Uint16Array>(
  v: NumArray | undefined,
  C: { new (n: number): T; from(a: NumArray): T },
): T {
  if (v instanceof C) return v;
  return C.from(v ?? []);
}

export class LiveColumns extends EventColumns {
  raw: string[] = [];
  /** The generated text so far (all deltas joined), kept incrementally. */
  fullText = '';
  /** Rows were missed (a batch arrived with `from` past the end, e.g. after a reconnect). */
  missing = false;

  constructor(capacity = 256) {
    super(capacity);
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
    this.flags.set(asTyped(b.flags, Uint16Array).subarray(skip), at);
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
    this.flags.set(asTyped(d.flags, Uint16Array).subarray(0, n));
    this.size.set(asTyped(d.size, Uint32Array).subarray(0, n));
    this.text = Array.from({ length: n }, (_, i) => d.text[i] ?? '');
    this.raw = Array.from({ length: n }, (_, i) => raw?.[i] ?? '');
    this.fullText = this.text.join('');
    this.n = n;
    this.missing = false;
  }
}
