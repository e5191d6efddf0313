/**
 * The client-side concurrency limit (vLLM's `asyncio.Semaphore(max_concurrency)`): FIFO, so
 * requests get slots in arrival order and queue time is what a real client in front of the server
 * would see. And the arrival clock's sleep, which never wakes early.
 */
import { now } from '../engine/clock.ts';
import { START_AT_TOLERANCE_MS } from '../../shared/runs/shard/shard.ts';
import { StartMissedError } from './run-options.ts';
import { onAbort } from '../platform/abort-hub.ts';

export class Slots {
  private active = 0;
  private waiters: ((ok: boolean) => void)[] = [];
  private cancelled = false;

  constructor(private readonly limit: number) {}

  get inUse(): number {
    return this.active;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Resolves true with a slot, or false when the run was cancelled while waiting. */
  acquire(): Promise<boolean> {
    if (this.cancelled) return Promise.resolve(false);
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next)
      next(true); // the slot passes straight to the next in line
    else this.active--;
  }

  /** Wakes every waiter with false; later acquires fail at once. */
  cancelAll(): void {
    this.cancelled = true;
    for (const w of this.waiters.splice(0)) w(false);
  }
}

/**
 * The longest delay a Node timer takes (2^31 − 1 ms, 24.8 days). A longer one is not an error to
 * Node: it warns (TimeoutOverflowWarning) and fires after 1 ms, so a trace row weeks after the
 * first (or a tiny --speedup) spun through ~35,000 warnings in 40 s and never got anywhere.
 * @internal exported for its tests
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Sleeps until the monotonic clock reaches `target` (ms, clock.ts `now()`), or the signal aborts.
 * Node timers have 1-ms granularity and may fire a fraction early, so it re-sleeps until due; a
 * gap longer than a timer can hold is slept in pieces of at most MAX_TIMER_MS. Lateness is
 * measured by the caller (self-check "schedule lag"), not hidden.
 */
export async function sleepUntil(target: number, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const d = target - now();
    if (d <= 0 || signal?.aborted) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        stop?.();
        resolve();
      };
      const t = setTimeout(done, Math.min(Math.ceil(d), MAX_TIMER_MS));
      const stop = signal ? onAbort(signal, done) : null;
    });
  }
}

/** How long late arrivals are released back to back before the loop yields once, ms. */
const LATE_SLICE_MS = 2;

/**
 * The arrival clock of a dispatch loop. On time, it sleeps until each arrival. Late (the client
 * fell behind: a starved or overloaded machine), sleepUntil returns at once and, awaited in a loop,
 * never gives the event loop a turn: a client at 5 % of a core released 2,000 late arrivals in one
 * task that held its thread for 100 s, no read decoded, no timer, no progress, the self-check's
 * own monitor silent. So late releases yield to the event loop once every LATE_SLICE_MS (a
 * setImmediate: after pending I/O), while on-time ones are unchanged. A burst (`--rate inf`,
 * every arrival due at 0) starts its requests in 2-ms slices with reads between them.
 */
export class ArrivalClock {
  private sliceStart = now();

  constructor(private readonly sliceMs = LATE_SLICE_MS) {}

  async until(target: number, signal?: AbortSignal): Promise<void> {
    if (target > now()) {
      await sleepUntil(target, signal);
      this.sliceStart = now(); // a timer woke it: the loop had its turn
      return;
    }
    if (now() - this.sliceStart < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = now();
  }
}

/**
 * The run clock's zero: now, or the instant `startAtLocalMs` (--start-at on this machine's clock,
 * performance.timeOrigin-based epoch ms), slept until. The zero is that planned instant, not the
 * wake-up: a late wake shows as schedule lag of the first arrivals, never as a shifted clock. An
 * instant already past by more than the tolerance comes back as StartMissedError.
 */
export async function waitForStart(
  startAtLocalMs: number | undefined,
  signal: AbortSignal,
  /**
   * Wake this long before the zero (a run that hands requests over ahead of their send does so
   * for its first arrivals too); without --start-at the zero is then this far ahead of now.
   */
  leadMs = 0,
): Promise<number | StartMissedError> {
  if (startAtLocalMs === undefined) return now() + leadMs;
  const t0 = startAtLocalMs - performance.timeOrigin;
  const late = now() - t0;
  if (late > START_AT_TOLERANCE_MS) return new StartMissedError(late);
  await sleepUntil(t0 - leadMs, signal);
  return t0;
}
