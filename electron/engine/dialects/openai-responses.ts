/**
 * OpenAI Responses API streaming events (test-corpus/FORMATS.md §2.6), also served by vLLM and Ollama.
 * Each SSE event is `event: <type>` + `data: <json>`; the type is read from `data.type` (vLLM
 * serializes keys alphabetically, so it comes last — never rely on order), the SSE event name
 * only as a fallback. There is no `[DONE]`: `response.completed` / `response.incomplete` /
 * `response.failed` end the stream.
 */
import type { RequestSpec } from '../../../shared/request.ts';
import { DIALECT_PATHS } from '../../../shared/dialects.ts';
import {
  defined,
  errorEvent,
  invalid,
  isObj,
  count,
  parseObject,
  str,
  usageOf,
  type Obj,
  SSE_CONTENT_TYPE,
} from './common.ts';
import type { DecodedEvent, Dialect, EventDecoder, Frame, ToolDelta } from './types.ts';
import { responsesInputItems, responsesToolFields } from './tools-body.ts';

/** Delta event types, by where their `delta` string goes. */
const TEXT_DELTAS = new Set(['response.output_text.delta', 'response.refusal.delta']);
const REASONING_DELTAS = new Set([
  'response.reasoning_text.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning.delta',
]);
const TOOL_DELTAS = new Set([
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
  'response.mcp_call_arguments.delta',
  'response.code_interpreter_call_code.delta',
]);

function responseUsage(r: Obj) {
  const u = r.usage;
  if (!isObj(u)) return undefined;
  const cached = isObj(u.input_tokens_details) ? count(u.input_tokens_details.cached_tokens) : null;
  const usage = usageOf(count(u.input_tokens), count(u.output_tokens), count(u.total_tokens), cached);
  const reasoning = isObj(u.output_tokens_details) ? count(u.output_tokens_details.reasoning_tokens) : null;
  if (reasoning !== null) usage.reasoningTokens = reasoning;
  return usage;
}

/**
 * Responses has no finish reason on success. A completed response ended normally, which chat
 * calls "stop" — or "tool_calls" when its output is a function call — so runs compare across
 * dialects.
 */
function completedReason(r: Obj): string {
  const out = Array.isArray(r.output) ? r.output : [];
  return out.some((i) => isObj(i) && i.type === 'function_call') ? 'tool_calls' : 'stop';
}

/** `error` events are flat `{code,message,param}`; some captures nest `error:{…}` (SOURCES.md). */
function errorFrom(o: Obj): DecodedEvent {
  const e = isObj(o.error) ? o.error : o;
  const message = typeof e.message === 'string' ? e.message : 'The server reported an error.';
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? e.code : undefined;
  return errorEvent(message, typeof e.type === 'string' && e.type !== 'error' ? e.type : undefined, code);
}

class ResponsesDecoder implements EventDecoder {
  decode(frame: Frame): DecodedEvent {
    const o = parseObject(frame.data);
    if (typeof o === 'string') return invalid(o);
    const type = typeof o.type === 'string' ? o.type : frame.event !== 'message' ? frame.event : '';
    if (type === '') return invalid('event has no "type"');
    const delta = str(o.delta);
    if (TEXT_DELTAS.has(type)) return output(delta, '', '');
    if (REASONING_DELTAS.has(type)) return output('', delta, '');
    if (TOOL_DELTAS.has(type)) {
      const ev = output('', '', delta);
      ev.toolDeltas = [{ index: outputIndex(o), args: delta }];
      return ev;
    }
    if (type === 'response.output_item.added') return itemAdded(o);
    const r = isObj(o.response) ? o.response : {};
    switch (type) {
      case 'response.completed':
        return withUsage(
          { kind: 'meta', text: '', tokens: null, terminal: true, finishReason: completedReason(r) },
          r,
        );
      case 'response.incomplete': {
        // e.g. max_output_tokens or content_filter: a proper end, reason from incomplete_details.
        const why = isObj(r.incomplete_details) ? str(r.incomplete_details.reason) : '';
        return withUsage(
          { kind: 'meta', text: '', tokens: null, terminal: true, finishReason: why || 'incomplete' },
          r,
        );
      }
      case 'response.failed': {
        const ev = isObj(r.error) ? errorFrom(r) : errorEvent('The response failed.', undefined, undefined);
        ev.terminal = true;
        return withUsage(ev, r);
      }
      case 'error':
        return errorFrom(o);
      default:
        return { kind: 'meta', text: '', tokens: null };
    }
  }
}

function outputIndex(o: Obj): number {
  return typeof o.output_index === 'number' && Number.isSafeInteger(o.output_index) ? o.output_index : 0;
}

/** `response.output_item.added`: a function_call item opens a call (its call_id and name); other items are lifecycle. */
function itemAdded(o: Obj): DecodedEvent {
  const ev: DecodedEvent = { kind: 'meta', text: '', tokens: null };
  const item = isObj(o.item) ? o.item : {};
  if (item.type !== 'function_call') return ev;
  const d: ToolDelta = { index: outputIndex(o), args: str(item.arguments) };
  if (typeof item.call_id === 'string') d.id = item.call_id;
  if (typeof item.name === 'string') d.name = item.name;
  ev.toolDeltas = [d];
  return ev;
}

function output(text: string, reasoning: string, toolCall: string): DecodedEvent {
  if (!text && !reasoning && !toolCall) return { kind: 'empty', text: '', tokens: null };
  const ev: DecodedEvent = { kind: 'content', text, tokens: null };
  if (reasoning) ev.reasoning = reasoning;
  if (toolCall) ev.toolCall = toolCall;
  return ev;
}

function withUsage(ev: DecodedEvent, r: Obj): DecodedEvent {
  const u = responseUsage(r);
  if (u) ev.usage = u;
  return ev;
}

export const openAiResponses: Dialect = {
  id: 'openai-responses',
  framing: 'sse',
  contentType: SSE_CONTENT_TYPE,
  terminator: 'response.completed',
  path: DIALECT_PATHS['openai-responses'],
  buildBody(spec: RequestSpec) {
    const p = spec.params ?? {};
    // A prompt goes as the plain-string `input`; messages as input message items.
    const input =
      spec.messages && spec.messages.length > 0 ? responsesInputItems(spec.messages) : (spec.prompt ?? '');
    return {
      model: spec.model,
      input,
      stream: true,
      ...responsesToolFields(spec),
      ...defined({
        max_output_tokens: p.maxTokens,
        temperature: p.temperature,
        top_p: p.topP,
        // vLLM extensions, as for chat (openai-common.ts); the Responses API has no seed or stop.
        ignore_eos: p.ignoreEos ? true : undefined,
        min_tokens: p.minTokens ? p.minTokens : undefined,
      }),
    };
  },
  createDecoder() {
    return new ResponsesDecoder();
  },
};
