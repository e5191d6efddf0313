/**
 * Prompts prepared ahead of their arrival: building a long prompt (a trace's 80k-token request)
 * takes milliseconds, and built on the arrival's own turn it would delay that request and every
 * one planned at the same instant — schedule lag the client made, not the server. The runner
 * fills this before the clock starts and in the idle time before each arrival, up to a budget of
 * prompt characters, and takes item i from it (building it then only when it is not there).
 */
import { ownsRequest, type ShardSpec } from '../../shared/runs/shard/shard.ts';
import type { PromptItem } from './prompts/items.ts';

/**
 * How long before its arrival a request (its prompt and body built) is handed to the stream-I/O
 * thread, which sends it on time (engine/io/timed-starts.ts). A send is late only when this thread
 * falls behind by more than this. In the run's first seconds (code not yet optimized) it fell
 * 300–700 ms behind at 500 requests/s in some runs of `npm run bench -- prompts`, so a 250-ms margin
 * made those runs' lag p99 50–350 ms; with 1 s, none fell behind in the runs measured. What it
 * costs: the bodies of a second of arrivals held (a few MB; images are shared blobs, io/blobs.ts),
 * and a slot taken a second early, which changes nothing for an open-loop schedule (requests take
 * slots in arrival order either way).
 */
const HANDOFF_AHEAD_MS = 1000;
/**
 * Arrivals due within the same window of this many ms are handed over together, in one message to
 * the I/O thread (io-engine.ts `outbox`), HANDOFF_AHEAD_MS to HANDOFF_AHEAD_MS + this ahead.
 */
const HANDOFF_WINDOW_MS = 20;

/**
 * How far ahead of the run clock's zero the dispatch loop starts: the first arrivals' handover,
 * plus time for what runs between (the run file's header, the self-check's start). A lead of 300 ms
 * (the first second's arrivals handed over at once) left 30–50-ms lags in the first second of runs
 * of the prompts bench, where this one left ~10.
 */
export const HANDOFF_LEAD_MS = HANDOFF_AHEAD_MS + HANDOFF_WINDOW_MS + 100;

/** When the arrival planned at `atMs` on the run clock is handed over, on the run clock. */
export function handoffAt(atMs: number): number {
  return Math.floor((atMs - HANDOFF_AHEAD_MS) / HANDOFF_WINDOW_MS) * HANDOFF_WINDOW_MS;
}

/** Characters of prompt text held ready at most (~2 bytes each). */
const LOOKAHEAD_CHARS = 32 * 1024 * 1024;
const LOOKAHEAD_ITEMS = 4096;

function charsOf(item: PromptItem): number {
  if (item.prompt !== undefined) return item.prompt.length;
  let n = 0;
  for (const m of item.messages ?? []) n += m.content.length;
  return n;
}

export class Lookahead<T extends { item: PromptItem }> {
  private readonly ready = new Map<number, T>();
  private next = 0;
  private chars = 0;

  constructor(
    private readonly make: (i: number) => T,
    /** Indexes to prepare, in order (a shard's own, up to the run's total). */
    private readonly indexes: (from: number) => number | null,
    private readonly budgetChars = LOOKAHEAD_CHARS,
  ) {}

  /** Prepares upcoming items until `deadline` (a `now()` value) or the budget is spent. */
  fillUntil(deadline: number, clock: () => number): void {
    while (this.ready.size < LOOKAHEAD_ITEMS && this.chars < this.budgetChars && clock() < deadline) {
      const i = this.indexes(this.next);
      if (i === null) return;
      const p = this.make(i);
      this.ready.set(i, p);
      this.chars += charsOf(p.item);
      this.next = i + 1;
    }
  }

  take(i: number): T {
    const p = this.ready.get(i);
    if (p === undefined) {
      if (i >= this.next) this.next = i + 1;
      return this.make(i);
    }
    this.ready.delete(i);
    this.chars -= charsOf(p.item);
    return p;
  }
}

/** The next index from `from` this run sends (a shard's own), below `total`; null when none is left. */
export function ownedFrom(
  shard: ShardSpec | undefined,
  total: number | null,
): (from: number) => number | null {
  return (from) => {
    for (let i = from; total === null || i < total; i++) if (ownsRequest(shard, i)) return i;
    return null;
  };
}

/**
 * Until when to prepare before the clock starts: 2 s at most, and never into a --start-at (the
 * local clock's epoch ms): what is not ready then is prepared in the gaps between arrivals.
 */
export function prefillDeadline(startAtLocalMs: number | undefined, t = performance.now()): number {
  const start = startAtLocalMs === undefined ? Infinity : startAtLocalMs - performance.timeOrigin - 100;
  return Math.min(t + 2000, start);
}
