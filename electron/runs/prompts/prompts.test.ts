import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { countPromptTokens, countTextTokens } from '../../../shared/tokenizer.ts';
import { PromptFileError } from './files.ts';
import fc from 'fast-check';
import { joinedTokens, loadPrompts, syntheticProvider } from './prompts.ts';
import { buildSpec } from '../request-spec.ts';
import { redactTargetUrl } from '../request-spec.ts';
import { tmpDir, workload } from '../../testing/runs.ts';

const dir = tmpDir('tokenscope-prompts-');

describe('synthetic prompts', () => {
  const src = {
    type: 'synthetic' as const,
    inputLen: { type: 'uniform' as const, min: 20, max: 60 },
    outputLen: { type: 'normal' as const, mean: 50, std: 10, min: 30, max: 70 },
    force: 'ignore_eos' as const,
  };

  it('are deterministic per (seed, index), and warm-up items differ from measured ones', async () => {
    const a = await loadPrompts(src, 1, dir);
    const b = await loadPrompts(src, 1, dir);
    const c = await loadPrompts(src, 2, dir);
    expect(a.at(7)).toEqual(b.at(7));
    expect(a.at(7)).not.toEqual(c.at(7));
    expect(a.at(7)).not.toEqual(a.at(8));
    expect(a.at(0, 'warmup').prompt).not.toBe(a.at(0).prompt);
  });

  it('hit the asked input length in tokens and keep lengths inside their distributions', async () => {
    const p = await loadPrompts(src, 3, dir);
    for (let i = 0; i < 200; i++) {
      const it = p.at(i);
      expect(it.inputTokens).toBe(countTextTokens(it.prompt!));
      expect(it.inputTokens).toBeGreaterThanOrEqual(20);
      expect(it.inputTokens).toBeLessThanOrEqual(60);
      expect(it.outputTokens).toBeGreaterThanOrEqual(30);
      expect(it.outputTokens).toBeLessThanOrEqual(70);
    }
    const fixed = await loadPrompts(
      {
        type: 'synthetic',
        inputLen: { type: 'fixed', value: 33 },
        outputLen: { type: 'fixed', value: 5 },
        force: 'none',
      },
      0,
      dir,
    );
    expect(fixed.at(4).inputTokens).toBe(33);
  });

  it('force output lengths with ignore_eos and/or min_tokens', () => {
    const w = workload({ requests: 1 });
    const t = { url: 'http://x', dialect: 'openai-chat' as const, model: 'm' };
    const item = { prompt: 'hi', inputTokens: 1, outputTokens: 16 };
    expect(buildSpec(w, t, item, 'ignore_eos').params).toMatchObject({ maxTokens: 16, ignoreEos: true });
    expect(buildSpec(w, t, item, 'min_tokens').params).toMatchObject({ maxTokens: 16, minTokens: 16 });
    expect(buildSpec(w, t, item, 'none').params?.ignoreEos).toBeUndefined();
    expect(
      buildSpec(workload({ requests: 1, sampling: { maxTokens: 4 } }), t, item, 'both').params,
    ).toMatchObject({ maxTokens: 4, minTokens: 4, ignoreEos: true });
  });
});

describe('ShareGPT like vLLM samples it', () => {
  const long = 'word '.repeat(1100);
  const data = [
    {
      conversations: [
        { from: 'human', value: 'What is the capital of France, please?' },
        { from: 'gpt', value: 'The capital of France is Paris, a city on the Seine.' },
      ],
    },
    {
      conversations: [
        { from: 'human', value: 'Hi' },
        { from: 'gpt', value: 'Hello there, how can I help you today?' },
      ],
    }, // prompt < 4 tokens
    { conversations: [{ from: 'human', value: 'Only one turn here' }] }, // < 2 turns
    {
      conversations: [
        { from: 'human', value: long },
        { from: 'gpt', value: 'ok then fine.' },
      ],
    }, // prompt > 1024
    {
      conversations: [
        { from: 'human', value: 'Tell me a short story about a cat.' },
        { from: 'gpt', value: 'Once upon a time a cat sat on a mat.' },
      ],
    },
  ];
  const file = path.join(dir, 'sharegpt.json');
  writeFileSync(file, JSON.stringify(data));

  it('keeps valid pairs, output length = reply tokens, cycles when asked for more', async () => {
    const p = await loadPrompts({ type: 'sharegpt', path: 'sharegpt.json', force: 'none' }, 0, dir);
    expect(p.size).toBe(2);
    const items = [p.at(0), p.at(1)];
    const byPrompt = new Map(items.map((x) => [x.prompt!, x]));
    const cap = byPrompt.get('What is the capital of France, please?')!;
    expect(cap.outputTokens).toBe(countPromptTokens('The capital of France is Paris, a city on the Seine.'));
    expect(cap.inputTokens).toBe(countPromptTokens('What is the capital of France, please?'));
    expect(p.at(2)).toEqual(p.at(0));
    const fixed = await loadPrompts({ type: 'sharegpt', path: file, outputLen: 7, force: 'none' }, 0, dir);
    expect(fixed.at(0).outputTokens).toBe(7);
  });

  it('fails clearly on a file that is not ShareGPT', async () => {
    writeFileSync(path.join(dir, 'bad.json'), '{"a": 1}');
    await expect(loadPrompts({ type: 'sharegpt', path: 'bad.json', force: 'none' }, 0, dir)).rejects.toThrow(
      PromptFileError,
    );
    await expect(
      loadPrompts({ type: 'sharegpt', path: 'missing.json', force: 'none' }, 0, dir),
    ).rejects.toThrow(/ENOENT/);
  });
});

