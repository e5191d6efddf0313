import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../../../shared/request.ts';
import { openAiResponses } from './openai-responses.ts';
import { corpusText, replay, stringsOf } from '../../testing/dialect-replay.ts';
import type { DecodedEvent } from './types.ts';

const ANSWER = "I'm an artificial intelligence trained to assist with tasks and provide information.";

describe('openai-responses replays the corpus', () => {
  it('openai-responses.sse: text deltas, then response.completed with usage', () => {
    const raw = corpusText('openai-responses.sse');
    const r = replay('openai-responses.sse');
    expect(r.text).toBe(ANSWER);
    // Oracles: the "delta" strings in the bytes, and the server's own output_text.done text.
    expect(r.text).toBe(stringsOf(raw, 'delta').join(''));
    expect(stringsOf(raw, 'text')).toContain(r.text);
    expect(r.content).toHaveLength(14);
    expect(r.events.map((e) => e.kind)).toEqual([
      'meta',
      'meta',
      'meta',
      'meta',
      ...Array(14).fill('content'),
      'meta',
      'meta',
      'meta',
      'meta',
    ]);
    expect(r.terminalAt).toBe(r.events.length - 1);
    expect(r.finishReason).toBe('stop');
    // output_tokens_details.reasoning_tokens: 0 in the corpus, kept as the server said.
    expect(r.usage).toEqual({
      promptTokens: 10,
      completionTokens: 16,
      totalTokens: 26,
      cachedTokens: 0,
      reasoningTokens: 0,
    });
    expect(r.errors).toEqual([]);
  });

  it('openai-responses-error.sse: the error event, then response.failed as a terminal error', () => {
    const r = replay('openai-responses-error.sse');
    const message = 'The server had an error while processing your request. Sorry about that!';
    expect(r.text).toBe('');
    expect(r.events.map((e) => e.kind)).toEqual(['meta', 'meta', 'error', 'error']);
    expect(r.errors.map((e) => e.error)).toEqual([
      { message, code: 'server_error' },
      { message, code: 'server_error' },
    ]);
    expect(r.events[2]!.terminal).toBeUndefined();
    expect(r.events[3]!.terminal).toBe(true);
  });

  it('vllm-responses-excerpt.sse: reasoning deltas (alphabetical keys, "type" last); an excerpt, so no end', () => {
    const r = replay('vllm-responses-excerpt.sse');
    expect(r.reasoning).toBe(' say hello in');
    expect(r.text).toBe('');
    expect(r.content).toHaveLength(3);
    expect(r.terminated).toBe(false);
  });
});

function decode(...events: Record<string, unknown>[]): DecodedEvent[] {
  const d = openAiResponses.createDecoder();
  return events.map((e) =>
    d.decode({ event: typeof e.type === 'string' ? e.type : 'message', data: JSON.stringify(e) }),
  );
}

describe('openai-responses decoder shapes', () => {
  it('maps reasoning and function-call argument deltas to output', () => {
    const evs = decode(
      { type: 'response.reasoning_summary_text.delta', delta: 'why' },
      { type: 'response.function_call_arguments.delta', delta: '{"a"' },
      { type: 'response.output_text.delta', delta: '' },
    );
    expect(evs).toEqual([
      { kind: 'content', text: '', reasoning: 'why', tokens: null },
      // No output_index: the first output item's call.
      { kind: 'content', text: '', toolCall: '{"a"', tokens: null, toolDeltas: [{ index: 0, args: '{"a"' }] },
      { kind: 'empty', text: '', tokens: null },
    ]);
  });

  it('ends on response.incomplete with the reason from incomplete_details', () => {
    const [e] = decode({
      type: 'response.incomplete',
      response: {
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        usage: { input_tokens: 3, output_tokens: 8, total_tokens: 11 },
      },
    });
    expect(e).toMatchObject({
      kind: 'meta',
      terminal: true,
      finishReason: 'max_output_tokens',
      usage: { promptTokens: 3, completionTokens: 8 },
    });
  });

  it('says tool_calls when a completed response ends in a function call', () => {
    const [e] = decode({
      type: 'response.completed',
      response: { output: [{ type: 'function_call', name: 'f' }], usage: null },
    });
    expect(e).toMatchObject({ terminal: true, finishReason: 'tool_calls' });
    expect(e!.usage).toBeUndefined();
  });

  it('accepts the nested error shape too', () => {
    const [e] = decode({
      type: 'error',
      sequence_number: 2,
      error: { code: 'rate_limit', message: 'slow down', param: null },
    });
    expect(e).toEqual({
      kind: 'error',
      text: '',
      tokens: null,
      error: { message: 'slow down', code: 'rate_limit' },
    });
  });

  it('falls back to the SSE event name when data has no type, and rejects frames with neither', () => {
    const d = openAiResponses.createDecoder();
    expect(d.decode({ event: 'response.output_text.delta', data: '{"delta":"x"}' })).toMatchObject({
      kind: 'content',
      text: 'x',
    });
    expect(d.decode({ event: 'message', data: '{"delta":"x"}' }).kind).toBe('invalid');
    expect(d.decode({ event: 'message', data: '[DONE]' }).kind).toBe('invalid');
  });
});

describe('openai-responses buildBody', () => {
  const spec = (over: Partial<RequestSpec> = {}): RequestSpec => ({
    url: 'http://x',
    dialect: 'openai-responses',
    model: 'm',
    prompt: 'hi',
    ...over,
  });

  it('sends input and max_output_tokens, streaming', () => {
    expect(
      openAiResponses.buildBody(
        spec({ params: { maxTokens: 9, temperature: 0.5, topP: 0.9, seed: 1, stop: ['x'] } }),
      ),
    ).toEqual({
      model: 'm',
      input: 'hi',
      stream: true,
      max_output_tokens: 9,
      temperature: 0.5,
      top_p: 0.9,
    });
  });

  it('sends messages as input items', () => {
    const messages = [{ role: 'user' as const, content: 'q' }];
    expect(openAiResponses.buildBody(spec({ messages })).input).toEqual(messages);
  });
});
