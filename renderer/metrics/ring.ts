/**
 * A fixed-capacity ring buffer: pushing past the capacity drops the oldest item, so memory is
 * bounded by the capacity however long the app watches a server.
 */
export class Ring<T> {
  private readonly items: (T | undefined)[];
  private head = 0;
  private n = 0;

  constructor(readonly capacity: number) {
    if (!(capacity >= 1) || !Number.isInteger(capacity))
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.n;
  }

  push(item: T): void {
    this.items[(this.head + this.n) % this.capacity] = item;
    if (this.n < this.capacity) this.n++;
    else this.head = (this.head + 1) % this.capacity;
  }

  /** The i-th oldest item (0 = oldest); undefined out of range. */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.n) return undefined;
    return this.items[(this.head + i) % this.capacity];
  }

  last(): T | undefined {
    return this.at(this.n - 1);
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.n; i++) out.push(this.items[(this.head + i) % this.capacity] as T);
    return out;
  }

  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.n = 0;
  }
}
