/**
 * Work done in time slices on this thread: items queued here run in arrival order from
 * setImmediate, at least one per slice and more until `sliceMs` have passed; then the queue yields
 * to the event loop (each turn's poll phase, so every readable socket is stamped, and IPC and timers
 * run) before the next slice. An item already queued is not queued twice; an item queued while the
 * queue runs (itself again, say, with work left) runs after the ones before it, in this slice if
 * time is left. The I/O thread starts requests this way (io-worker.ts) and the measuring thread
 * decodes reads this way (engine/client.ts).
 */
/**
 * Items are kept in a ring (an array reused as it fills and drains) and marked on themselves (a
 * symbol of the queue's own, so an item is queued once), not in a Set: a Set's table is rebuilt as it grows and shrinks, and a queue that fills and drains
 * every slice rebuilt it thousands of times a second — tables that lived long enough to be
 * promoted, a fifth of what a 1 M-chunk run promoted (BENCHMARKS.md).
 */
export class SlicedQueue<T extends object> {
  private ring: (T | undefined)[] = new Array<T | undefined>(16).fill(undefined);
  private head = 0;
  private count = 0;
  private scheduled = false;
  private readonly mark = Symbol('queued');

  /**
   * `run` does one item's work; what it throws propagates (a runner that must not stop the queue
   * catches). `now` is the clock slices are measured on (tests give their own).
   */
  constructor(
    private readonly sliceMs: number,
    private readonly run: (item: T) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  add(item: T): void {
    const m = item as Record<symbol, boolean>;
    if (m[this.mark]) return;
    m[this.mark] = true;
    if (this.count === this.ring.length) this.grow();
    this.ring[(this.head + this.count) % this.ring.length] = item;
    this.count++;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.slice);
    }
  }

  /** The first queued item (not yet run) that `pred` accepts. */
  find(pred: (item: T) => boolean): T | undefined {
    for (let i = 0; i < this.count; i++) {
      const item = this.ring[(this.head + i) % this.ring.length]!;
      if (pred(item)) return item;
    }
    return undefined;
  }

  get size(): number {
    return this.count;
  }

  private grow(): void {
    const n = this.ring.length;
    const next = new Array<T | undefined>(n * 2).fill(undefined);
    for (let i = 0; i < this.count; i++) next[i] = this.ring[(this.head + i) % n];
    this.ring = next;
    this.head = 0;
  }

  private shift(): T {
    const item = this.ring[this.head]!;
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.ring.length;
    this.count--;
    (item as Record<symbol, boolean>)[this.mark] = false;
    return item;
  }

  private readonly slice = (): void => {
    this.scheduled = false;
    const start = this.now();
    while (this.count > 0) {
      this.run(this.shift());
      if (this.count > 0 && this.now() - start >= this.sliceMs) {
        this.scheduled = true;
        setImmediate(this.slice);
        return;
      }
    }
  };
}
