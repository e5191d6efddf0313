// The anthropic-messages decoder on the real corpus bytes (at every byte split), the HTTP error
// bodies, the event shapes the corpus lacks, and the request body.
import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../../../shared/request.ts';
import { readCorpus } from '../../testing/framing-corpus.ts';
import { buildRequestBody } from '../body.ts';
import { errorMessageFromBody, httpStatusError } from '../classify.ts';
import { anthropicMessages, DEFAULT_MAX_TOKENS } from './anthropic-messages.ts';
import { corpusText, framesOf, replay, replayFrames, stringsOf } from '../../testing/dialect-replay.ts';
import type { DecodedEvent } from './types.ts';

const FILES = ['anthropic-messages.sse', 'anthropic-messages-tool-use.sse', 'anthropic-error-midstream.sse'];

describe('anthropic-messages replays the corpus', () => {
  it('anthropic-messages.sse: text deltas, stop_reason end_turn, usage from message_start + message_delta', () => {
    const raw = corpusText('anthropic-messages.sse');
    const r = replay('anthropic-messages.sse');
    expect(r.text).toBe('Hello there!');
    // Oracle: the "text" strings in the bytes (content_block_start's "" included).
    expect(r.text).toBe(stringsOf(raw, 'text').join(''));
    expect(r.events.map((e) => e.kind)).toEqual([
      'meta', // message_start
      'meta', // content_block_start
      'meta', // ping
      'content',
      'content',
      'content',
      'meta', // content_block_stop
      'usage', // message_delta
      'done', // message_stop
    ]);
    expect(r.events[0]!.usage).toEqual({ promptTokens: 11, completionTokens: null, totalTokens: null });
    expect(r.terminalAt).toBe(r.events.length - 1);
    expect(r.finishReason).toBe('end_turn');
    expect(r.usage).toEqual({ promptTokens: 11, completionTokens: 6, totalTokens: 17 });
    expect(r.content.every((e) => e.tokens === null)).toBe(true);
    expect(r.errors).toEqual([]);
    expect(r.invalid).toEqual([]);
  });

  it('anthropic-messages-tool-use.sse: input_json_delta is a tool call, stop_reason tool_use', () => {
    const raw = corpusText('anthropic-messages-tool-use.sse');
    const r = replay('anthropic-messages-tool-use.sse');
    expect(r.text).toBe("I'll check the current weather in Paris for you.");
    expect(r.toolCall).toBe(stringsOf(raw, 'partial_json').join(''));
    expect(JSON.parse(r.toolCall)).toEqual({ location: 'Paris' });
    expect(r.reasoning).toBe('');
    // 2 text deltas + 4 non-empty input_json deltas; the first partial_json "" generates nothing.
    expect(r.content).toHaveLength(6);
    expect(r.events.filter((e) => e.kind === 'empty')).toHaveLength(1);
    expect(r.finishReason).toBe('tool_use');
    // cache_creation_input_tokens and cache_read_input_tokens are 0 here.
    expect(r.usage).toEqual({ promptTokens: 377, completionTokens: 65, totalTokens: 442, cachedTokens: 0 });
    expect(r.terminalAt).toBe(r.events.length - 1);
  });

  it('anthropic-error-midstream.sse: the error event is a server error, the text before it kept', () => {
    const r = replay('anthropic-error-midstream.sse');
    expect(r.text).toBe('Hello');
    expect(r.errors.map((e) => e.error)).toEqual([{ message: 'Overloaded', type: 'overloaded_error' }]);
    expect(r.events.at(-1)!.kind).toBe('error');
    expect(r.terminated).toBe(false);
    // message_start's output_tokens (1) is a placeholder, not reported as the output count.
    expect(r.usage).toEqual({ promptTokens: 11, completionTokens: null, totalTokens: null });
  });
});

describe('anthropic-messages decodes the same at every byte split', () => {
  for (const file of FILES) {
    it(file, () => {
      const bytes = readCorpus(file);
      const expected = JSON.stringify(replay(file).events);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const reads = [bytes.subarray(0, cut), bytes.subarray(cut)];
        const got = replayFrames('anthropic-messages', framesOf('anthropic-messages', reads));
        if (JSON.stringify(got.events) !== expected) expect.fail(`${file}: differs when cut at byte ${cut}`);
      }
      const oneByte = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
      const got = replayFrames('anthropic-messages', framesOf('anthropic-messages', oneByte));
      expect(JSON.stringify(got.events)).toBe(expected);
    });
  }
});

describe('anthropic HTTP error bodies', () => {
  it('the server message is pulled out of {"type":"error","error":{"type","message"}}', () => {
    const notFound = corpusText('anthropic-http-404-model.json');
    const overloaded = corpusText('anthropic-http-529-overloaded.json');
    expect(errorMessageFromBody(notFound)).toBe('model: claude-3-opus-99999999');
    expect(httpStatusError(404, notFound, 1)).toMatchObject({
      kind: 'http',
      code: 'status',
      status: 404,
      body: notFound,
      message: 'HTTP 404: model: claude-3-opus-99999999',
    });
    expect(httpStatusError(529, overloaded, 1).message).toBe('HTTP 529: Overloaded');
  });
});

