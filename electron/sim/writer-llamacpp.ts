/**
 * llama.cpp's native POST /completion (test-corpus/FORMATS.md §2.4, corpus llamacpp-completion.sse):
 * - `data: <json>\n\n`, no `[DONE]`; headers go out with the first result (the server checks the
 *   first result for an error before it starts the stream);
 * - partials `{"index":0,"content","tokens":[ids],"stop":false,"id_slot":-1,"tokens_predicted",
 *   "tokens_evaluated"}`;
 * - the final event `content:"", tokens:[]`, the real slot id, `stop:true`, model,
 *   generation_settings, prompt, has_new_line, truncated, stop_type eos|limit, stopping_word,
 *   tokens_cached, timings (ms, measured by the sim). An EOS token is sent as its own partial with
 *   `content:""` and the EOS id (server_context process_token sends every accepted token,
 *   EOG included, before it checks for EOS), and counts in tokens_predicted;
 * - mid-stream error `data: {"error":{"code":500,"message","type":"server_error"}}`, then close.
 */
import type { GenToken } from './text.ts';
import type { FinishReason } from './types.ts';
import { sse, truncateJson, WriterBase, type DialectWriter, type Frame } from './writer-types.ts';

export class LlamacppWriter extends WriterBase implements DialectWriter {
  readonly contentType = 'text/event-stream';
  readonly headersEarly = false;
  readonly extraHeaders = { server: 'llama.cpp' };

  tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    const before = this.text.length;
    this.collect(tokens);
    const partial = {
      index: 0,
      content: this.text.slice(before),
      tokens: tokens.map((t) => t.id),
      stop: false,
      id_slot: -1,
      tokens_predicted: this.count,
      tokens_evaluated: this.ctx.req.promptTokens,
    };
    const frames: Frame[] = [{ data: sse(JSON.stringify(partial)), tokens: tokens.length, kind: 'chunk' }];
    if (finish) frames.push({ data: sse(JSON.stringify(this.final(finish, ''))), tokens: 0, kind: 'done' });
    return frames;
  }

  private final(finish: FinishReason, content: string): Record<string, unknown> {
    const t = this.ctx.times();
    const now = performance.now();
    const promptMs = Math.max(0, t.firstTokenMs - t.admittedMs);
    const predictedMs = Math.max(0.001, now - t.firstTokenMs);
    const p = this.ctx.req.promptTokens;
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    return {
      index: 0,
      content,
      tokens: [],
      id_slot: this.ctx.slot,
      stop: true,
      model: this.ctx.model,
      tokens_predicted: this.count,
      tokens_evaluated: p,
      generation_settings: {
        seed: this.ctx.seed,
        temperature: 0.800000011920929,
        top_k: 40,
        top_p: 0.949999988079071,
        min_p: 0.05000000074505806,
        max_tokens: this.ctx.maxTokens,
        n_predict: this.ctx.maxTokens,
        n_keep: 0,
        ignore_eos: this.ctx.req.ignoreEos,
        stream: this.ctx.req.stream,
        timings_per_token: false,
      },
      prompt: `<|begin_of_text|>${this.ctx.req.promptText}`,
      has_new_line: this.text.includes('\n'),
      truncated: false,
      stop_type: finish === 'stop' ? 'eos' : 'limit',
      stopping_word: '',
      tokens_cached: p + this.count,
      timings: {
        cache_n: 0,
        prompt_n: p,
        prompt_ms: r3(promptMs),
        prompt_per_token_ms: r3(promptMs / Math.max(1, p)),
        prompt_per_second: promptMs > 0 ? (p * 1000) / promptMs : 0,
        predicted_n: this.count,
        predicted_ms: r3(predictedMs),
        predicted_per_token_ms: predictedMs / Math.max(1, this.count),
        predicted_per_second: (this.count * 1000) / predictedMs,
      },
    };
  }

  error(): Frame[] {
    const error = { code: 500, message: 'Context size has been exceeded.', type: 'server_error' };
    return [{ data: sse(JSON.stringify({ error })), tokens: 0, kind: 'error' }];
  }

  malformed(): Frame {
    const partial = {
      index: 0,
      content: ' interrupted',
      tokens: [2209],
      stop: false,
      id_slot: -1,
      tokens_predicted: this.count + 1,
      tokens_evaluated: this.ctx.req.promptTokens,
    };
    return { data: sse(truncateJson(JSON.stringify(partial))), tokens: 0, kind: 'error' };
  }

  complete(finish: FinishReason): string {
    return JSON.stringify(this.final(finish, this.text));
  }
}
