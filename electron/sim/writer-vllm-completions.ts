/**
 * POST /v1/completions framed as vLLM does (test-corpus/FORMATS.md §2.1, corpus vllm-completions*.sse):
 * chunks are dumped with every field (`exclude_unset=False`): choice keys index, text, logprobs,
 * finish_reason, stop_reason, prompt_token_ids, token_ids, and `"usage":null` on every chunk
 * (cumulative usage instead with continuous_usage_stats); no role chunk; the usage chunk has
 * `choices:[]`; `data: [DONE]` last; errors as for chat.
 */
import type { GenToken } from './text.ts';
import type { FinishReason } from './types.ts';
import { DONE_FRAME, VLLM_SSE_CONTENT_TYPE, vllmStreamError } from './writer-vllm-chat.ts';
import { sse, truncateJson, WriterBase, type DialectWriter, type Frame } from './writer-types.ts';

export class VllmCompletionsWriter extends WriterBase implements DialectWriter {
  readonly contentType = VLLM_SSE_CONTENT_TYPE;
  readonly headersEarly = true;
  readonly extraHeaders = {};

  private get id(): string {
    return `cmpl-${this.ctx.requestId}`;
  }

  /** The usage chunk's usage: with the cached part when there is one (see promptTokensDetails). */
  private finalUsage(): Record<string, unknown> {
    const details = this.promptTokensDetails();
    return details ? { ...this.usage(), prompt_tokens_details: details } : this.usage();
  }

  private chunk(choices: unknown[], usage: unknown): string {
    return JSON.stringify({
      id: this.id,
      object: 'text_completion',
      created: this.ctx.created,
      model: this.ctx.model,
      choices,
      usage,
    });
  }

  private choice(text: string, finish: FinishReason | null): unknown {
    return {
      index: 0,
      text,
      logprobs: null,
      finish_reason: finish,
      stop_reason: null,
      prompt_token_ids: null,
      token_ids: null,
    };
  }

  tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    const before = this.text.length;
    this.collect(tokens);
    const continuous = this.ctx.req.includeUsage && this.ctx.req.continuousUsage;
    const frames: Frame[] = [
      {
        data: sse(
          this.chunk([this.choice(this.text.slice(before), finish)], continuous ? this.usage() : null),
        ),
        tokens: tokens.length,
        kind: 'chunk',
      },
    ];
    if (finish) {
      if (this.ctx.req.includeUsage)
        frames.push({ data: sse(this.chunk([], this.finalUsage())), tokens: 0, kind: 'usage' });
      frames.push(DONE_FRAME);
    }
    return frames;
  }

  error(): Frame[] {
    return vllmStreamError();
  }

  malformed(): Frame {
    return {
      data: sse(truncateJson(this.chunk([this.choice(' interrupted', null)], null))),
      tokens: 0,
      kind: 'error',
    };
  }

  complete(finish: FinishReason): string {
    return JSON.stringify({
      id: this.id,
      object: 'text_completion',
      created: this.ctx.created,
      model: this.ctx.model,
      choices: [
        {
          index: 0,
          text: this.text,
          logprobs: null,
          finish_reason: finish,
          stop_reason: null,
          prompt_logprobs: null,
        },
      ],
      usage: { ...this.usage(), prompt_tokens_details: this.promptTokensDetails() },
      kv_transfer_params: null,
    });
  }
}
