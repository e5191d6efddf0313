import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../../../shared/request.ts';
import { ollamaChat } from './ollama-chat.ts';
import { ollamaGenerate } from './ollama-generate.ts';
import { corpusText, replay, stringsOf } from '../../testing/dialect-replay.ts';

describe('ollama NDJSON replays the corpus', () => {
  it('ollama-api-generate.ndjson: Go-escaped text, done:true terminal with counts', () => {
    const raw = corpusText('ollama-api-generate.ndjson');
    expect(raw).toContain('\\u003cdiv\\u003e'); // Go escapes <>& (SOURCES.md, Ollama)
    const r = replay('ollama-api-generate.ndjson');
    expect(r.text).toBe('Use the <div> element & CSS.');
    expect(r.text).toBe(stringsOf(raw, 'response').join(''));
    expect(r.content).toHaveLength(7);
    expect(r.content.every((e) => e.tokens === null)).toBe(true);
    expect(r.terminalAt).toBe(7);
    expect(r.events[7]).toMatchObject({ kind: 'empty', finishReason: 'stop' });
    expect(r.usage).toEqual({ promptTokens: 26, completionTokens: 8, totalTokens: 34 });
  });

  it('ollama-api-chat.ndjson: message.content deltas', () => {
    const r = replay('ollama-api-chat.ndjson');
    expect(r.text).toBe('The sky is blue because of Rayleigh scattering.');
    expect(r.text).toBe(stringsOf(corpusText('ollama-api-chat.ndjson'), 'content').join(''));
    expect(r.finishReason).toBe('stop');
    expect(r.usage).toEqual({ promptTokens: 31, completionTokens: 10, totalTokens: 41 });
    expect(r.terminated).toBe(true);
  });

  it('ollama-api-chat-thinking.ndjson: thinking deltas are output, kept apart from the text', () => {
    const r = replay('ollama-api-chat-thinking.ndjson');
    expect(r.reasoning).toBe('Let me think.');
    expect(r.reasoning).toBe(stringsOf(corpusText('ollama-api-chat-thinking.ndjson'), 'thinking').join(''));
    expect(r.text).toBe('Hi!');
    expect(r.content).toHaveLength(6);
    expect(r.usage).toEqual({ promptTokens: 12, completionTokens: 7, totalTokens: 19 });
  });

  it('ollama-api-generate-error-midstream.ndjson: the {"error"} line, no terminal', () => {
    const r = replay('ollama-api-generate-error-midstream.ndjson');
    expect(r.text).toBe(' Yes.Ican');
    expect(r.errors.map((e) => e.error)).toEqual([
      { message: 'an error was encountered while running the model' },
    ]);
    expect(r.terminated).toBe(false);
  });
});

describe('ollama decoder shapes', () => {
  const line = (o: unknown) => ({ event: 'message', data: JSON.stringify(o) });

  it('reports a cut-off last line as invalid, and lines without output fields', () => {
    const d = ollamaGenerate.createDecoder();
    expect(d.decode({ event: 'message', data: '{"model":"x","respo' }).kind).toBe('invalid');
    expect(d.decode(line({ model: 'x' })).kind).toBe('invalid');
    expect(ollamaChat.createDecoder().decode(line({ response: 'x', done: false })).kind).toBe('invalid');
  });

  it('keeps whole tool calls of /api/chat apart from the text', () => {
    const calls = [{ function: { name: 'f', arguments: { a: 1 } } }];
    const e = ollamaChat
      .createDecoder()
      .decode(line({ message: { role: 'assistant', content: '', tool_calls: calls }, done: false }));
    expect(e).toEqual({ kind: 'content', text: '', tokens: null, toolCall: JSON.stringify(calls) });
  });

  it('leaves prompt tokens unknown when prompt_eval_count is omitted (omitempty)', () => {
    const e = ollamaGenerate
      .createDecoder()
      .decode(line({ response: '', done: true, done_reason: 'length', eval_count: 4 }));
    expect(e).toMatchObject({
      terminal: true,
      finishReason: 'length',
      usage: { promptTokens: null, completionTokens: 4, totalTokens: null },
    });
  });
});

describe('ollama buildBody', () => {
  const params = {
    maxTokens: 12,
    temperature: 0.1,
    topP: 0.8,
    seed: 5,
    stop: ['x'],
    ignoreEos: true,
    minTokens: 2,
  };
  const options = { num_predict: 12, temperature: 0.1, top_p: 0.8, seed: 5, stop: ['x'] };

  it('/api/generate: prompt + options (no ignore_eos or min_tokens in Ollama)', () => {
    const spec: RequestSpec = {
      url: 'http://x',
      dialect: 'ollama-generate',
      model: 'm',
      prompt: 'p',
      params,
    };
    expect(ollamaGenerate.buildBody(spec)).toEqual({ model: 'm', prompt: 'p', stream: true, options });
  });

  it('/api/chat: messages (prompt wrapped as one user message) + options', () => {
    const spec: RequestSpec = { url: 'http://x', dialect: 'ollama-chat', model: 'm', prompt: 'p', params };
    expect(ollamaChat.buildBody(spec)).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'p' }],
      stream: true,
      options,
    });
    expect(ollamaChat.buildBody({ ...spec, params: undefined })).not.toHaveProperty('options');
  });
});
