import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../../../shared/request.ts';
import { openAiCompletions } from './openai-completions.ts';
import { corpusText, replay, stringsOf } from '../../testing/dialect-replay.ts';

const PARIS = ' Paris. It is known for the Eiffel Tower, the Louvre Museum, and its';
const LLAMA = " I'm an artificial intelligence model known as";

describe('openai-completions replays the corpus', () => {
  const cases = [
    { file: 'vllm-completions.sse', text: PARIS, finish: 'length', usage: null, content: 16 },
    {
      file: 'vllm-completions-include-usage.sse',
      text: PARIS,
      finish: 'length',
      usage: { promptTokens: 7, completionTokens: 16, totalTokens: 23 },
      content: 16,
    },
    // usage rides on the finish chunk, unrequested (test-corpus/FORMATS.md §6.5)
    {
      file: 'llamacpp-v1-completions.sse',
      text: LLAMA,
      finish: 'length',
      usage: { promptTokens: 7, completionTokens: 8, totalTokens: 15, cachedTokens: 0 },
      content: 8,
    },
    {
      file: 'ollama-v1-completions-include-usage.sse',
      text: ' Paris. It is',
      finish: 'stop',
      usage: { promptTokens: 5, completionTokens: 4, totalTokens: 9 },
      content: 4,
    },
  ];
  for (const c of cases) {
    it(c.file, () => {
      const r = replay(c.file, 'openai-completions');
      expect(r.text).toBe(c.text);
      expect(r.text).toBe(stringsOf(corpusText(c.file), 'text').join(''));
      expect(r.finishReason).toBe(c.finish);
      expect(r.usage).toEqual(c.usage);
      expect(r.content).toHaveLength(c.content);
      expect(r.content.every((e) => e.tokens === null)).toBe(true);
      expect(r.errors).toEqual([]);
      expect(r.invalid).toEqual([]);
      expect(r.terminalAt).toBe(r.events.length - 1);
      expect(r.events.at(-1)!.kind).toBe('done');
    });
  }

  it('takes the last token and finish_reason from the same chunk (vLLM)', () => {
    const r = replay('vllm-completions.sse', 'openai-completions');
    expect(r.content.at(-1)).toMatchObject({ text: ' its', finishReason: 'length' });
  });

  it("ignores Ollama's all-zero usage placeholders: only the final usage chunk counts", () => {
    const r = replay('ollama-v1-completions-include-usage.sse', 'openai-completions');
    expect(r.events.filter((e) => e.usage).map((e) => e.kind)).toEqual(['usage']);
  });

  it("reads llama.cpp's usage on the finish chunk without taking it for a per-event count", () => {
    const r = replay('llamacpp-v1-completions.sse', 'openai-completions');
    expect(r.events.at(-2)).toMatchObject({
      kind: 'empty',
      tokens: null,
      finishReason: 'length',
      usage: { completionTokens: 8 },
    });
  });
});

describe('openai-completions decoder shapes', () => {
  const d = () => openAiCompletions.createDecoder();

  it('treats TGI\'s finish_reason "" as not finished (test-corpus/FORMATS.md §2.3)', () => {
    const dec = d();
    const mid = dec.decode({
      event: 'message',
      data: '{"object":"text_completion","id":"","choices":[{"index":0,"text":" a","logprobs":null,"finish_reason":""}]}',
    });
    expect(mid).toEqual({ kind: 'content', text: ' a', tokens: null, choices: true });
    const last = dec.decode({
      event: 'message',
      data: '{"object":"text_completion","id":"","choices":[{"index":0,"text":"","finish_reason":"length"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}',
    });
    expect(last).toMatchObject({ kind: 'empty', finishReason: 'length', usage: { completionTokens: 2 } });
  });

  it('counts per-event tokens from continuous usage on completions too', () => {
    const dec = d();
    const chunk = (text: string, c: number) =>
      dec.decode({
        event: 'message',
        data: JSON.stringify({
          choices: [{ index: 0, text, finish_reason: null }],
          usage: { prompt_tokens: 5, total_tokens: 5 + c, completion_tokens: c },
        }),
      });
    expect([chunk(' a', 1), chunk(' bc', 3), chunk('', 3)].map((e) => [e.kind, e.tokens])).toEqual([
      ['content', 1],
      ['content', 2],
      ['empty', null],
    ]);
  });
});

describe('openai-completions buildBody', () => {
  const spec = (over: Partial<RequestSpec> = {}): RequestSpec => ({
    url: 'http://x',
    dialect: 'openai-completions',
    model: 'm',
    prompt: 'p',
    ...over,
  });

  it('sends the prompt, streams, and injects include_usage unless switched off', () => {
    expect(openAiCompletions.buildBody(spec({ params: { maxTokens: 5 } }))).toEqual({
      model: 'm',
      prompt: 'p',
      stream: true,
      max_tokens: 5,
      stream_options: { include_usage: true },
    });
    expect(openAiCompletions.buildBody(spec({ includeUsage: false }))).not.toHaveProperty('stream_options');
    expect(openAiCompletions.buildBody(spec({ continuousUsage: true })).stream_options).toEqual({
      include_usage: true,
      continuous_usage_stats: true,
    });
  });

  it('joins messages into the prompt when only messages are given', () => {
    const messages = [
      { role: 'system' as const, content: 'a' },
      { role: 'user' as const, content: 'b' },
    ];
    expect(openAiCompletions.buildBody(spec({ prompt: undefined, messages })).prompt).toBe('a\n\nb');
  });
});
