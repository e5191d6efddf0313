import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../../../shared/request.ts';
import { llamacpp } from './llamacpp.ts';
import { corpusText, replay, stringsOf } from '../../testing/dialect-replay.ts';

describe('llamacpp (/completion) replays the corpus', () => {
  it('llamacpp-completion.sse: exact tokens from tokens_predicted, stop:true terminal with usage', () => {
    const r = replay('llamacpp-completion.sse');
    const text = " I'm an artificial intelligence model known as";
    expect(r.text).toBe(text);
    expect(r.text).toBe(stringsOf(corpusText('llamacpp-completion.sse'), 'content').join(''));
    expect(r.content.map((e) => e.tokens)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(r.terminalAt).toBe(8);
    expect(r.events[8]).toMatchObject({ kind: 'empty', terminal: true });
    expect(r.finishReason).toBe('length'); // stop_type "limit"
    expect(r.usage).toEqual({ promptTokens: 7, completionTokens: 8, totalTokens: 15, cachedTokens: 0 });
    expect(r.errors).toEqual([]);
    expect(r.invalid).toEqual([]);
  });

  it('llamacpp-legacy-error-field.sse: the `error:` field is dropped by the SSE parser — no error, no terminal', () => {
    expect(corpusText('llamacpp-legacy-error-field.sse')).toContain('error: {"code":500');
    const r = replay('llamacpp-legacy-error-field.sse');
    expect(r.frames).toHaveLength(1);
    expect(r.events).toEqual([{ kind: 'content', text: ' I', tokens: null }]);
    expect(r.errors).toEqual([]);
    expect(r.terminated).toBe(false); // so the engine reports the stream as truncated
  });
});

describe('llamacpp decoder shapes', () => {
  const ev = (o: unknown) => ({ event: 'message', data: JSON.stringify(o) });

  it('maps stop_type to OpenAI finish reasons', () => {
    const reason = (stop_type: string) =>
      llamacpp
        .createDecoder()
        .decode(
          ev({ content: '', tokens: [], stop: true, stop_type, tokens_predicted: 1, tokens_evaluated: 2 }),
        ).finishReason;
    expect(['eos', 'word', 'limit', 'none', 'odd'].map(reason)).toEqual([
      'stop',
      'stop',
      'length',
      undefined,
      'odd',
    ]);
  });

  it('falls back to the tokens array when tokens_predicted is missing; several tokens per event', () => {
    const d = llamacpp.createDecoder();
    expect(d.decode(ev({ content: 'ab', tokens: [1, 2], stop: false })).tokens).toBe(2);
    const d2 = llamacpp.createDecoder();
    expect([d2.decode(ev({ content: 'a', tokens: [], stop: false, tokens_predicted: 3 })).tokens]).toEqual([
      3,
    ]);
  });

  it('reports the mid-stream error object', () => {
    expect(
      llamacpp
        .createDecoder()
        .decode(
          ev({ error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } }),
        ),
    ).toEqual({
      kind: 'error',
      text: '',
      tokens: null,
      error: { message: 'Context size has been exceeded.', type: 'server_error', code: 500 },
    });
  });

  it('rejects objects that are not llama.cpp results', () => {
    expect(llamacpp.createDecoder().decode(ev({ choices: [] })).kind).toBe('invalid');
  });
});

describe('llamacpp buildBody', () => {
  it('maps to prompt + n_predict, with ignore_eos', () => {
    const spec: RequestSpec = {
      url: 'http://x',
      dialect: 'llamacpp',
      model: 'm',
      messages: [{ role: 'user', content: 'q' }],
      params: {
        maxTokens: 8,
        temperature: 0.2,
        topP: 0.5,
        seed: 1,
        stop: ['</s>'],
        ignoreEos: true,
        minTokens: 4,
      },
    };
    expect(llamacpp.buildBody(spec)).toEqual({
      model: 'm',
      prompt: 'q',
      stream: true,
      n_predict: 8,
      temperature: 0.2,
      top_p: 0.5,
      seed: 1,
      stop: ['</s>'],
      ignore_eos: true,
    });
  });
});
