/**
 * Bounded storage for scraped values: a run of hours at one scrape a second must not grow memory.
 * Every buffer has a fixed capacity (oldest points are overwritten) and optionally a time window
 * (points older than the newest minus `maxAgeMs` are dropped). The store caps the number of series
 * too, so a server whose label values churn cannot grow it either.
 */
import type { Point } from '../../shared/metrics/prom-math.ts';

export interface SeriesOptions {
  /** Maximum number of points kept. */
  capacity: number;
  /** Keep only points within this many ms of the newest one. */
  maxAgeMs?: number;
}

function checkCapacity(capacity: number): void {
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
}

/** (t, v) numbers in two Float64Array rings. Times must not go backwards. */
export class NumericSeries {
  private readonly ts: Float64Array;
  private readonly vs: Float64Array;
  private head = 0; // index of the oldest point
  private len = 0;

  constructor(readonly options: SeriesOptions) {
    checkCapacity(options.capacity);
    this.ts = new Float64Array(options.capacity);
    this.vs = new Float64Array(options.capacity);
  }

  get length(): number {
    return this.len;
  }

  get capacity(): number {
    return this.ts.length;
  }

  /** Appends a point; returns false (and keeps nothing) if `t` is older than the newest point. */
  push(t: number, v: number): boolean {
    const cap = this.ts.length;
    if (this.len > 0 && t < this.ts[(this.head + this.len - 1) % cap]!) return false;
    const at = (this.head + this.len) % cap;
    this.ts[at] = t;
    this.vs[at] = v;
    if (this.len < cap) this.len++;
    else this.head = (this.head + 1) % cap;
    this.evictOlderThan(t);
    return true;
  }

  private evictOlderThan(newest: number): void {
    const maxAge = this.options.maxAgeMs;
    if (maxAge === undefined) return;
    const cap = this.ts.length;
    while (this.len > 1 && this.ts[this.head]! < newest - maxAge) {
      this.head = (this.head + 1) % cap;
      this.len--;
    }
  }

  /** The i-th point, 0 = oldest. */
  at(i: number): Point | undefined {
    if (i < 0 || i >= this.len) return undefined;
    const k = (this.head + i) % this.ts.length;
    return { t: this.ts[k]!, v: this.vs[k]! };
  }

  last(): Point | undefined {
    return this.at(this.len - 1);
  }

  /** Points with t >= sinceT (all by default), oldest first: a copy. */
  points(sinceT = -Infinity): Point[] {
    const out: Point[] = [];
    for (let i = 0; i < this.len; i++) {
      const k = (this.head + i) % this.ts.length;
      if (this.ts[k]! >= sinceT) out.push({ t: this.ts[k]!, v: this.vs[k]! });
    }
    return out;
  }

  /** Contiguous copies for charts (columnar, oldest first). */
  columns(): { t: Float64Array; v: Float64Array } {
    const t = new Float64Array(this.len);
    const v = new Float64Array(this.len);
    for (let i = 0; i < this.len; i++) {
      const k = (this.head + i) % this.ts.length;
      t[i] = this.ts[k]!;
      v[i] = this.vs[k]!;
    }
    return { t, v };
  }

  clear(): void {
    this.head = 0;
    this.len = 0;
  }
}

/** A bounded ring of timestamped objects (histogram snapshots, concept snapshots). */
export class RingBuffer<T> {
  private readonly items: ({ t: number; value: T } | undefined)[];
  private head = 0;
  private len = 0;

  constructor(readonly options: SeriesOptions) {
    checkCapacity(options.capacity);
    this.items = new Array<{ t: number; value: T } | undefined>(options.capacity).fill(undefined);
  }

  get length(): number {
    return this.len;
  }

  push(t: number, value: T): boolean {
    const cap = this.items.length;
    const newest = this.len > 0 ? this.items[(this.head + this.len - 1) % cap] : undefined;
    if (newest !== undefined && t < newest.t) return false;
    this.items[(this.head + this.len) % cap] = { t, value };
    if (this.len < cap) this.len++;
    else this.head = (this.head + 1) % cap;
    const maxAge = this.options.maxAgeMs;
    while (maxAge !== undefined && this.len > 1 && this.items[this.head]!.t < t - maxAge) {
      this.items[this.head] = undefined; // let the old object be collected
      this.head = (this.head + 1) % cap;
      this.len--;
    }
    return true;
  }

  at(i: number): { t: number; value: T } | undefined {
    return i < 0 || i >= this.len ? undefined : this.items[(this.head + i) % this.items.length];
  }

  last(): { t: number; value: T } | undefined {
    return this.at(this.len - 1);
  }

  toArray(): { t: number; value: T }[] {
    const out: { t: number; value: T }[] = [];
    for (let i = 0; i < this.len; i++) out.push(this.at(i)!);
    return out;
  }

  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.len = 0;
  }
}

export interface SeriesStoreOptions extends SeriesOptions {
  /** Most series kept; the least recently updated one is dropped to make room. */
  maxSeries: number;
}

/** Numeric series by key (e.g. `name{labels}`), bounded in points per series and in series. */
export class SeriesStore {
  // A Map iterates in insertion order; re-inserting on push keeps it ordered by last update.
  private readonly series = new Map<string, NumericSeries>();

  constructor(readonly options: SeriesStoreOptions) {
    checkCapacity(options.maxSeries);
    checkCapacity(options.capacity);
  }

  get size(): number {
    return this.series.size;
  }

  push(key: string, t: number, v: number): boolean {
    let s = this.series.get(key);
    if (s === undefined) {
      if (this.series.size >= this.options.maxSeries) {
        const oldest = this.series.keys().next().value as string;
        this.series.delete(oldest);
      }
      const opts: SeriesOptions = { capacity: this.options.capacity };
      if (this.options.maxAgeMs !== undefined) opts.maxAgeMs = this.options.maxAgeMs;
      s = new NumericSeries(opts);
    } else {
      this.series.delete(key);
    }
    this.series.set(key, s);
    return s.push(t, v);
  }

  get(key: string): NumericSeries | undefined {
    return this.series.get(key);
  }

  keys(): string[] {
    return [...this.series.keys()];
  }

  delete(key: string): boolean {
    return this.series.delete(key);
  }

  clear(): void {
    this.series.clear();
  }
}
