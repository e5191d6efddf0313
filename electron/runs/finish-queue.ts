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
/**
 * Finished requests waiting for their bookkeeping past which a request's slot is held (`room`): a
 * measuring thread short of CPU (one core shared with the I/O thread, reading as fast as a fast
 * server writes) otherwise let finished records pile up faster than it wrote them — 3,477 of them
 * (each with its events) in a 4,000 × 256-token run, ~450 MB.
 */
const FINISH_BACKLOG = 256;

export class FinishQueue {
  private waiters: (() => void)[] = [];
  private roomWaiters: (() => void)[] = [];
  /** A task that threw: the run goes on; the first error is kept for the caller. */
  error: Error | null = null;
  // Each task is its own closure, so the queue's "not queued twice" never merges two of them.
  private readonly queue = new SlicedQueue<() => void>(SLICE_MS, (task) => {
    try {
      task();
    } catch (e) {
      this.error ??= e as Error;
    }
    if (this.roomWaiters.length > 0 && this.queue.size <= this.backlog) this.wakeRoom();
    if (this.queue.size === 0) this.wake();
  });

  constructor(private readonly backlog = FINISH_BACKLOG) {}

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

  /** Null while at most `backlog` tasks wait; else resolves once that is so again. */
  room(): Promise<void> | null {
    if (this.pending <= this.backlog) return null;
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  private wakeRoom(): void {
    const w = this.roomWaiters;
    this.roomWaiters = [];
    for (const f of w) f();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}
