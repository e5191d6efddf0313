/**
 * The bookkeeping of finished requests (run-file line, statistics, live histograms), done in
 * slices: when a wave of requests ends together, at most SLICE_MS of it runs per event-loop turn,
 * so this thread keeps dispatching the next requests on time and answering the UI in between.
 * Tasks run in the order they were queued. The slicing is the one time-sliced queue
 * (platform/sliced-queue.ts); what this adds is the run's: a task that throws does not stop the
 * others (the first error is kept), and `idle()` for the run's end.
 */
import { SlicedQueue } from '../platform/sliced-queue.ts';

const SLICE_MS = 2;

export class FinishQueue {
  private waiters: (() => void)[] = [];
  /** A task that threw: the run goes on; the first error is kept for the caller. */
  error: Error | null = null;
  // Each task is its own closure, so the queue's "not queued twice" never merges two of them.
  private readonly queue = new SlicedQueue<() => void>(SLICE_MS, (task) => {
    try {
      task();
    } catch (e) {
      this.error ??= e as Error;
    }
    if (this.queue.size === 0) this.wake();
  });

  push(task: () => void): void {
    this.queue.add(task);
  }

  get pending(): number {
    return this.queue.size;
  }

  /** Resolves once every queued task has run. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}
