import { describe, expect, it } from 'vitest';
import type { RequestSpec, Usage } from '../../../shared/request.ts';
import { openAiChat } from './openai-chat.ts';
import { corpusText, replay, stringsOf } from '../../testing/dialect-replay.ts';
import type { DecodedEvent } from './types.ts';

interface Case {
  file: string;
  text: string;
  finish: string | null;
  usage: Usage | null;
  content: number;
  error?: { message: string; type?: string; code?: string | number };
  terminated?: boolean;
}

const HELLO = 'Hello! How can I help you today?';
const DEEP = 'Deep learning is a subset of machine learning.';
const LLAMA = " I'm an AI assistant.";
const u = (p: number, c: number, t: number, cached?: number): Usage =>
  cached === undefined
    ? { promptTokens: p, completionTokens: c, totalTokens: t }
    : { promptTokens: p, completionTokens: c, totalTokens: t, cachedTokens: cached };

// Texts, counts and usage read off the corpus files by hand (SOURCES.md describes each file).
const CASES: Case[] = [
  { file: 'vllm-chat.sse', text: HELLO, finish: 'stop', usage: null, content: 9 },
  { file: 'vllm-chat-include-usage.sse', text: HELLO, finish: 'stop', usage: u(43, 10, 53), content: 9 },
  {
    file: 'vllm-chat-continuous-usage.sse',
    text: 'Hello! How can I help you today',
    finish: 'length',
    usage: u(43, 8, 51),
    content: 8,
  },
  {
    file: 'vllm-error-midstream.sse',
    text: 'Hello! How',
    finish: null,
    usage: null,
    content: 3,
    error: {
      message: 'EngineCore encountered an issue. See stack trace (above) for the root cause.',
      type: 'InternalServerError',
      code: 500,
    },
  },
  {
    file: 'vllm-legacy-v0.6-error-midstream.sse',
    text: 'Hello',
    finish: null,
    usage: null,
    content: 1,
    error: {
      message: 'Error in chat completion stream generator: the prompt is too long for this model.',
      type: 'BadRequestError',
      code: 400,
    },
  },
  {
    file: 'sglang-chat.sse',
    text: 'Hello! How can I assist you today?',
    finish: 'stop',
    usage: null,
    content: 9,
  },
  {
    file: 'sglang-chat-include-usage.sse',
    text: 'Hello! How can I assist you today?',
    finish: 'stop',
    usage: u(30, 10, 40),
    content: 9,
  },
  {
    file: 'sglang-error-midstream.sse',
    text: 'Hello',
    finish: null,
    usage: null,
    content: 1,
    error: {
      message: "The input (32769 tokens) is longer than the model's context length (32768 tokens).",
      type: 'BadRequestError',
      code: 400,
    },
  },
  { file: 'tgi-chat.sse', text: DEEP, finish: 'stop', usage: null, content: 9 },
  { file: 'tgi-chat-include-usage.sse', text: DEEP, finish: 'stop', usage: u(40, 10, 50), content: 9 },
  { file: 'tgi-chat-keepalive.sse', text: 'Deep learning', finish: 'stop', usage: null, content: 2 },
  {
    file: 'tgi-chat-error-midstream.sse',
    text: 'Deep',
    finish: null,
    usage: null,
    content: 1,
    error: {
      message:
        'Request failed during generation: Server error: CUDA out of memory. Tried to allocate 2.00 GiB',
      code: 422,
    },
  },
  { file: 'llamacpp-chat.sse', text: LLAMA, finish: 'stop', usage: null, content: 6 },
  {
    file: 'llamacpp-chat-include-usage.sse',
    text: LLAMA,
    finish: 'stop',
    usage: u(14, 7, 21, 0),
    content: 6,
  },
  { file: 'llamacpp-chat-timings-per-token.sse', text: LLAMA, finish: 'stop', usage: null, content: 6 },
  {
    file: 'llamacpp-error-midstream.sse',
    text: ' I',
    finish: null,
    usage: null,
    content: 1,
    error: { message: 'Context size has been exceeded.', type: 'server_error', code: 500 },
    terminated: false, // llama.cpp sends no [DONE] after an error (test-corpus/FORMATS.md §6.2)
  },
  { file: 'ollama-v1-chat.sse', text: 'The sky is blue.', finish: 'stop', usage: null, content: 5 },
  {
    file: 'ollama-v1-chat-include-usage.sse',
    text: 'The sky is blue.',
    finish: 'stop',
    usage: u(31, 6, 37),
    content: 5,
  },
  {
    file: 'openai-chat-completions.sse',
    text: 'I am an AI developed by OpenAI to assist users with various requests and tasks.',
    finish: 'stop',
    usage: null,
    content: 17,
  },
];

