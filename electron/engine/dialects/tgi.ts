/**
 * Hugging Face TGI native `/generate_stream` (test-corpus/FORMATS.md §2.3): `data:{json}` with no space,
 * one event per token (`index` counts from 1), no `[DONE]`. The last event has a non-null
 * `generated_text` and, when the request set `parameters.details`, `details.finish_reason` /
 * `generated_tokens` / `input_length`. Errors — even overload and validation — arrive in-band
 * with status 200 as `{"error":"…","error_type":"…"}`, then the body ends.
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

class TgiDecoder implements EventDecoder {
  private prevIndex = 0;

  decode(frame: Frame): DecodedEvent {
    const o = parseObject(frame.data);
    if (typeof o === 'string') return invalid(o);
    const err = errorOf(o);
    if (err) return err;
    const token = o.token;
    if (!isObj(token)) return invalid('event has no "token" object');
    // Exact count: one token per event; the index step says so even if an event went missing.
    const index = count(o.index);
    let tokens = 1;
    if (index !== null) {
      tokens = index > this.prevIndex ? index - this.prevIndex : 1;
      this.prevIndex = index;
    }
    // A special token (EOS) is generated but is no text (`generated_text` leaves it out). Like
    // vLLM's EOS chunk with `content:""` it is 'empty', so ITL is measured between visible
    // tokens; the final count still includes it through details.generated_tokens.
    const text = token.special === true ? '' : str(token.text);
    const ev: DecodedEvent = text
      ? { kind: 'content', text, tokens }
      : { kind: 'empty', text: '', tokens: null };
    if (typeof o.generated_text === 'string') {
      ev.terminal = true;
      const d = isObj(o.details) ? o.details : null;
      if (d) {
        const fr = str(d.finish_reason);
        if (fr) ev.finishReason = fr; // length | eos_token | stop_sequence, as TGI says
        const generated = count(d.generated_tokens);
        const input = count(d.input_length);
        if (generated !== null || input !== null) ev.usage = usageOf(input, generated, null);
      }
    }
    return ev;
  }
}

export const tgi: Dialect = {
  id: 'tgi',
  framing: 'sse',
  contentType: SSE_CONTENT_TYPE,
  terminator: 'a final event with generated_text',
  path: DIALECT_PATHS.tgi,
  buildBody(spec: RequestSpec) {
    const p = spec.params ?? {};
    // TGI validates strictly (422): temperature must be > 0 and top_p in (0, 1). Greedy is
    // do_sample:false, and top_p 1 means "no top-p", so those values are expressed that way.
    const greedy = p.temperature === 0;
    const parameters = defined({
      max_new_tokens: p.maxTokens,
      temperature: greedy ? undefined : p.temperature,
      do_sample: greedy ? false : undefined,
      top_p: p.topP !== undefined && p.topP > 0 && p.topP < 1 ? p.topP : undefined,
      seed: p.seed,
      stop: stopList(spec),
      // details:true makes the last event carry finish_reason and generated_tokens.
      details: true,
    });
    // TGI has no ignore_eos or min_tokens. `stream` is ignored by /generate_stream but lets the
    // same body stream on TGI's compat route `/`.
    return { inputs: promptText(spec), parameters, stream: true };
  },
  createDecoder() {
    return new TgiDecoder();
  },
};
