/**
 * llama.cpp `llama-server` native `/completion` (test-corpus/FORMATS.md §2.4): `data: {json}` events, no
 * `[DONE]`. Partials carry the `content` delta, `tokens` (ids, may be empty unless the request
 * set `return_tokens`) and the cumulative `tokens_predicted`; the last event has `stop:true`,
 * `stop_type` and `timings`. A mid-stream error is `data: {"error":{code,message,type}}` and the
 * connection closes. Pre-2025 builds wrote `error: {…}` instead, a field SSE parsers drop (§6.3),
 * so such a stream just ends without `stop:true` and the engine reports it truncated.
 */
import type { RequestSpec } from '../../../shared/request.ts';
import { DIALECT_PATHS } from '../../../shared/dialects.ts';
import {
  defined,
  errorOf,
  invalid,
  isObj,
  count,
  parseObject,
  promptText,
  stopList,
  str,
  usageOf,
  SSE_CONTENT_TYPE,
} from './common.ts';
import type { DecodedEvent, Dialect, EventDecoder, Frame } from './types.ts';

/** llama.cpp's stop_type in OpenAI terms (its own /v1 endpoints map it the same way). */
const STOP_TYPES: Record<string, string> = { eos: 'stop', word: 'stop', limit: 'length' };

class LlamaCppDecoder implements EventDecoder {
  private prevPredicted = 0;

  decode(frame: Frame): DecodedEvent {
    const o = parseObject(frame.data);
    if (typeof o === 'string') return invalid(o);
    const err = errorOf(o);
    if (err) return err;
    if (typeof o.content !== 'string' && typeof o.stop !== 'boolean')
      return invalid('event has no "content"/"stop"');
    const text = str(o.content);
    // Exact count: the tokens_predicted step (always sent), else the ids in `tokens`.
    const predicted = count(o.tokens_predicted);
    let tokens: number | null = null;
    if (predicted !== null) {
      tokens = predicted - this.prevPredicted;
      this.prevPredicted = predicted;
    } else if (Array.isArray(o.tokens)) tokens = o.tokens.length;
    const ev: DecodedEvent =
      text.length > 0
        ? { kind: 'content', text, tokens: tokens !== null && tokens > 0 ? tokens : null }
        : { kind: 'empty', text: '', tokens: null };
    if (typeof o.model === 'string' && o.model) ev.model = o.model;
    if (o.stop === true) {
      ev.terminal = true;
      const st = str(o.stop_type);
      if (st && st !== 'none') ev.finishReason = STOP_TYPES[st] ?? st;
      const cached = isObj(o.timings) ? count(o.timings.cache_n) : null;
      const prompt = count(o.tokens_evaluated) ?? (isObj(o.timings) ? count(o.timings.prompt_n) : null);
      if (predicted !== null || prompt !== null) ev.usage = usageOf(prompt, predicted, null, cached);
    }
    return ev;
  }
}

export const llamacpp: Dialect = {
  id: 'llamacpp',
  framing: 'sse',
  contentType: SSE_CONTENT_TYPE,
  terminator: 'a final event with stop: true',
  path: DIALECT_PATHS.llamacpp,
  buildBody(spec: RequestSpec) {
    const p = spec.params ?? {};
    return {
      // llama-server ignores `model` with one model loaded; router mode uses it to pick one.
      model: spec.model,
      prompt: promptText(spec),
      stream: true,
      ...defined({
        n_predict: p.maxTokens,
        temperature: p.temperature,
        top_p: p.topP,
        seed: p.seed,
        stop: stopList(spec),
        ignore_eos: p.ignoreEos ? true : undefined,
      }),
    };
  },
  createDecoder() {
    return new LlamaCppDecoder();
  },
};
