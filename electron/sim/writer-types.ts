/**
 * What every dialect writer provides. A writer turns the scheduler's token chunks into the exact
 * bytes its server would send (test-corpus/FORMATS.md §2), one Frame per socket write, each tagged with the
 * generated tokens it carries so the ground truth can say what the client should have seen.
 * Writers are per request and stateful (cumulative text, counts, sequence numbers).
 */
import type { GenRequest } from './request.ts';
import type { GenToken } from './text.ts';
import type { FinishReason, GroundTruthKind } from './types.ts';
import type { SimToolCall } from './tool-calls.ts';

export interface Frame {
  data: string;
  /** Generated tokens delivered by this write (the EOS token counts where usage counts it). */
  tokens: number;
  kind: GroundTruthKind;
  /** Of `tokens`, those of the reasoning phase (reasoning mode); absent: none. */
  reasoning?: number;
}

/** Server-side timestamps of the request (performance.now() ms); 0 until reached. */
interface SeqTimes {
  arrivalMs: number;
  admittedMs: number;
  firstTokenMs: number;
}

export interface WriterContext {
  /** Base request id (the `x-request-id` header); chunk ids derive from it as vLLM does. */
  requestId: string;
  /** Model name echoed in chunks. */
  model: string;
  /** Unix seconds, fixed for the whole stream (vLLM's `created`). */
  created: number;
  req: GenRequest;
  maxTokens: number;
  /** The seed the request ran with (reported by TGI details, llama.cpp generation_settings). */
  seed: number;
  /** llama.cpp slot id of the request. */
  slot: number;
  /**
   * Reasoning mode: the sequence's first this many tokens are reasoning, streamed in the dialect's
   * own reasoning field by the dialects that have one (0: none; the others stream them as text).
   */
  reasoningTokens: number;
  times(): SeqTimes;
  /** Prompt tokens the prefix cache held when the sequence was admitted (0 until then, or none). */
  cachedTokens(): number;
  /** Whether the final usage carries the cached part (`prompt_tokens_details`). */
  promptTokensDetails: boolean;
  /** The answer is this tool call (tool-calls.ts), in the dialects that have them. */
  toolCall?: SimToolCall | null;
}

export interface DialectWriter {
  readonly contentType: string;
  /**
   * true: headers go out as soon as the request is accepted (vLLM's Starlette StreamingResponse,
   * TGI's axum Sse); false: with the first write (llama.cpp waits for its first result, Go's
   * net/http writes headers on the first flush).
   */
  readonly headersEarly: boolean;
  readonly extraHeaders: Readonly<Record<string, string>>;
  /** Generated tokens seen so far (the EOS token included). */
  readonly count: number;
  /** Frames written as soon as the stream opens, before any token (Responses' created/in_progress). */
  open(): Frame[];
  /** One chunk of tokens; with `finish`, also the closing frames (usage chunk, terminator). */
  tokens(tokens: GenToken[], finish: FinishReason | null): Frame[];
  /** The in-band error (then `[DONE]` where the dialect sends it after an error, test-corpus/FORMATS.md §6.2). */
  error(): Frame[];
  /** One truncated, unparseable event in the dialect's framing. */
  malformed(): Frame;
  /** Accumulate tokens of a non-streaming request. */
  collect(tokens: GenToken[]): void;
  /** The non-streaming response body (JSON) once the request has finished. */
  complete(finish: FinishReason): string;
}

/** Shared bookkeeping: cumulative text/ids/count and OpenAI-style usage. */
export abstract class WriterBase {
  text = '';
  count = 0;
  readonly ids: number[] = [];

  constructor(protected readonly ctx: WriterContext) {}

  open(): Frame[] {
    return [];
  }

  collect(tokens: GenToken[]): void {
    for (const t of tokens) {
      this.text += t.text;
      this.count++;
      this.ids.push(t.id);
    }
  }

  /** Reasoning text and tokens so far (reasoning mode, dialects with a reasoning field). */
  reasoningText = '';
  reasoningCount = 0;

  /**
   * `collect` for dialects with a reasoning field: the sequence's first `ctx.reasoningTokens`
   * tokens go to the reasoning, the rest to the answer. This chunk's two deltas.
   */
  protected collectSplit(tokens: GenToken[]): { reasoning: string; answer: string; reasoningTokens: number } {
    let reasoning = '';
    let answer = '';
    let n = 0;
    for (const t of tokens) {
      if (this.count < this.ctx.reasoningTokens) {
        reasoning += t.text;
        n++;
      } else answer += t.text;
      this.count++;
      this.ids.push(t.id);
    }
    this.reasoningText += reasoning;
    this.reasoningCount += n;
    this.text += answer;
    return { reasoning, answer, reasoningTokens: n };
  }

  /** vLLM's UsageInfo key order: prompt, total, completion (test-corpus/FORMATS.md §2.1). */
  protected usage(): { prompt_tokens: number; total_tokens: number; completion_tokens: number } {
    const p = this.ctx.req.promptTokens;
    return { prompt_tokens: p, total_tokens: p + this.count, completion_tokens: this.count };
  }

  /**
   * vLLM's final usage: `prompt_tokens_details` is `{cached_tokens}` only when the server runs with
   * --enable-prompt-tokens-details and some prompt tokens were cached, else null
   * (vllm/entrypoints/openai/serving_chat.py: `if self.enable_prompt_tokens_details and
   * num_cached_tokens`).
   */
  protected promptTokensDetails(): { cached_tokens: number } | null {
    const cached = this.ctx.cachedTokens();
    return this.ctx.promptTokensDetails && cached > 0 ? { cached_tokens: cached } : null;
  }
}

/** `data: <payload>\n\n`, the framing of vLLM, llama.cpp (with the space) and TGI (without). */
export function sse(payload: string, space = true): string {
  return `data:${space ? ' ' : ''}${payload}\n\n`;
}

/** Cut a serialized event so that it cannot parse (an object missing its closing braces). */
export function truncateJson(json: string): string {
  return json.slice(0, Math.max(8, Math.floor(json.length * 0.6)));
}
