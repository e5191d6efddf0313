/**
 * Playing one conversation: turn k is sent think-time after turn k−1's answer ended and carries
 * the answers actually returned; a failed turn ends the conversation; no turn starts past the run's end.
 */
import { describe, expect, it } from 'vitest';
import { newRecord, type RequestRecord } from '../../../shared/record.ts';
import { now } from '../../engine/clock.ts';
import { playConversation, type ConversationRun } from './session-loop.ts';
import type { PromptItem } from '../prompts/items.ts';

interface Sent {
  turn: number;
  item: PromptItem;
  scheduledMs: number;
  arrivedMs: number;
  endedMs: number;
}

function conversation(over: Partial<ConversationRun> & { fail?: number; answerMs?: number }) {
  const origin = now();
  const sent: Sent[] = [];
  const run: ConversationRun = {
    plan: [1, 2, 3, 4].map((k) => ({ user: `question ${k}`, outputTokens: 5 })),
    scheduledMs: 0,
    arrivedMs: 0,
    thinkMs: (turn) => 10 * turn,
    clock: () => now() - origin,
    origin,
    durationMs: null,
    signal: new AbortController().signal,
    async send(turn, item, scheduledMs, arrivedMs) {
      await new Promise((r) => setTimeout(r, over.answerMs ?? 5)); // the answer streaming
      const rec: RequestRecord = newRecord({
        id: `t${turn}`,
        url: '',
        dialect: 'openai-chat',
        model: 'm',
        startedAtWall: 0,
      });
      rec.text = `answer ${turn} (as streamed)`;
      if (turn === over.fail) rec.error = { kind: 'http', code: 'status', status: 500, message: 'boom' };
      sent.push({ turn, item, scheduledMs, arrivedMs, endedMs: now() - origin });
      return rec;
    },
    ...over,
  };
  return { run, sent };
}

describe('playConversation', () => {
  it('carries the streamed answers and waits the think time after each answer', async () => {
    const { run, sent } = conversation({});
    expect(await playConversation(run)).toBe(4);
    expect(sent.map((s) => s.turn)).toEqual([1, 2, 3, 4]);
    const last = sent[3]!.item.messages!;
    expect(last.map((m) => m.content)).toEqual([
      'question 1',
      'answer 1 (as streamed)',
      'question 2',
      'answer 2 (as streamed)',
      'question 3',
      'answer 3 (as streamed)',
      'question 4',
    ]);
    for (let k = 1; k < 4; k++) {
      const prev = sent[k - 1]!;
      const think = 10 * (k + 1);
      // Planned think-time after the answer ended (to the clock's read after `send` returned), never early.
      expect(sent[k]!.scheduledMs).toBeGreaterThanOrEqual(prev.endedMs + think);
      expect(sent[k]!.arrivedMs).toBeGreaterThanOrEqual(sent[k]!.scheduledMs);
    }
  });

  it('a failed turn ends the conversation (the next would have no answer to carry)', async () => {
    const { run, sent } = conversation({ fail: 2 });
    expect(await playConversation(run)).toBe(2);
    expect(sent.map((s) => s.turn)).toEqual([1, 2]);
  });

  it('no turn starts at or after the run’s duration', async () => {
    const { run, sent } = conversation({ durationMs: 200, thinkMs: () => 120 });
    await playConversation(run);
    // Turn 1 at 0, ends ~5; turn 2 planned ~125 < 200; turn 3 planned ≥ 245: never sent.
    expect(sent.map((s) => s.turn)).toEqual([1, 2]);
  });
});
