/**
 * Answers that are a tool call (tool-calls.ts), in each dialect that has them, streamed as the real
 * servers do:
 * - vLLM chat (serving_chat.py with a tool parser): the role chunk, then a first tool delta with
 *   `id`, `type: "function"`, `index` and the function `name` (arguments: the first fragment,
 *   possibly empty), then `{"index":0,"function":{"arguments":"…"}}` fragments; finish_reason
 *   `tool_calls`.
 * - Anthropic: `content_block_start` of a `tool_use` block (id, name, `input: {}`), then
 *   `content_block_delta` `input_json_delta` fragments (the first empty, as the corpus's
 *   anthropic-messages-tool-use.sse), `content_block_stop`, stop_reason `tool_use`.
 * - Responses: `response.output_item.added` of a `function_call` item, then
 *   `response.function_call_arguments.delta` fragments, `.done`, the item done, and
 *   `response.completed` whose output is the call.
 * Errors, malformed events and the envelope are the dialect writer's own.
 */
import type { GenToken } from './text.ts';
import type { FinishReason } from './types.ts';
import { ArgumentStream, type SimToolCall } from './tool-calls.ts';
import { AnthropicWriter } from './writer-anthropic.ts';
import { ResponsesWriter } from './writer-responses.ts';
import { sse, type Frame, type WriterContext } from './writer-types.ts';
import { DONE_FRAME, VllmChatWriter } from './writer-vllm-chat.ts';

export class VllmToolWriter extends VllmChatWriter {
  private readonly args: ArgumentStream;
  private named = false;

  constructor(
    ctx: WriterContext,
    private readonly call: SimToolCall,
  ) {
    super(ctx);
    this.args = new ArgumentStream(call);
  }

  override tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    const frames: Frame[] = [];
    if (!this.named) {
      const role = {
        index: 0,
        delta: { role: 'assistant', content: '' },
        logprobs: null,
        finish_reason: null,
      };
      frames.push({ data: sse(this.chunk([role], this.continuous)), tokens: 0, kind: 'chunk' });
    }
    this.collect(tokens);
    const fragment = this.args.next(tokens.length, finish !== null);
    const tc = this.named
      ? { index: 0, function: { arguments: fragment } }
      : {
          id: this.call.id,
          type: 'function',
          index: 0,
          function: { name: this.call.name, arguments: fragment },
        };
    this.named = true;
    const choice: Record<string, unknown> = {
      index: 0,
      delta: { tool_calls: [tc] },
      logprobs: null,
      finish_reason: finish ? 'tool_calls' : null,
    };
    if (finish) choice.stop_reason = null;
    frames.push({ data: sse(this.chunk([choice], this.continuous)), tokens: tokens.length, kind: 'chunk' });
    if (finish) {
      if (this.ctx.req.includeUsage)
        frames.push({ data: sse(this.chunk([], true, true)), tokens: 0, kind: 'usage' });
      frames.push(DONE_FRAME);
    }
    return frames;
  }
}

export class AnthropicToolWriter extends AnthropicWriter {
  private readonly args: ArgumentStream;

  constructor(
    ctx: WriterContext,
    private readonly call: SimToolCall,
  ) {
    super(ctx);
    this.args = new ArgumentStream(call);
  }

  override open(): Frame[] {
    const block = { type: 'tool_use', id: `toolu_${this.call.id.slice(5)}`, name: this.call.name, input: {} };
    return [
      this.typed('message_start', { message: this.message(null, [], 0) }),
      this.typed('content_block_start', { index: 0, content_block: block }),
      this.event('ping', '{"type": "ping"}'),
      this.typed('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '' } }),
    ];
  }

  override tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    this.collect(tokens);
    const partial = this.args.next(tokens.length, finish !== null);
    const frames = [
      this.typed(
        'content_block_delta',
        { index: 0, delta: { type: 'input_json_delta', partial_json: partial } },
        tokens.length,
      ),
    ];
    if (finish)
      frames.push(
        this.typed('content_block_stop', { index: 0 }),
        this.typed(
          'message_delta',
          { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: this.count } },
          0,
          'usage',
        ),
        this.typed('message_stop', {}, 0, 'done'),
      );
    return frames;
  }
}

export class ResponsesToolWriter extends ResponsesWriter {
  private readonly args: ArgumentStream;
  private added = false;

  constructor(
    ctx: WriterContext,
    private readonly call: SimToolCall,
  ) {
    super(ctx);
    this.args = new ArgumentStream(call);
  }

  private get itemIdFc(): string {
    return `fc_${this.ctx.requestId}`;
  }

  private callItem(status: string, args: string): Record<string, unknown> {
    return {
      arguments: args,
      call_id: this.call.id,
      id: this.itemIdFc,
      name: this.call.name,
      status,
      type: 'function_call',
    };
  }

  override tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    const frames: Frame[] = [];
    if (!this.added) {
      this.added = true;
      frames.push(
        this.event('response.output_item.added', { output_index: 0, item: this.callItem('in_progress', '') }),
      );
    }
    this.collect(tokens);
    const delta = this.args.next(tokens.length, finish !== null);
    const where = { item_id: this.itemIdFc, output_index: 0 };
    frames.push(this.event('response.function_call_arguments.delta', { ...where, delta }, tokens.length));
    if (finish) {
      const p = this.ctx.req.promptTokens;
      const usage = {
        input_tokens: p,
        input_tokens_details: { cached_tokens: this.ctx.cachedTokens() },
        output_tokens: this.count,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: p + this.count,
      };
      const item = this.callItem('completed', this.call.arguments);
      frames.push(
        this.event('response.function_call_arguments.done', { ...where, arguments: this.call.arguments }),
        this.event('response.output_item.done', { output_index: 0, item }),
        this.event(
          'response.completed',
          { response: this.response('completed', { output: [item], usage }) },
          0,
          'done',
        ),
      );
    }
    return frames;
  }
}
