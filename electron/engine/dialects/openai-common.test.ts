import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../../../shared/request.ts';
import { openAiChat } from './openai-chat.ts';
import { openAiParams, openAiUsage } from './openai-common.ts';
import type { DecodedEvent } from './types.ts';

// The chunk envelope shared by OpenAI chat and completions, exercised through the chat decoder.
function decode(...chunks: unknown[]): DecodedEvent[] {
  const d = openAiChat.createDecoder();
  return chunks.map((c) =>
    d.decode({ event: 'message', data: typeof c === 'string' ? c : JSON.stringify(c) }),
  );
}

describe('OpenAI chunk envelope', () => {
  it('reads usage in any key order; null, absent and all-zero usage are no usage (test-corpus/FORMATS.md §6.5)', () => {
    expect(openAiUsage({ prompt_tokens: 4, total_tokens: 9, completion_tokens: 5 })).toEqual({
      promptTokens: 4,
      completionTokens: 5,
      totalTokens: 9,
    });
    expect(openAiUsage({ completion_tokens: 5, prompt_tokens: 4 })).toMatchObject({ totalTokens: 9 });
    for (const none of [null, undefined, {}, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }]) {
      expect(openAiUsage(none)).toBeNull();
    }
    const evs = decode(
      { choices: [], usage: null },
      { choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } },
    );
    expect(evs.map((e) => e.kind)).toEqual(['empty', 'usage']);
    expect(evs[1]!.terminal).toBeUndefined();
  });

  it('decodes every in-band error shape', () => {
    const evs = decode(
      { error: { message: 'm1', type: 'BadRequestError', param: null, code: 400 } },
      { error: { object: 'error', message: 'm2', type: 'NotFoundError', code: 404 } },
      { object: 'error', message: 'm3', type: 'NotFoundError', param: null, code: 404 },
      { error: { message: 'm4', http_status_code: 422 } },
      { error: 'm5', error_type: 'overloaded' },
      { error: { code: 500, message: 'm6', type: 'server_error' } },
    );
    expect(evs.map((e) => [e.kind, e.error])).toEqual([
      ['error', { message: 'm1', type: 'BadRequestError', code: 400 }],
      ['error', { message: 'm2', type: 'NotFoundError', code: 404 }],
      ['error', { message: 'm3', type: 'NotFoundError', code: 404 }],
      ['error', { message: 'm4', code: 422 }],
      ['error', { message: 'm5', type: 'overloaded' }],
      ['error', { message: 'm6', type: 'server_error', code: 500 }],
    ]);
  });

  it('reports bad frames as invalid instead of throwing', () => {
    const evs = decode('{"choices":[', '[1,2]', '{}', { choices: [42] }, '', 'DONE');
    expect(evs.map((e) => e.kind)).toEqual([
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
    ]);
    expect(evs[2]!.invalidReason).toMatch(/choices/);
  });

  it('recognises [DONE] with or without surrounding space', () => {
    expect(decode('[DONE]', ' [DONE]').map((e) => [e.kind, e.terminal])).toEqual([
      ['done', true],
      ['done', true],
    ]);
  });
});

describe('openAiParams (chat and completions)', () => {
  const spec = (over: Partial<RequestSpec> = {}): RequestSpec => ({
    url: 'http://x',
    dialect: 'openai-chat',
    model: 'm',
    ...over,
  });

  it('injects include_usage by default', () => {
    expect(openAiParams(spec())).toEqual({ stream_options: { include_usage: true } });
  });

  it('switches include_usage off and continuous_usage_stats on', () => {
    expect(openAiParams(spec({ includeUsage: false }))).not.toHaveProperty('stream_options');
    expect(openAiParams(spec({ continuousUsage: true })).stream_options).toEqual({
      include_usage: true,
      continuous_usage_stats: true,
    });
  });

  it('maps sampling params; vLLM extras only when they change something', () => {
    const params = {
      maxTokens: 12,
      temperature: 0,
      topP: 0.9,
      seed: 7,
      stop: ['\n'],
      ignoreEos: true,
      minTokens: 3,
    };
    expect(openAiParams(spec({ params }))).toMatchObject({
      max_tokens: 12,
      temperature: 0,
      top_p: 0.9,
      seed: 7,
      stop: ['\n'],
      ignore_eos: true,
      min_tokens: 3,
    });
    const plain = openAiParams(spec({ params: { ignoreEos: false, minTokens: 0, stop: [] } }));
    expect(plain).not.toHaveProperty('ignore_eos');
    expect(plain).not.toHaveProperty('min_tokens');
    expect(plain).not.toHaveProperty('stop');
  });
});
