/**
 * POST /v1/responses, the OpenAI Responses event sequence as vLLM serves it (test-corpus/FORMATS.md §2.1,
 * §2.6; corpus openai-responses*.sse, vllm-responses-excerpt.sse):
 * - `event: <type>\ndata: <json>\n\n`, keys alphabetical (vLLM), no `[DONE]`;
 * - response.created and response.in_progress as soon as the stream opens, then
 *   output_item.added + content_part.added with the first output, output_text.delta per chunk,
 *   and output_text.done, content_part.done, output_item.done, response.completed at the end
 *   (status "incomplete" with incomplete_details when max_output_tokens was hit);
 * - errors: `event: error` then `response.failed`.
 * response.completed is the terminator (kind 'done'); an EOS token with no text is carried by
 * output_text.done.
 * Reasoning mode: a reasoning item first (output_index 0) streamed as `response.reasoning_text.delta`
 * (vllm-responses-excerpt.sse), closed when the answer begins; the message is then output_index 1,
 * and usage's `output_tokens_details.reasoning_tokens` counts the reasoning.
 */
import { sortKeysDeep } from './json-style.ts';
import type { GenToken } from './text.ts';
import type { FinishReason } from './types.ts';
import { truncateJson, WriterBase, type DialectWriter, type Frame } from './writer-types.ts';

type Obj = Record<string, unknown>;

export class ResponsesWriter extends WriterBase implements DialectWriter {
  readonly contentType = 'text/event-stream; charset=utf-8';
  readonly headersEarly = true;
  readonly extraHeaders = {};
  private seq = 0;
  private started = false;
  /** Reasoning mode: the reasoning item was opened / closed. */
  private reasoningOpen = false;

  /** The message's output index: 1 after a reasoning item. */
  private get msgIndex(): number {
    return this.ctx.reasoningTokens > 0 ? 1 : 0;
  }

  private get itemId(): string {
    return `msg_${this.ctx.requestId}`;
  }

  protected event(type: string, fields: Obj, tokens = 0, kind: Frame['kind'] = 'chunk'): Frame {
    const json = JSON.stringify(sortKeysDeep({ ...fields, sequence_number: this.seq++, type }));
    return { data: `event: ${type}\ndata: ${json}\n\n`, tokens, kind };
  }

  protected response(status: string, extra: Obj = {}): Obj {
    return {
      id: `resp_${this.ctx.requestId}`,
      object: 'response',
      created_at: this.ctx.created,
      status,
      background: false,
      error: null,
      incomplete_details: null,
      instructions: null,
      max_output_tokens: this.ctx.maxTokens,
      model: this.ctx.model,
      output: [],
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: null,
      service_tier: 'auto',
      temperature: 1.0,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      top_p: 1.0,
      truncation: 'disabled',
      usage: null,
      user: null,
      metadata: {},
      ...extra,
    };
  }

  private part(): Obj {
    return { annotations: [], text: this.text, type: 'output_text' };
  }

  private item(status: string): Obj {
    return {
      content: status === 'in_progress' ? [] : [this.part()],
      id: this.itemId,
      role: 'assistant',
      status,
      type: 'message',
    };
  }

  override open(): Frame[] {
    return [
      this.event('response.created', { response: this.response('in_progress') }),
      this.event('response.in_progress', { response: this.response('in_progress') }),
    ];
  }

  /** The reasoning item's events for this chunk: opened on the first, closed when the answer begins. */
  private reasoningFrames(delta: string, reasoningTokens: number, answerBegins: boolean): Frame[] {
    const frames: Frame[] = [];
    const id = `rs_${this.ctx.requestId}`;
    const item = (status: string): Obj => ({ content: [], id, status, summary: [], type: 'reasoning' });
    if (reasoningTokens > 0 && !this.reasoningOpen) {
      this.reasoningOpen = true;
      frames.push(this.event('response.output_item.added', { output_index: 0, item: item('in_progress') }));
    }
    if (delta !== '') {
      const f = { content_index: 0, delta, item_id: id, output_index: 0 };
      frames.push({
        ...this.event('response.reasoning_text.delta', f, reasoningTokens),
        reasoning: reasoningTokens,
      });
    }
    if (answerBegins && this.reasoningOpen) {
      const text = this.reasoningText;
      frames.push(
        this.event('response.reasoning_text.done', { content_index: 0, item_id: id, output_index: 0, text }),
      );
      frames.push(this.event('response.output_item.done', { output_index: 0, item: item('completed') }));
    }
    return frames;
  }

  tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    const frames: Frame[] = [];
    const where = { item_id: this.itemId, output_index: this.msgIndex, content_index: 0 };
    const d = this.collectSplit(tokens);
    // The answer begins with its first token, or at the end when the reasoning took every token.
    const answerBegins = !this.started && (d.reasoningTokens < tokens.length || finish !== null);
    frames.push(...this.reasoningFrames(d.reasoning, d.reasoningTokens, answerBegins));
    if (!this.started && answerBegins) {
      this.started = true;
      frames.push(
        this.event('response.output_item.added', {
          output_index: this.msgIndex,
          item: this.item('in_progress'),
        }),
      );
      frames.push(
        this.event('response.content_part.added', {
          ...where,
          part: { annotations: [], text: '', type: 'output_text' },
        }),
      );
    }
    const delta = d.answer;
    let unsent = tokens.length - d.reasoningTokens;
    if (delta !== '') {
      frames.push(this.event('response.output_text.delta', { ...where, delta, logprobs: [] }, unsent));
      unsent = 0;
    }
    if (finish) frames.push(...this.closing(finish, unsent));
    return frames;
  }

  private closing(finish: FinishReason, unsentTokens: number): Frame[] {
    const where = { item_id: this.itemId, output_index: this.msgIndex, content_index: 0 };
    return [
      this.event('response.output_text.done', { ...where, text: this.text, logprobs: [] }, unsentTokens),
      this.event('response.content_part.done', { ...where, part: this.part() }),
      this.event('response.output_item.done', { output_index: this.msgIndex, item: this.item('completed') }),
      this.event('response.completed', { response: this.final(finish) }, 0, 'done'),
    ];
  }

  private final(finish: FinishReason): Obj {
    const p = this.ctx.req.promptTokens;
    const usage = {
      input_tokens: p,
      input_tokens_details: { cached_tokens: this.ctx.cachedTokens() },
      output_tokens: this.count,
      output_tokens_details: { reasoning_tokens: this.reasoningCount },
      total_tokens: p + this.count,
    };
    const incomplete =
      finish === 'length'
        ? { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }
        : {};
    return this.response('completed', { output: [this.item('completed')], usage, ...incomplete });
  }

  error(): Frame[] {
    const message = 'The server had an error while processing your request. Sorry about that!';
    return [
      this.event('error', { code: 'server_error', message, param: null }, 0, 'error'),
      this.event(
        'response.failed',
        { response: this.response('failed', { error: { code: 'server_error', message } }) },
        0,
        'error',
      ),
    ];
  }

  malformed(): Frame {
    const f = this.event('response.output_text.delta', {
      item_id: this.itemId,
      output_index: 0,
      content_index: 0,
      delta: ' interrupted',
      logprobs: [],
    });
    const [head = '', json = ''] = f.data.split('\ndata: ');
    return { data: `${head}\ndata: ${truncateJson(json)}\n\n`, tokens: 0, kind: 'error' };
  }

  complete(finish: FinishReason): string {
    return JSON.stringify(sortKeysDeep(this.final(finish)));
  }
}
