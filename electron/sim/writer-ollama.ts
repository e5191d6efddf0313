/**
 * Ollama's native POST /api/generate and /api/chat (test-corpus/FORMATS.md §2.5, corpus ollama-api-*.ndjson):
 * - NDJSON (`application/x-ndjson`), one Go-encoded JSON object + `\n` per write; headers go out
 *   with the first write (Go net/http);
 * - chunks `{"model","created_at","response":"…","done":false}` (chat: `"message":{"role":
 *   "assistant","content":"…"}`), created_at RFC3339Nano UTC with trailing zeros trimmed;
 * - the final line `done:true` with done_reason, (generate: context), total_duration,
 *   load_duration, prompt_eval_count, prompt_eval_duration, eval_count, eval_duration — all
 *   durations in nanoseconds, measured by the sim. The EOS token has no text; it is counted in
 *   eval_count and carried by the final line;
 * - mid-stream error: one more line `{"error":"…"}`, status stays 200.
 */
import { goJson, rfc3339Nano, wallNowMs } from './json-style.ts';
import type { GenToken } from './text.ts';
import type { FinishReason } from './types.ts';
import { truncateJson, WriterBase, type DialectWriter, type Frame } from './writer-types.ts';

const MAX_CONTEXT_IDS = 64;

export class OllamaWriter extends WriterBase implements DialectWriter {
  readonly contentType = 'application/x-ndjson';
  readonly headersEarly = false;
  readonly extraHeaders = {};

  private get chat(): boolean {
    return this.ctx.req.dialect === 'ollama-chat';
  }

  /** A line; `thinking`: a thinking model's reasoning delta (corpus ollama-api-chat-thinking.ndjson). */
  private line(content: string, done: boolean, thinking = ''): Record<string, unknown> {
    const head = { model: this.ctx.model, created_at: rfc3339Nano(wallNowMs()) };
    const think = thinking !== '' ? { thinking } : {};
    const body = this.chat
      ? { message: { role: 'assistant', content, ...think } }
      : { response: content, ...think };
    return { ...head, ...body, done };
  }

  tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    const frames: Frame[] = [];
    const visible = tokens.filter((t) => !t.special);
    if (visible.length > 0) {
      const d = this.collectSplit(visible);
      frames.push({
        data: goJson(this.line(d.answer, false, d.reasoning)) + '\n',
        tokens: visible.length,
        kind: 'chunk',
        reasoning: d.reasoningTokens,
      });
    }
    if (finish) {
      this.collect(tokens.filter((t) => t.special));
      frames.push({
        data: goJson(this.final(finish, '')) + '\n',
        tokens: tokens.length - visible.length,
        kind: 'done',
      });
    }
    return frames;
  }

  private final(finish: FinishReason, content: string): Record<string, unknown> {
    const t = this.ctx.times();
    const now = performance.now();
    const ns = (ms: number) => Math.max(0, Math.round(ms * 1e6));
    const out: Record<string, unknown> = { ...this.line(content, true), done_reason: finish };
    if (!this.chat) out.context = this.ids.slice(-MAX_CONTEXT_IDS);
    out.total_duration = ns(now - t.arrivalMs);
    out.load_duration = ns(t.admittedMs - t.arrivalMs);
    out.prompt_eval_count = this.ctx.req.promptTokens;
    out.prompt_eval_duration = ns(t.firstTokenMs - t.admittedMs);
    out.eval_count = this.count;
    out.eval_duration = ns(now - t.firstTokenMs);
    return out;
  }

  error(): Frame[] {
    return [
      {
        data: goJson({ error: 'an error was encountered while running the model' }) + '\n',
        tokens: 0,
        kind: 'error',
      },
    ];
  }

  malformed(): Frame {
    return { data: truncateJson(goJson(this.line(' interrupted', false))) + '\n', tokens: 0, kind: 'error' };
  }

  complete(finish: FinishReason): string {
    return goJson(this.final(finish, this.text));
  }
}