function decode(...events: Record<string, unknown>[]): DecodedEvent[] {
  const d = anthropicMessages.createDecoder();
  return events.map((e) =>
    d.decode({ event: typeof e.type === 'string' ? e.type : 'message', data: JSON.stringify(e) }),
  );
}

const delta = (d: Record<string, unknown>) => ({ type: 'content_block_delta', index: 0, delta: d });

describe('anthropic-messages decoder shapes', () => {
  it('thinking is reasoning; a signature, a citation or an unknown delta generates nothing', () => {
    expect(
      decode(
        delta({ type: 'thinking_delta', thinking: 'Let me see' }),
        delta({ type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' }),
        delta({ type: 'citations_delta', citation: {} }),
        delta({ type: 'text_delta', text: '' }),
      ),
    ).toEqual([
      { kind: 'content', text: '', reasoning: 'Let me see', tokens: null },
      { kind: 'meta', text: '', tokens: null },
      { kind: 'meta', text: '', tokens: null },
      { kind: 'empty', text: '', tokens: null },
    ]);
  });

  it('keeps max_tokens as the finish reason; output_tokens is the cumulative total, not summed', () => {
    const [start, d1, d2, stop] = decode(
      { type: 'message_start', message: { usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: 'message_delta', delta: { stop_reason: null }, usage: { output_tokens: 3 } },
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 8 } },
      { type: 'message_stop' },
    );
    expect(start!.usage).toEqual({ promptTokens: 5, completionTokens: null, totalTokens: null });
    expect(d1!.finishReason).toBeUndefined();
    expect(d2).toMatchObject({ kind: 'usage', finishReason: 'max_tokens' });
    expect(d2!.usage).toEqual({ promptTokens: 5, completionTokens: 8, totalTokens: 13 });
    expect(stop).toEqual({ kind: 'done', text: '', tokens: null, terminal: true });
  });

  it('counts cached input in the prompt, and takes input counts repeated in message_delta', () => {
    const [start, end] = decode(
      {
        type: 'message_start',
        message: {
          usage: {
            input_tokens: 10,
            cache_creation_input_tokens: 20,
            cache_read_input_tokens: 100,
            output_tokens: 1,
          },
        },
      },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn' },
        usage: { input_tokens: 12, cache_read_input_tokens: 100, output_tokens: 4 },
      },
    );
    expect(start!.usage).toEqual({
      promptTokens: 130,
      completionTokens: null,
      totalTokens: null,
      cachedTokens: 100,
    });
    expect(end!.usage).toEqual({
      promptTokens: 112,
      completionTokens: 4,
      totalTokens: 116,
      cachedTokens: 100,
    });
  });

  it('unknown event types are meta, an error without details is still an error, no type is invalid', () => {
    const d = anthropicMessages.createDecoder();
    expect(d.decode({ event: 'future_event', data: '{"type":"future_event"}' }).kind).toBe('meta');
    expect(d.decode({ event: 'error', data: '{"type":"error"}' })).toMatchObject({
      kind: 'error',
      error: { message: 'The server reported an error.' },
    });
    // The SSE event name stands in when data has no type (event: always equals data.type, §2.7).
    expect(
      d.decode({ event: 'content_block_delta', data: '{"delta":{"type":"text_delta","text":"x"}}' }),
    ).toMatchObject({ kind: 'content', text: 'x' });
    expect(d.decode({ event: 'message', data: '{"delta":{}}' }).kind).toBe('invalid');
    expect(d.decode({ event: 'message_stop', data: '{"type":"message_stop"' }).kind).toBe('invalid');
  });
});

describe('anthropic-messages buildBody', () => {
  const spec = (over: Partial<RequestSpec> = {}): RequestSpec => ({
    url: 'http://x',
    dialect: 'anthropic-messages',
    model: 'm',
    prompt: 'hi',
    ...over,
  });

  it('always sends max_tokens (the API requires it): the default when the user gave none', () => {
    expect(anthropicMessages.buildBody(spec())).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: DEFAULT_MAX_TOKENS,
      stream: true,
    });
  });

  it('maps params to Anthropic names; no seed (the API has none)', () => {
    expect(
      anthropicMessages.buildBody(
        spec({ params: { maxTokens: 9, temperature: 0.5, topP: 0.9, seed: 1, stop: ['x'] } }),
      ),
    ).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 9,
      stream: true,
      temperature: 0.5,
      top_p: 0.9,
      stop_sequences: ['x'],
    });
  });

  it('puts system messages top-level as `system`, and a tool message as a user turn', () => {
    const body = anthropicMessages.buildBody(
      spec({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
          { role: 'tool', content: '42' },
          { role: 'system', content: 'No lists.' },
        ],
      }),
    );
    expect(body.system).toBe('Be brief.\n\nNo lists.');
    expect(body.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: '42' },
    ]);
  });

  it('merges the extra body last, so it can override anything (max_tokens, system, …)', () => {
    const body = buildRequestBody(
      anthropicMessages,
      spec({
        extraBody: { max_tokens: 1, system: [{ type: 'text', text: 's' }], thinking: { type: 'enabled' } },
      }),
    );
    expect(body).toMatchObject({
      max_tokens: 1,
      system: [{ type: 'text', text: 's' }],
      thinking: { type: 'enabled' },
      stream: true,
    });
  });
});
