/**
 * TGI's native POST /generate_stream (test-corpus/FORMATS.md §2.3, corpus tgi-generate-stream*.sse):
 * - `data:<json>\n\n` with no space (axum `json_data`), `text/event-stream`, no `[DONE]`;
 * - one event per token: `{"index":i,"token":{"id","text","logprob","special"},
 *   "generated_text":null,"details":null}`, index from 1 (TGI has no stream interval, so a
 *   multi-token chunk becomes several events, each its own write);
 * - the last event carries `generated_text` (special tokens excluded) and, when
 *   `parameters.details`, `details:{finish_reason,generated_tokens,seed,input_length}`; an EOS
 *   ending shows the raw EOS piece with `special:true` and finish_reason `eos_token`;
 * - errors are in-band events `{"error","error_type"}`, then EOF.
 * The last event is the stream's terminator (GroundTruth kind 'done'); `no-done` omits it.
 */
import { EOS_PIECE, type GenToken } from './text.ts';
import type { FinishReason } from './types.ts';
import { sse, truncateJson, WriterBase, type DialectWriter, type Frame } from './writer-types.ts';

export class TgiWriter extends WriterBase implements DialectWriter {
  readonly contentType = 'text/event-stream';
  readonly headersEarly = true;
  readonly extraHeaders = { 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

  private tokenJson(t: GenToken): Record<string, unknown> {
    return { id: t.id, text: t.special ? EOS_PIECE : t.text, logprob: t.logprob, special: t.special };
  }

  private details(finish: FinishReason): Record<string, unknown> | null {
    if (!this.ctx.req.details) return null;
    return {
      finish_reason: finish === 'stop' ? 'eos_token' : 'length',
      generated_tokens: this.count,
      seed: this.ctx.req.seed,
      input_length: this.ctx.req.promptTokens,
    };
  }

  tokens(tokens: GenToken[], finish: FinishReason | null): Frame[] {
    return tokens.map((t, i) => {
      this.collect([t]);
      const last = finish !== null && i === tokens.length - 1;
      const event = {
        index: this.count,
        token: this.tokenJson(t),
        generated_text: last ? this.text : null,
        details: last ? this.details(finish) : null,
      };
      return { data: sse(JSON.stringify(event), false), tokens: 1, kind: last ? 'done' : 'chunk' };
    });
  }

  error(): Frame[] {
    const error =
      'Request failed during generation: Server error: CUDA out of memory. Tried to allocate 2.00 GiB';
    return [
      { data: sse(JSON.stringify({ error, error_type: 'generation' }), false), tokens: 0, kind: 'error' },
    ];
  }

  malformed(): Frame {
    const event = {
      index: this.count + 1,
      token: { id: 374, text: ' is', logprob: -0.07, special: false },
      generated_text: null,
      details: null,
    };
    return { data: sse(truncateJson(JSON.stringify(event)), false), tokens: 0, kind: 'error' };
  }

  /** TGI's non-streaming shape (POST /generate); /generate_stream itself always streams. */
  complete(finish: FinishReason): string {
    return JSON.stringify({ generated_text: this.text, details: this.details(finish) });
  }
}
