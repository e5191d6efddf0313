/**
 * Requests handed over ahead of their planned send and started here at that instant. A load run's
 * measuring thread builds each request (prompt, JSON body, images) and hands it to the stream-I/O
 * thread a little before its arrival time (runs/lookahead.ts handoffAt); this thread, which
 * does little else, starts it when it is due. So the schedule is kept by the thread whose loop is
 * short, and how long a prompt takes to build, or what the measuring thread is doing at that
 * instant (decoding, statistics, a garbage collection), no longer moves a send — only falling
 * behind by more than the handover margin does.
 *
 * One timer, for the earliest request. It wakes the way runs/slots.ts `sleepUntil` does: never
 * before the instant (a timer can fire up to a millisecond early on the loop's cached clock), so a
 * start is late by the timer's granularity (~1 ms) and this thread's loop, never early.
 */
export class TimedStarts<T> {
  /** Waiting requests, earliest first (ties in the order they came); cancelled ones are skipped. */
  private readonly q: { slot: number; at: number; item: T }[] = [];
  /** The slots still waiting: a cancel is O(1) (a run's cancel takes back every waiting one). */
  private readonly waiting = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  /** When the armed timer is due (performance.now()). */
  private armedFor = Infinity;

  constructor(
    /** Starts a request that is due. */
    private readonly due: (slot: number, item: T) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.waiting.size;
  }

  /** Holds `item` until `at` (this thread's performance.now()); one already due starts at once. */
  add(slot: number, at: number, item: T): void {
    if (!(at > this.now())) {
      this.due(slot, item);
      return;
    }
    // Handed over in schedule order, so this is almost always an append.
    let i = this.q.length;
    while (i > 0 && this.q[i - 1]!.at > at) i--;
    this.q.splice(i, 0, { slot, at, item });
    this.waiting.add(slot);
    if (at < this.armedFor) this.arm();
  }

  /** Takes a waiting request out (it will not start): true when it was waiting here. */
  cancel(slot: number): boolean {
    if (!this.waiting.delete(slot)) return false;
    if (this.waiting.size === 0) {
      this.q.length = 0;
      this.disarm();
    }
    return true;
  }

  /** Empties the queue (the thread stops): what was waiting, never started. */
  drain(): { slot: number; at: number; item: T }[] {
    this.disarm();
    const left = this.q.splice(0, this.q.length).filter((e) => this.waiting.has(e.slot));
    this.waiting.clear();
    return left;
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Infinity;
  }

  private arm(): void {
    this.disarm();
    const head = this.q[0];
    if (!head) return;
    this.armedFor = head.at;
    this.timer = setTimeout(this.wake, Math.max(1, Math.ceil(head.at - this.now())));
  }

  private readonly wake = (): void => {
    this.timer = null;
    this.armedFor = Infinity;
    const t = this.now();
    let n = 0;
    while (n < this.q.length && this.q[n]!.at <= t) n++;
    const ready = this.q.splice(0, n);
    for (const e of ready) if (this.waiting.delete(e.slot)) this.due(e.slot, e.item);
    if (this.q.length > 0 && !this.timer) this.arm();
  };
}
