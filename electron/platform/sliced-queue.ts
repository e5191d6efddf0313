/**
 * Work done in time slices on this thread: items queued here run in arrival order from
 * setImmediate, at least one per slice and more until `sliceMs` have passed; then the queue yields
 * to the event loop (each turn's poll phase, so every readable socket is stamped, and IPC and timers
 * run) before the next slice. An item already queued is not queued twice; an item queued while the
 * queue runs (itself again, say, with work left) runs after the ones before it, in this slice if
 * time is left. The I/O thread starts requests this way (io-worker.ts) and the measuring thread
 * decodes reads this way (engine/client.ts).
 */
export class SlicedQueue<T> {
  private readonly items = new Set<T>();
  private scheduled = false;

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
    this.items.add(item);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.slice);
    }
  }

  /** The first queued item (not yet run) that `pred` accepts. */
  find(pred: (item: T) => boolean): T | undefined {
    for (const item of this.items) if (pred(item)) return item;
    return undefined;
  }

  get size(): number {
    return this.items.size;
  }

  private readonly slice = (): void => {
    this.scheduled = false;
    const start = this.now();
    for (const item of this.items) {
      this.items.delete(item);
      this.run(item);
      if (this.items.size > 0 && this.now() - start >= this.sliceMs) {
        this.scheduled = true;
        setImmediate(this.slice);
        return;
      }
    }
  };
}
