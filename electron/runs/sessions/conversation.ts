/**
 * Multi-turn conversations (workload `sessions`): what each conversation's user says, turn by turn,
 * and the request of turn k — turns 1..k−1 as they happened (each user message and the answer the
 * server actually streamed) plus the new user message — so a server's prefix cache sees what a
 * chat client really sends. Think times between turns are seeded per (conversation, turn).
 */
import { Rng } from '../../../shared/prng.ts';
import type { ChatMessage } from '../../../shared/request.ts';
import type { PromptSource, Sessions, ThinkTime } from '../../../shared/runs/workload/workload.ts';
import { countChatTokens, countTextTokens } from '../../../shared/tokenizer.ts';
import type { PromptItem, PromptProvider } from '../prompts/items.ts';
import { sampleLength } from '../prompts/items.ts';

/** One planned turn: the user's message and the answer length to ask for (null: the server's default). */
export interface PlannedTurn {
  user: string;
  outputTokens: number | null;
}

/** A turn that happened: what the user sent and what came back (the streamed answer's text). */
export interface DoneTurn {
  user: string;
  answer: string;
}

/** A prompt provider that also plans whole conversations (the main stream; warm-up uses `at`). */
export interface ConversationProvider extends PromptProvider {
  conversation(i: number): PlannedTurn[];
}

export function isConversational(p: PromptProvider): p is ConversationProvider {
  return typeof (p as Partial<ConversationProvider>).conversation === 'function';
}

/** The messages of the next turn: every earlier turn (user, then its real answer), then the new user message. @internal exported for its tests */
export function turnMessages(history: readonly DoneTurn[], user: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const t of history)
    out.push({ role: 'user', content: t.user }, { role: 'assistant', content: t.answer });
  out.push({ role: 'user', content: user });
  return out;
}

/** The request item of the next turn (its input estimate counts the whole conversation so far). */
export function turnItem(history: readonly DoneTurn[], next: PlannedTurn): PromptItem {
  const messages = turnMessages(history, next.user);
  return { messages, inputTokens: countChatTokens(messages), outputTokens: next.outputTokens };
}

/** The pause before turn `turn` (2-based: turn 1 has none) of conversation `i`, ms. */
export function thinkTimeMs(d: ThinkTime, seed: number, i: number, turn: number): number {
  if (d.type === 'fixed') return d.ms;
  const rng = new Rng(seed, `think:${i}:${turn}`);
  if (d.type === 'uniform') return d.minMs + rng.next() * (d.maxMs - d.minMs);
  return rng.exponential(d.meanMs);
}

/** How many turns conversation `i` has (a file's conversation: at most this many). */
function turnsOf(s: Sessions, seed: number, i: number): number {
  if (s.turns.type === 'fixed') return s.turns.value;
  return s.turns.min + new Rng(seed, `turns:${i}`).int(s.turns.max - s.turns.min + 1);
}

export function maxTurnsOf(s: Sessions): number {
  return s.turns.type === 'fixed' ? s.turns.value : s.turns.max;
}

/**
 * Synthetic conversations: each turn's user message is inputLen tokens of words (turn 1:
 * firstInputLen when set) and asks for outputLen tokens; the source's prefix (if any) opens the first message only. `text` makes the
 * words (prompts.ts `syntheticText`), so single prompts and turns read alike.
 */
export function syntheticConversations(
  base: PromptProvider,
  src: Extract<PromptSource, { type: 'synthetic' }>,
  sessions: Sessions,
  seed: number,
  text: (tokens: number, rng: Rng) => string,
): ConversationProvider {
  const prefix = src.prefix ? src.prefix + '\n' : '';
  const prefixTokens = prefix ? countTextTokens(prefix) : 0;
  return {
    ...base,
    description: `${base.description}, conversations of ${describeTurns(sessions)} turns`,
    conversation(i) {
      const n = turnsOf(sessions, seed, i);
      return Array.from({ length: n }, (_, k) => {
        const rng = new Rng(seed, `main:turn:${i}:${k}`);
        const inLen = sampleLength(k === 0 ? (sessions.firstInputLen ?? src.inputLen) : src.inputLen, rng);
        const outLen = sampleLength(src.outputLen, rng);
        const head = k === 0 ? prefix : '';
        return {
          user: head + text(Math.max(1, inLen - (k === 0 ? prefixTokens : 0)), rng),
          outputTokens: outLen,
        };
      });
    },
  };
}

function describeTurns(s: Sessions): string {
  return s.turns.type === 'fixed' ? String(s.turns.value) : `${s.turns.min}–${s.turns.max}`;
}
