/**
 * POST /v1/chat/completions framed exactly as vLLM does (test-corpus/FORMATS.md §2.1, corpus
 * test-corpus/sse/vllm-chat*.sse):
 * - `data: <compact json>\n\n`, `text/event-stream; charset=utf-8`, ends with `data: [DONE]`;
 * - key order id, object, created, model, choices[, usage]; choice keys index, delta, logprobs,
 *   finish_reason (+ stop_reason on the last chunk, which also carries the last token — with EOS
 *   its delta is `{"content":""}`);
 * - the role chunk `{"role":"assistant","content":""}` is sent on the engine's first output, right
 *   before the first token's chunk (vLLM's chat_completion_stream_generator `first_iteration`);
 * - no `usage` key unless stream_options.include_usage: then one `choices:[]` usage chunk before
 *   [DONE]; with continuous_usage_stats too, cumulative usage in every chunk (role chunk: 0);
 * - mid-stream error: Python json.dumps `{"error": {...}}` then `data: [DONE]`;
 * - reasoning mode: reasoning tokens in `delta.reasoning` (new vLLM builds; old ones wrote
 *   `reasoning_content`: corpus SOURCES.md), and the usage's `completion_tokens_details.reasoning_tokens`
 *   as OpenAI reports it.
 */
import { pyDumps } from './json-style.ts';
import type { GenToken } from './text.ts';
import type { FinishReason } from './types.ts';
import { sse, truncateJson, WriterBase, type DialectWriter, type Frame } from './writer-types.ts';

export const VLLM_SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';
const VLLM_ENGINE_ERROR = 'EngineCore encountered an issue. See stack trace (above) for the root cause.';
export const DONE_FRAME: Frame = { data: sse('[DONE]'), tokens: 0, kind: 'done' };

/** The `data: {"error": ...}` + `data: [DONE]` pair vLLM writes when the engine fails mid-stream. */
export function vllmStreamError(): Frame[] {
  const body = pyDumps({
    error: { message: VLLM_ENGINE_ERROR, type: 'InternalServerError', param: null, code: 500 },
  });
  return [{ data: sse(body), tokens: 0, kind: 'error' }, DONE_FRAME];
}

export class VllmChatWriter extends WriterBase implements DialectWriter {
  readonly contentType = VLLM_SSE_CONTENT_TYPE;
  readonly headersEarly = true;
  readonly extraHeaders = {};
  private started = false;

  protected get id(): string {
    return `chatcmpl-${this.ctx.requestId}`;
  }

  protected get continuous(): boolean {
    return this.ctx.req.includeUsage && this.ctx.req.continuousUsage;
  }

  protected chunk(choices: unknown[], usage: boolean, final = false): string {
    const c: Record<string, unknown> = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.ctx.created,
      model: this.ctx.model,
      choices,
    };
    if (usage) {
      const u: Record<string, unknown> = this.usage();
      if (this.ctx.reasoningTokens > 0)
        u.completion_tokens_details = { reasoning_tokens: this.reasoningCount };
      // Only the final usage gets it, and streamed chunks are dumped with exclude_unset: the field
      // appears only when it was set.
      const details = final ? this.promptTokensDetails() : null;
      if (details) u.prompt_tokens_details = details;
      c.usage = u;
    }
    return JSON.stringify(c);
  }

  tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    const frames: Frame[] = [];
    if (!this.started) {
      this.started = true;
      const role = {
        index: 0,
        delta: { role: 'assistant', content: '' },
        logprobs: null,
        finish_reason: null,
      };
      frames.push({ data: sse(this.chunk([role], this.continuous)), tokens: 0, kind: 'chunk' });
    }
    const d = this.collectSplit(tokens);
    const delta =
      d.reasoningTokens === 0
        ? { content: d.answer }
        : d.reasoningTokens === tokens.length
          ? { reasoning: d.reasoning }
          : { reasoning: d.reasoning, content: d.answer };
    const choice: Record<string, unknown> = { index: 0, delta, logprobs: null, finish_reason: finish };
    if (finish) choice.stop_reason = null;
    const data = sse(this.chunk([choice], this.continuous));
    frames.push({ data, tokens: tokens.length, kind: 'chunk', reasoning: d.reasoningTokens });
    if (finish) {
      if (this.ctx.req.includeUsage)
        frames.push({ data: sse(this.chunk([], true, true)), tokens: 0, kind: 'usage' });
      frames.push(DONE_FRAME);
    }
    return frames;
  }

  error(): Frame[] {
    return vllmStreamError();
  }

  malformed(): Frame {
    const choice = { index: 0, delta: { content: ' interrupted' }, logprobs: null, finish_reason: null };
    return { data: sse(truncateJson(this.chunk([choice], false))), tokens: 0, kind: 'error' };
  }

  complete(finish: FinishReason): string {
    return JSON.stringify({
      id: this.id,
      object: 'chat.completion',
      created: this.ctx.created,
      model: this.ctx.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: this.text,
            refusal: null,
            annotations: null,
            audio: null,
            function_call: null,
            tool_calls: [],
            reasoning_content: null,
          },
          logprobs: null,
          finish_reason: finish,
          stop_reason: null,
        },
      ],
      service_tier: null,
      system_fingerprint: null,
      usage: { ...this.usage(), prompt_tokens_details: this.promptTokensDetails() },
      prompt_logprobs: null,
      kv_transfer_params: null,
    });
  }
}
