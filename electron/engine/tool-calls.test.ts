/**
 * Tool calls through the engine's own path (stream-decoder.ts → record): the recorded Anthropic
 * tool-use stream (test-corpus), and vLLM-chat and Responses streams written as those servers write
 * them (vLLM's serving_chat: a first delta with id, type and name and empty arguments, then
 * `{"index":i,"function":{"arguments":…}}` fragments; Responses: output_item.added function_call,
 * then function_call_arguments.delta). Arguments are concatenated per call; EV_TOOL marks the events.
 */
import { describe, expect, it } from 'vitest';
import type { DialectId } from '../../shared/dialects.ts';
import { newRecord, type RequestRecord } from '../../shared/record.ts';
import { EV_TOOL } from '../../shared/request.ts';
import { TOOL_CALL_LIMITS } from '../../shared/tool-calls.ts';
import { readCorpus } from '../testing/framing-corpus.ts';
import { StreamDecoder } from './stream-decoder.ts';
import { getDialect } from './dialects/index.ts';

function run(dialect: DialectId, bytes: Uint8Array, step = 1): RequestRecord {
  const rec = newRecord({
    id: 't',
    url: 'http://x',
    dialect,
    model: 'm',
    startedAtWall: 0,
    phases: { connectedMs: 0, requestWrittenMs: 0, headersMs: 0, firstByteMs: 0, endMs: null },
    status: 200,
  });
  const sd = new StreamDecoder(getDialect(dialect), rec);
  // One byte per read by default: every event gets its own time.
  for (let i = 0; i < bytes.length; i += step) sd.pushRead(bytes.subarray(i, i + step), i, i);
  sd.end(bytes.length, bytes.length);
  rec.error ??= sd.endError(bytes.length);
  sd.finalize();
  return rec;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const flagsOf = (rec: RequestRecord): number[] => Array.from(rec.events.flags.subarray(0, rec.events.n));

function vllmChunk(delta: object, finish: string | null = null): string {
  const c = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
  return `data: ${JSON.stringify({ ...c, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
}

describe('tool calls from the wire', () => {
  it('Anthropic (recorded bytes): the tool_use block gives id and name, input_json_delta the arguments', () => {
    const rec = run('anthropic-messages', readCorpus('anthropic-messages-tool-use.sse'));
    expect(rec.toolCalls).toEqual([
      {
        index: 1,
        id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn',
        name: 'get_weather',
        arguments: '{"location": "Paris"}',
      },
    ]);
    expect(rec.finishReason).toBe('tool_use');
    expect(rec.text).toBe("I'll check the current weather in Paris for you.");
    // 2 text deltas then 4 non-empty argument fragments: only those carry EV_TOOL.
    const tool = flagsOf(rec).filter((f) => f & EV_TOOL);
    expect(tool).toHaveLength(4);
  });

  it('vLLM chat: two calls by index, fragments concatenated, finish tool_calls', () => {
    const s =
      vllmChunk({ role: 'assistant', content: '' }) +
      vllmChunk({
        tool_calls: [
          { id: 'call_a', type: 'function', index: 0, function: { name: 'get_weather', arguments: '' } },
        ],
      }) +
      vllmChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city": ' } }] }) +
      vllmChunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }) +
      vllmChunk({
        tool_calls: [
          { id: 'call_b', type: 'function', index: 1, function: { name: 'get_time', arguments: '{' } },
        ],
      }) +
      vllmChunk({ tool_calls: [{ index: 1, function: { arguments: '}' } }] }, 'tool_calls') +
      'data: [DONE]\n\n';
    const rec = run('openai-chat', enc(s));
    expect(rec.error).toBeNull();
    expect(rec.toolCalls).toEqual([
      { index: 0, id: 'call_a', name: 'get_weather', arguments: '{"city": "Oslo"}' },
      { index: 1, id: 'call_b', name: 'get_time', arguments: '{}' },
    ]);
    expect(rec.finishReason).toBe('tool_calls');
    expect(rec.text).toBe('');
    // The role chunk has no tool delta; the five tool chunks do.
    expect(flagsOf(rec).filter((f) => f & EV_TOOL)).toHaveLength(5);
  });

  it('Responses: output_item.added names the call, function_call_arguments.delta streams it', () => {
    const ev = (type: string, o: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...o })}\n\n`;
    const s =
      ev('response.created', { response: { id: 'r', status: 'in_progress', output: [] } }) +
      ev('response.output_item.added', {
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'search', arguments: '' },
      }) +
      ev('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: '{"q":' }) +
      ev('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: '"x"}' }) +
      ev('response.completed', {
        response: { id: 'r', status: 'completed', output: [{ type: 'function_call', name: 'search' }] },
      });
    const rec = run('openai-responses', enc(s));
    expect(rec.toolCalls).toEqual([{ index: 0, id: 'call_1', name: 'search', arguments: '{"q":"x"}' }]);
    expect(rec.finishReason).toBe('tool_calls');
    expect(flagsOf(rec).filter((f) => f & EV_TOOL)).toHaveLength(2);
  });

  it('bounded: calls past the cap are dropped, arguments past theirs cut and flagged', () => {
    let s = '';
    for (let i = 0; i < TOOL_CALL_LIMITS.calls + 5; i++)
      s += vllmChunk({ tool_calls: [{ id: `c${i}`, index: i, function: { name: 'f', arguments: '{}' } }] });
    const big = 'x'.repeat(TOOL_CALL_LIMITS.argumentChars / 4);
    for (let k = 0; k < 5; k++) s += vllmChunk({ tool_calls: [{ index: 0, function: { arguments: big } }] });
    s += 'data: [DONE]\n\n';
    const rec = run('openai-chat', enc(s), 65536);
    expect(rec.toolCalls).toHaveLength(TOOL_CALL_LIMITS.calls);
    expect(rec.toolCalls![0]!.capped).toBe(true);
    expect(rec.toolCalls![0]!.arguments.length).toBe(TOOL_CALL_LIMITS.argumentChars);
    expect(rec.toolCalls![1]!.capped).toBeUndefined();
  });
});
