/**
 * One multi-turn conversation as the runner plays it: turn 1 at the conversation's arrival, each
 * later turn think-time after the previous answer ended, carrying the turns so far with the answers
 * actually streamed (conversation.ts). A failed or cancelled turn ends the conversation: the next
 * turn would have no answer to carry. No turn starts after the run's duration.
 */
import type { RequestRecord } from '../../../shared/record.ts';
import type { Workload } from '../../../shared/runs/workload/workload.ts';
import { now } from '../../engine/clock.ts';
import { isConversational, thinkTimeMs, turnItem, type DoneTurn, type PlannedTurn } from './conversation.ts';
import type { Dispatch } from '../dispatch.ts';
import type { PromptItem, PromptProvider } from '../prompts/items.ts';
import { buildSpec, type RunTargetSpec } from '../request-spec.ts';
import { sleepUntil, Slots } from '../slots.ts';

/** @internal exported for its tests */
export interface ConversationRun {
  plan: readonly PlannedTurn[];
  /** Turn 1's planned and actual arrival on the run clock (ms). */
  scheduledMs: number;
  arrivedMs: number;
  /** The pause before turn `turn` (2 and later), ms. */
  thinkMs(turn: number): number;
  /** The run clock: ms since its zero, and the zero on the monotonic clock. */
  clock(): number;
  origin: number;
  durationMs: number | null;
  signal: AbortSignal;
  /** Sends turn `turn` (1-based); its record, or null when it was never sent. */
  send(turn: number, item: PromptItem, scheduledMs: number, arrivedMs: number): Promise<RequestRecord | null>;
}

/** Plays the conversation; the number of turns sent. @internal exported for its tests */
export async function playConversation(c: ConversationRun): Promise<number> {
  const history: DoneTurn[] = [];
  let scheduled = c.scheduledMs;
  let arrived = c.arrivedMs;
  for (let k = 0; k < c.plan.length; k++) {
    const turn = k + 1;
    if (k > 0) {
      scheduled = c.clock() + c.thinkMs(turn);
      if (c.durationMs !== null && scheduled >= c.durationMs) return k;
      await sleepUntil(c.origin + scheduled, c.signal);
      if (c.signal.aborted) return k;
      arrived = c.clock();
    }
    const planned = c.plan[k]!;
    const rec = await c.send(turn, turnItem(history, planned), scheduled, arrived);
    if (!rec) return k;
    if (rec.error) return turn;
    history.push({ user: planned.user, answer: rec.text });
  }
  return c.plan.length;
}

/** What the runner lends a conversation: its workload, prompts, target, clock, and its `fire`. */
export interface ConversationDeps {
  workload: Workload;
  prompts: PromptProvider;
  target: RunTargetSpec;
  /** The run clock's zero (monotonic ms). */
  t0: number;
  durationMs: number | null;
  signal: AbortSignal;
  /** A later turn arrived (the run's arrival count). */
  arrived(): void;
  fire(d: Dispatch): Promise<RequestRecord | null>;
}

/**
 * Conversation `i` in a run: holds one concurrency slot from its arrival to its last answer, think
 * times included (so maxConcurrency counts conversations); each turn is its own request and line,
 * numbered seq = i · 1000 + turn − 1 (unique, and the same in every shard of a sharded run).
 */
export async function conversationTask(
  i: number,
  a: { at: number; arrivedMs: number; slots: Slots; haveSlot: boolean },
  d: ConversationDeps,
): Promise<void> {
  if (!a.haveSlot && !(await a.slots.acquire())) return;
  const s = d.workload.sessions;
  const free = new Slots(Infinity); // the turn's own slot: the conversation holds the real one
  try {
    await playConversation({
      plan: isConversational(d.prompts) ? d.prompts.conversation(i) : [],
      scheduledMs: a.at,
      arrivedMs: a.arrivedMs,
      thinkMs: (turn) => (s ? thinkTimeMs(s.thinkTimeMs, d.workload.seed, i, turn) : 0),
      clock: () => now() - d.t0,
      origin: d.t0,
      durationMs: d.durationMs,
      signal: d.signal,
      send: (turn, item, scheduledMs, arrivedMs) => {
        if (turn > 1) d.arrived();
        return d.fire({
          seq: i * 1000 + turn - 1,
          warmup: false,
          scheduledMs,
          arrivedMs,
          slots: free,
          haveSlot: false,
          origin: d.t0,
          item,
          spec: buildSpec(d.workload, d.target, item, d.prompts.force, `session:${i}`),
          session: { index: i, turn },
        });
      },
    });
  } finally {
    a.slots.release();
  }
}
