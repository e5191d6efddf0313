// The simulator's POST /v1/messages: Anthropic's Messages event sequence (test-corpus/FORMATS.md §2.7; corpus
// anthropic-messages*.sse, anthropic-error-midstream.sse), so the app and tests can run against it.
import { pyDumps } from './json-style.ts';
import type { GenToken } from './text.ts';
import type { FinishReason } from './types.ts';
import { truncateJson, WriterBase, type DialectWriter, type Frame } from './writer-types.ts';

type Obj = Record<string, unknown>;

/** Anthropic's stop_reason for the sim's finish: `max_tokens` when the limit cut it, else `end_turn`. */
function anthropicStopReason(finish: FinishReason): 'max_tokens' | 'end_turn' {
  return finish === 'length' ? 'max_tokens' : 'end_turn';
}

/**
 * The Messages stream as Anthropic and vLLM serve it:
 * - `event: <type>\ndata: <compact json>\n\n`, event == data.type, no `[DONE]`;
 * - message_start (usage.input_tokens), the text block's content_block_start and a `ping` as soon
 *   as the stream opens, in the corpus's order; then content_block_delta (text_delta) per chunk;
 *   at the end content_block_stop, message_delta (stop_reason `max_tokens` when max_tokens cut it,
 *   else `end_turn`; usage.output_tokens, cumulative) and message_stop, the terminator;
 * - errors: `event: error` with the overloaded error, spaced as the Anthropic docs show it, and
 *   nothing after it.
 * An EOS token with no text is carried by content_block_stop.
 * Reasoning mode: block 0 is a thinking block (`thinking_delta`s, then the empty `signature_delta`
 * vLLM sends, test-corpus/FORMATS.md §2.5, and its content_block_stop when the answer begins); the text is block
 * 1. Anthropic's usage has no separate thinking count: output_tokens includes it.
 */
export class AnthropicWriter extends WriterBase implements DialectWriter {
  readonly contentType = 'text/event-stream; charset=utf-8';
  readonly headersEarly = true;
  readonly extraHeaders = {};
  /** Tokens generated but not yet delivered by a frame (an EOS with no text). */
  private unsent = 0;
  /** Reasoning mode, the thinking block is over and the text block open. */
  private textOpen = false;

  private get thinking(): boolean {
    return this.ctx.reasoningTokens > 0;
  }

  /** The text block's index: 1 after a thinking block. */
  private get textIndex(): number {
    return this.thinking ? 1 : 0;
  }

  protected event(type: string, json: string, tokens = 0, kind: Frame['kind'] = 'chunk'): Frame {
    return { data: `event: ${type}\ndata: ${json}\n\n`, tokens, kind };
  }

  protected typed(type: string, fields: Obj, tokens = 0, kind: Frame['kind'] = 'chunk'): Frame {
    return this.event(type, JSON.stringify({ type, ...fields }), tokens, kind);
  }

  /** The Message object, key order as in the corpus's message_start. */
  protected message(stopReason: string | null, content: Obj[], outputTokens: number): Obj {
    return {
      id: `msg_${this.ctx.requestId}`,
      type: 'message',
      role: 'assistant',
      content,
      model: this.ctx.model,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: this.ctx.req.promptTokens, output_tokens: outputTokens },
    };
  }

  private textDelta(text: string): Obj {
    return { index: this.textIndex, delta: { type: 'text_delta', text } };
  }

  /** Reasoning mode: close the thinking block and open the text block. */
  private openText(): Frame[] {
    this.textOpen = true;
    return [
      this.typed('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: '' } }),
      this.typed('content_block_stop', { index: 0 }),
      this.typed('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
    ];
  }

  override open(): Frame[] {
    return [
      // Nothing generated yet: output_tokens 0 (Anthropic's own placeholder is 1).
      this.typed('message_start', { message: this.message(null, [], 0) }),
      this.typed('content_block_start', {
        index: 0,
        content_block: this.thinking
          ? { type: 'thinking', thinking: '', signature: '' }
          : { type: 'text', text: '' },
      }),
      this.event('ping', '{"type": "ping"}'),
    ];
  }

  tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    const frames: Frame[] = [];
    const d = this.collectSplit(tokens);
    if (d.reasoning !== '') {
      const thinking = { index: 0, delta: { type: 'thinking_delta', thinking: d.reasoning } };
      frames.push({
        ...this.typed('content_block_delta', thinking, d.reasoningTokens),
        reasoning: d.reasoningTokens,
      });
    } else this.unsent += d.reasoningTokens;
    this.unsent += tokens.length - d.reasoningTokens;
    const delta = d.answer;
    if (this.thinking && !this.textOpen && (d.reasoningTokens < tokens.length || finish))
      frames.push(...this.openText());
    if (delta !== '') {
      frames.push(this.typed('content_block_delta', this.textDelta(delta), this.unsent));
      this.unsent = 0;
    }
    if (finish) frames.push(...this.closing(finish));
    return frames;
  }

  private closing(finish: FinishReason): Frame[] {
    const unsent = this.unsent;
    this.unsent = 0;
    return [
      this.typed('content_block_stop', { index: this.textIndex }, unsent),
      this.typed(
        'message_delta',
        {
          delta: { stop_reason: anthropicStopReason(finish), stop_sequence: null },
          usage: { output_tokens: this.count },
        },
        0,
        'usage',
      ),
      this.typed('message_stop', {}, 0, 'done'),
    ];
  }

  error(): Frame[] {
    const body = pyDumps({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    return [this.event('error', body, 0, 'error')];
  }

  malformed(): Frame {
    const json = JSON.stringify({ type: 'content_block_delta', ...this.textDelta(' interrupted') });
    return this.event('content_block_delta', truncateJson(json), 0, 'error');
  }

  complete(finish: FinishReason): string {
    return JSON.stringify(
      this.message(anthropicStopReason(finish), [{ type: 'text', text: this.text }], this.count),
    );
  }
}
