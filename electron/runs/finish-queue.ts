/**
 * The bookkeeping of finished requests (run-file line, statistics, live histograms), done in
 * slices: when a wave of requests ends together, at most SLICE_MS of it runs per event-loop turn,
 * so this thread keeps dispatching the next requests on time and answering the UI in between.
 * Tasks run in the order they were queued.
 */
const SLICE_MS = 2;

export class FinishQueue {
  private tasks: (() => void)[] = [];
  private head = 0;
  private scheduled = false;
  private waiters: (() => void)[] = [];
  /** A task that threw: the run goes on; the first error is kept for the caller. */
  error: Error | null = null;

  push(task: () => void): void {
    this.tasks.push(task);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  get pending(): number {
    return this.tasks.length - this.head;
  }

  private drain(): void {
    this.scheduled = false;
    const start = performance.now();
    while (this.head < this.tasks.length) {
      const task = this.tasks[this.head]!;
      this.tasks[this.head++] = noop;
      try {
        task();
      } catch (e) {
        this.error ??= e as Error;
      }
      if (this.head < this.tasks.length && performance.now() - start >= SLICE_MS) {
        this.scheduled = true;
        setImmediate(() => this.drain());
        return;
      }
    }
    this.tasks = [];
    this.head = 0;
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves once every queued task has run. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

function noop(): void {}
