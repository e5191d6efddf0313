/**
 * Ollama native `/api/generate` and `/api/chat` (test-corpus/FORMATS.md §2.5): NDJSON, not SSE (§6.4).
 * Each line is a JSON object with a delta (`response`, or `message.content`; thinking models
 * add `thinking`); the last has `done:true`, `done_reason` and the counts `prompt_eval_count` /
 * `eval_count` (durations in ns). A mid-stream failure is one more line `{"error":"…"}`, with
 * status 200. There is no per-event token count: tokens stay null (estimated, then reconciled
 * with eval_count).
 */
import type { RequestSpec } from '../../../shared/request.ts';
import {
  defined,
  errorOf,
  invalid,
  isObj,
  count,
  parseObject,
  stopList,
  str,
  usageOf,
  type Obj,
} from './common.ts';
import type { DecodedEvent, EventDecoder, Frame } from './types.ts';

interface LineOutput {
  text: string;
  reasoning: string;
  toolCall: string;
}

export type OllamaReader = (line: Obj) => LineOutput | null;

/** `/api/generate`: `response` (+ `thinking`). null when the line has neither field nor `done`. */
export function readGenerate(o: Obj): LineOutput | null {
  if (typeof o.response !== 'string' && typeof o.thinking !== 'string') return null;
  return { text: str(o.response), reasoning: str(o.thinking), toolCall: '' };
}

/** `/api/chat`: `message.content` (+ `message.thinking`, `message.tool_calls`, whole calls). */
export function readChat(o: Obj): LineOutput | null {
  const m = o.message;
  if (!isObj(m)) return null;
  let toolCall = '';
  if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) toolCall = JSON.stringify(m.tool_calls);
  return { text: str(m.content), reasoning: str(m.thinking), toolCall };
}

export class OllamaDecoder implements EventDecoder {
  constructor(private readonly read: OllamaReader) {}

  decode(frame: Frame): DecodedEvent {
    const o = parseObject(frame.data);
    if (typeof o === 'string') return invalid(o);
    const err = errorOf(o);
    if (err) return err;
    const out = this.read(o);
    if (out === null && o.done !== true) return invalid('line has no output field and is not done');
    const { text, reasoning, toolCall } = out ?? { text: '', reasoning: '', toolCall: '' };
    const hasOutput = text.length > 0 || reasoning.length > 0 || toolCall.length > 0;
    const ev: DecodedEvent = { kind: hasOutput ? 'content' : 'empty', text, tokens: null };
    if (reasoning) ev.reasoning = reasoning;
    if (toolCall) ev.toolCall = toolCall;
    if (typeof o.model === 'string' && o.model) ev.model = o.model;
    if (o.done === true) {
      ev.terminal = true;
      const reason = str(o.done_reason);
      if (reason) ev.finishReason = reason;
      // The Metrics fields are `omitempty`: a fully cached prompt omits prompt_eval_count.
      const prompt = count(o.prompt_eval_count);
      const completion = count(o.eval_count);
      if (prompt !== null || completion !== null) ev.usage = usageOf(prompt, completion, null);
    }
    return ev;
  }
}

/**
 * Ollama's options: num_predict, temperature, top_p, seed, stop. It has no ignore_eos or
 * min_tokens. `stream` defaults to true but is sent explicitly.
 */
export function ollamaOptions(spec: RequestSpec): Obj | undefined {
  const p = spec.params ?? {};
  const options = defined({
    num_predict: p.maxTokens,
    temperature: p.temperature,
    top_p: p.topP,
    seed: p.seed,
    stop: stopList(spec),
  });
  return Object.keys(options).length > 0 ? options : undefined;
}
