/**
 * Multi-turn conversations: turn k carries turns 1..k−1 with the answers that came back, think
 * times follow their distribution (seeded), synthetic and ShareGPT conversations plan their turns.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countChatTokens } from '../../../shared/tokenizer.ts';
import { workload, tmpDir } from '../../testing/runs.ts';
import {
  isConversational,
  thinkTimeMs,
  turnItem,
  turnMessages,
  type ConversationProvider,
} from './conversation.ts';
import { loadPrompts } from '../prompts/prompts.ts';

describe('turnMessages', () => {
  it('turn k sends every earlier user message and its real answer, in order, then the new message', () => {
    const history = [
      { user: 'u1', answer: 'a1 as streamed' },
      { user: 'u2', answer: 'a2 as streamed' },
    ];
    expect(turnMessages(history, 'u3')).toEqual([
      { role: 'user', content: 'u1' },
      { role: 'assistant', content: 'a1 as streamed' },
      { role: 'user', content: 'u2' },
      { role: 'assistant', content: 'a2 as streamed' },
      { role: 'user', content: 'u3' },
    ]);
    expect(turnMessages([], 'first')).toEqual([{ role: 'user', content: 'first' }]);
  });

  it("the item's input estimate counts the whole conversation so far", () => {
    const item = turnItem([{ user: 'hello there', answer: 'general kenobi' }], {
      user: 'again',
      outputTokens: 9,
    });
    expect(item.inputTokens).toBe(countChatTokens(item.messages!));
    expect(item.outputTokens).toBe(9);
    expect(item.prompt).toBeUndefined();
  });
});

describe('thinkTimeMs', () => {
  it('fixed is exact; uniform stays in its range; exponential has its mean; all seeded', () => {
    expect(thinkTimeMs({ type: 'fixed', ms: 250 }, 1, 0, 2)).toBe(250);
    const u = Array.from({ length: 2000 }, (_, i) =>
      thinkTimeMs({ type: 'uniform', minMs: 100, maxMs: 300 }, 1, i, 2),
    );
    expect(Math.min(...u)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...u)).toBeLessThanOrEqual(300);
    expect(Math.abs(u.reduce((a, b) => a + b, 0) / u.length - 200)).toBeLessThan(8);
    const e = Array.from({ length: 4000 }, (_, i) =>
      thinkTimeMs({ type: 'exponential', meanMs: 500 }, 1, i, 3),
    );
    const mean = e.reduce((a, b) => a + b, 0) / e.length;
    expect(Math.abs(mean - 500)).toBeLessThan(40); // sd of the mean: 500/√4000 ≈ 8
    expect(thinkTimeMs({ type: 'exponential', meanMs: 500 }, 1, 7, 3)).toBe(e[7]);
    expect(thinkTimeMs({ type: 'exponential', meanMs: 500 }, 2, 7, 3)).not.toBe(e[7]);
  });
});

describe('synthetic conversations', () => {
  it('plan `turns` turns: the first message firstInputLen long, later ones inputLen, each asking outputLen', async () => {
    const w = workload({
      requests: 3,
      prompts: { type: 'synthetic', inputLen: 20, outputLen: 7 },
      sessions: { turns: { type: 'uniform', min: 2, max: 5 }, firstInputLen: 300 },
    });
    const p = await loadPrompts(w.prompts, w.seed, '.', w.sessions);
    expect(isConversational(p)).toBe(true);
    const c = p as ConversationProvider;
    const lens = Array.from({ length: 40 }, (_, i) => c.conversation(i).length);
    expect(Math.min(...lens)).toBe(2);
    expect(Math.max(...lens)).toBe(5);
    const conv = c.conversation(0);
    expect(c.conversation(0)).toEqual(conv); // deterministic
    expect(turnItem([], conv[0]!).inputTokens).toBe(
      countChatTokens([{ role: 'user', content: conv[0]!.user }]),
    );
    expect(conv[0]!.user.split(' ')).toHaveLength(300);
    for (const t of conv.slice(1)) expect(t.user.split(' ')).toHaveLength(20);
    expect(conv.every((t) => t.outputTokens === 7)).toBe(true);
  });
});

describe('ShareGPT conversations', () => {
  it('take every human turn in order with the next reply’s length, capped at the most turns', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'sg.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          conversations: [
            { from: 'human', value: 'first question about boats' },
            { from: 'gpt', value: 'a reply of six words here' },
            { from: 'human', value: 'second question' },
            { from: 'gpt', value: 'two words' },
            { from: 'human', value: 'third' },
            { from: 'gpt', value: 'one' },
          ],
        },
        {
          conversations: [
            { from: 'gpt', value: 'no human turn' },
            { from: 'gpt', value: 'x' },
          ],
        },
      ]),
    );
    const w = workload({ requests: 2, prompts: { type: 'sharegpt', path: file }, sessions: { turns: 2 } });
    const p = (await loadPrompts(w.prompts, w.seed, dir, w.sessions)) as ConversationProvider;
    expect(p.size).toBe(1); // the second has no human turn
    expect(p.conversation(0)).toEqual([
      { user: 'first question about boats', outputTokens: 6 },
      { user: 'second question', outputTokens: 2 },
    ]);
    expect(p.at(0).messages).toEqual([{ role: 'user', content: 'first question about boats' }]);
  });
});
