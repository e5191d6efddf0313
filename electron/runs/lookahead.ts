/**
 * Prompts prepared ahead of their arrival: building a long prompt (a trace's 80k-token request)
 * takes milliseconds, and built on the arrival's own turn it would delay that request and every
 * one planned at the same instant — schedule lag the client made, not the server. The runner
 * fills this before the clock starts and in the idle time before each arrival, up to a budget of
 * prompt characters, and takes item i from it (building it then only when it is not there).
 */
import { ownsRequest, type ShardSpec } from '../../shared/runs/shard/shard.ts';
import type { PromptItem } from './prompts/items.ts';

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