describe('openai-chat replays the corpus', () => {
  for (const c of CASES) {
    it(c.file, () => {
      const r = replay(c.file, 'openai-chat');
      expect(r.text).toBe(c.text);
      // Independent oracle: every "content":"…" string in the raw bytes, concatenated.
      expect(r.text).toBe(stringsOf(corpusText(c.file), 'content').join(''));
      expect(r.reasoning).toBe('');
      expect(r.finishReason).toBe(c.finish);
      expect(r.usage).toEqual(c.usage);
      expect(r.content).toHaveLength(c.content);
      expect(r.invalid).toEqual([]);
      expect(r.errors.map((e) => e.error)).toEqual(c.error ? [c.error] : []);
      const terminated = c.terminated ?? true;
      expect(r.terminated).toBe(terminated);
      if (terminated) {
        // [DONE] is the last frame and the only terminal one, also after an error (§6.2).
        expect(r.terminalAt).toBe(r.events.length - 1);
        expect(r.events.at(-1)).toEqual({ kind: 'done', text: '', tokens: null, terminal: true });
      }
    });
  }

  it('marks role-only and empty-content chunks as empty, usage-only chunks as usage', () => {
    const kinds = (f: string) => replay(f, 'openai-chat').events.map((e) => e.kind);
    expect(kinds('vllm-chat-include-usage.sse')).toEqual([
      'empty',
      ...Array(9).fill('content'),
      'empty',
      'usage',
      'done',
    ]);
    expect(kinds('llamacpp-chat.sse')).toEqual(['empty', ...Array(6).fill('content'), 'empty', 'done']);
    expect(kinds('sglang-chat.sse')[10]).toBe('empty'); // the all-null finish delta
  });

  it('counts vLLM continuous usage exactly: completion_tokens step per chunk', () => {
    const r = replay('vllm-chat-continuous-usage.sse', 'openai-chat');
    expect(r.events[0]).toMatchObject({ kind: 'empty', tokens: null }); // completion_tokens 0, text ""
    expect(r.content.map((e) => e.tokens)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    // the last token and finish_reason arrive in the same chunk (test-corpus/FORMATS.md §6.6)
    expect(r.content.at(-1)).toMatchObject({ text: ' today', finishReason: 'length', tokens: 1 });
    expect(r.events.at(-2)).toMatchObject({ kind: 'usage', usage: { completionTokens: 8 } });
  });

  it('leaves tokens unknown without continuous usage', () => {
    for (const f of ['vllm-chat-include-usage.sse', 'llamacpp-chat-include-usage.sse', 'tgi-chat.sse']) {
      expect(replay(f, 'openai-chat').content.every((e) => e.tokens === null)).toBe(true);
    }
  });
});

function decode(...chunks: unknown[]): DecodedEvent[] {
  const d = openAiChat.createDecoder();
  return chunks.map((c) =>
    d.decode({ event: 'message', data: typeof c === 'string' ? c : JSON.stringify(c) }),
  );
}
const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

describe('openai-chat decoder shapes', () => {
  it('marks chunks with a non-empty choices array (vLLM’s client counts them), not the usage chunk or [DONE]', () => {
    const [role, content, finish, usage, done] = decode(
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'hi' }),
      delta({}, 'stop'),
      { choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
      '[DONE]',
    );
    expect([role, content, finish].map((e) => [e!.kind, e!.choices])).toEqual([
      ['empty', true],
      ['content', true],
      ['empty', true],
    ]);
    expect(usage!.kind).toBe('usage');
    expect(usage!.choices).toBeUndefined();
    expect(done!.choices).toBeUndefined();
  });

  it('reads reasoning (new vLLM, Ollama) and reasoning_content (old vLLM, SGLang, llama.cpp), never both', () => {
    const [a, b, c, d] = decode(
      delta({ reasoning: 'think' }),
      delta({ reasoning_content: 'more' }),
      delta({ reasoning: 'x', reasoning_content: 'x' }),
      delta({ reasoning_content: null, content: 'hi' }),
    );
    expect(a).toEqual({ kind: 'content', text: '', reasoning: 'think', tokens: null, choices: true });
    expect(b).toMatchObject({ kind: 'content', reasoning: 'more' });
    expect(c).toMatchObject({ kind: 'content', reasoning: 'x' });
    expect(d).toEqual({ kind: 'content', text: 'hi', tokens: null, choices: true });
  });

  it('treats tool-call deltas as generated output, kept out of the text', () => {
    const call = (f: Record<string, unknown>) => delta({ tool_calls: [{ index: 0, function: f }] });
    const evs = decode(
      call({ name: 'get_weather', arguments: '' }),
      call({ arguments: '{"loc' }),
      delta({}, 'tool_calls'),
    );
    expect(evs.map((e) => [e.kind, e.text, e.toolCall])).toEqual([
      ['content', '', 'get_weather'],
      ['content', '', '{"loc'],
      ['empty', '', undefined],
    ]);
    expect(evs[2]!.finishReason).toBe('tool_calls');
  });

  it('concatenates several choices of one chunk (n>1)', () => {
    const [e] = decode({
      choices: [
        { index: 0, delta: { content: 'a' } },
        { index: 1, delta: { content: 'b' }, finish_reason: 'stop' },
      ],
    });
    expect(e).toMatchObject({ kind: 'content', text: 'ab', finishReason: 'stop' });
  });
});

describe('openai-chat buildBody', () => {
  const spec = (over: Partial<RequestSpec> = {}): RequestSpec => ({
    url: 'http://x',
    dialect: 'openai-chat',
    model: 'm',
    prompt: 'hi',
    ...over,
  });

  it('wraps the prompt as one user message, streams and asks for usage by default', () => {
    expect(openAiChat.buildBody(spec())).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('prefers messages over the prompt', () => {
    const messages = [
      { role: 'system' as const, content: 's' },
      { role: 'user' as const, content: 'u' },
    ];
    expect(openAiChat.buildBody(spec({ messages })).messages).toEqual(messages);
  });

  it('does not merge extraBody (the engine does)', () => {
    expect(openAiChat.buildBody(spec({ extraBody: { foo: 1 } }))).not.toHaveProperty('foo');
  });
});