describe('JSONL prompts', () => {
  it('reads strings, {prompt} and {messages}, with per-line output lengths', async () => {
    writeFileSync(
      path.join(dir, 'p.jsonl'),
      [
        '"plain prompt"',
        '{"prompt": "with length", "output_len": 9}',
        '{"messages": [{"role": "user", "content": "chat"}], "max_tokens": 4}',
        '',
      ].join('\n'),
    );
    const p = await loadPrompts(
      {
        type: 'jsonl',
        path: 'p.jsonl',
        shuffle: false,
        outputLen: { type: 'fixed', value: 20 },
        force: 'none',
      },
      0,
      dir,
    );
    expect(p.size).toBe(3);
    expect(p.at(0)).toMatchObject({ prompt: 'plain prompt', outputTokens: 20 });
    expect(p.at(1)).toMatchObject({ prompt: 'with length', outputTokens: 9 });
    expect(p.at(2)).toMatchObject({ messages: [{ role: 'user', content: 'chat' }], outputTokens: 4 });
    expect(p.at(3)).toEqual(p.at(0));
  });

  it('names the bad lines', async () => {
    writeFileSync(path.join(dir, 'bad.jsonl'), '"ok"\n{oops\n{"nope": 1}\n');
    await expect(
      loadPrompts({ type: 'jsonl', path: 'bad.jsonl', shuffle: false, force: 'none' }, 0, dir),
    ).rejects.toThrow(/line 2: not JSON; line 3: expected/);
  });
});

describe('secrets stay out of run files', () => {
  it('redacts credentials and key-like query values', () => {
    expect(redactTargetUrl('https://user:pw@api.example.com/v1?api_key=sk-1&x=2')).toBe(
      'https://api.example.com/v1?api_key=REDACTED&x=2',
    );
  });
});

describe('prefix groups past the text cache bound', () => {
  it("makes a group's text again instead of keeping it: the same prompts, memory bounded", () => {
    const w = workload({
      requests: 1,
      prompts: { type: 'synthetic', inputLen: 8, outputLen: 4, prefixGroups: { groups: 5, prefixLen: 300 } },
    });
    if (w.prompts.type !== 'synthetic') throw new Error('synthetic expected');
    const src = w.prompts;
    const kept = syntheticProvider(src, 9);
    const none = syntheticProvider(src, 9, 0); // nothing kept: every request makes its prefix
    const some = syntheticProvider(src, 9, 2500); // room for one group's text or two
    for (let i = 0; i < 40; i++) {
      const a = kept.at(i);
      expect(none.at(i), `request ${i}`).toEqual(a);
      expect(some.at(i), `request ${i}`).toEqual(a);
      expect(kept.at(i, 'warmup').prompt).not.toEqual(a.prompt);
    }
  });
});

describe("prefix groups' token counts", () => {
  it('equal counting the whole prompt, with and without a workload prefix', () => {
    for (const prefix of [undefined, 'You are a helpful assistant.', 'Rules:\n- be brief;  ']) {
      const p = syntheticProvider(
        {
          type: 'synthetic',
          prefix,
          inputLen: { type: 'uniform', min: 1, max: 80 },
          outputLen: { type: 'fixed', value: 4 },
          prefixGroups: { groups: 7, prefixLen: 200 },
          force: 'ignore_eos',
        },
        5,
      );
      for (let i = 0; i < 60; i++) {
        const it = p.at(i);
        expect(it.inputTokens, `request ${i}`).toBe(countTextTokens(it.prompt!));
      }
    }
  });

  it('add up for any head and tail, or are counted whole where they would not', () => {
    const piece = fc.constantFrom('word', 'Ünïcode', 'x', 'longestwordever1234', ',', '.', '🙂', "it's", '_');
    const space = fc.constantFrom(' ', '\n', '  ', '\t', '\n\n', '');
    const text = fc.array(fc.tuple(space, piece), { maxLength: 30 }).map((a) => a.flat().join(''));
    const ws = fc.array(space, { maxLength: 3 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, ws, text, ws, (h, hs, t, ts) => {
        const head = h + hs;
        const tail = ts + t;
        const got = joinedTokens({ text: head, tokens: countTextTokens(head) }, tail);
        expect(got).toBe(countTextTokens(head + tail));
      }),
      { numRuns: 2000 },
    );
  });
});
