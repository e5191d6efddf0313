// Anthropic Messages streaming (`POST /v1/messages`, test-corpus/FORMATS.md §2.7), as Anthropic's API and
// vLLM, SGLang and llama.cpp's server serve it: `event: <type>` + `data: <json>`, the type read
// from `data.type` (the SSE name as a fallback), no `[DONE]`: `message_stop` ends the stream.
import type { ChatMessage, RequestSpec } from '../../../shared/request.ts';
import { DIALECT_PATHS } from '../../../shared/dialects.ts';
import {
  count,
  defined,
  errorEvent,
  errorOf,
  invalid,
  isObj,
  parseObject,
  stopList,
  str,
  total,
  type Obj,
  SSE_CONTENT_TYPE,
} from './common.ts';
import type { DecodedEvent, Dialect, EventDecoder, Frame, ToolDelta } from './types.ts';
import { withAnthropicImages } from './images.ts';
import { anthropicMessageList, anthropicToolFields } from './tools-body.ts';

/**
 * `max_tokens` is required by the Messages API (a request without it is a 400). When the user set
 * none, this is sent: generous enough that a normal answer ends on its own (end_turn) first.
 * @internal exported for its tests
 */
export const DEFAULT_MAX_TOKENS = 4096;

class MessagesDecoder implements EventDecoder {
  /** Input tokens from message_start, carried into the usage message_delta completes. */
  private prompt: number | null = null;
  private cached: number | null = null;

  decode(frame: Frame): DecodedEvent {
    const o = parseObject(frame.data);
    if (typeof o === 'string') return invalid(o);
    const type = typeof o.type === 'string' ? o.type : frame.event !== 'message' ? frame.event : '';
    if (type === '') return invalid('event has no "type"');
    switch (type) {
      case 'content_block_delta':
        return this.delta(isObj(o.delta) ? o.delta : {}, blockIndex(o));
      case 'content_block_start':
        return toolStart(o);
      case 'message_start':
        return this.start(isObj(o.message) ? o.message : {});
      case 'message_delta':
        return this.messageDelta(o);
      case 'message_stop':
        return { kind: 'done', text: '', tokens: null, terminal: true };
      case 'error':
        // `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`: a server
        // error; the engine keeps everything that arrived before it.
        return errorOf(o) ?? errorEvent('The server reported an error.', undefined, undefined);
      default:
        // ping, content_block_start / _stop, and event types Anthropic adds later ("new event
        // types may be added", §2.7): lifecycle with no generated output, never invalid.
        return { kind: 'meta', text: '', tokens: null };
    }
  }

  /**
   * A `content_block_delta`, by where its text goes (as openai-responses.ts sorts its deltas):
   * text is the answer, thinking is reasoning, a tool's partial input JSON is a tool-call fragment.
   */
  private delta(d: Obj, index: number): DecodedEvent {
    switch (d.type) {
      case 'text_delta':
        return output(str(d.text), '', '');
      case 'thinking_delta':
        return output('', str(d.thinking), '');
      case 'input_json_delta': {
        // The first is often empty (the corpus's tool-use stream): no output yet, still the call's.
        const ev = output('', '', str(d.partial_json));
        ev.toolDeltas = [{ index, args: str(d.partial_json) }];
        return ev;
      }
      default:
        // signature_delta is the integrity signature of a thinking block, sent whole as the block
        // closes (llama.cpp sends it empty): not generated text, so counting it would put a fake
        // last token on every thinking block. citations_delta cites text already sent.
        return { kind: 'meta', text: '', tokens: null };
    }
  }

  /**
   * message_start carries the input side of usage. Its `output_tokens` is a placeholder (1 or 0
   * before anything is generated), so it is not reported as the output count: a stream that fails
   * after it would otherwise claim that count as the server's total.
   */
  private start(m: Obj): DecodedEvent {
    const ev: DecodedEvent = { kind: 'meta', text: '', tokens: null };
    if (typeof m.model === 'string' && m.model) ev.model = m.model;
    if (!isObj(m.usage)) return ev;
    this.readInput(m.usage);
    ev.usage = { promptTokens: this.prompt, completionTokens: null, totalTokens: null };
    if (this.cached !== null) ev.usage.cachedTokens = this.cached;
    return ev;
  }

  /**
   * Anthropic counts cached input apart: the prompt is input_tokens + cache_creation_input_tokens
   * + cache_read_input_tokens (Anthropic prompt-caching docs), the cached part the reads — so
   * promptTokens means what it means in the OpenAI dialects (cached tokens included).
   */
  private readInput(u: Obj): void {
    const input = count(u.input_tokens);
    if (input === null) return;
    const created = count(u.cache_creation_input_tokens) ?? 0;
    const read = count(u.cache_read_input_tokens);
    const prompt = input + created + (read ?? 0);
    this.prompt = Number.isSafeInteger(prompt) ? prompt : null;
    if (read !== null) this.cached = read;
  }

  /**
   * The end of the message: `delta.stop_reason` (Anthropic's own value is kept: end_turn,
   * max_tokens, stop_sequence, tool_use, …) and `usage.output_tokens`, which is CUMULATIVE — the
   * message's total so far, not this event's share — so it is the output count, never added up.
   * Newer servers repeat the input counts here too; they win when present.
   */
  private messageDelta(o: Obj): DecodedEvent {
    const ev: DecodedEvent = { kind: 'usage', text: '', tokens: null };
    const reason = isObj(o.delta) ? o.delta.stop_reason : undefined;
    if (typeof reason === 'string' && reason !== '') ev.finishReason = reason;
    if (isObj(o.usage)) {
      this.readInput(o.usage);
      const out = count(o.usage.output_tokens);
      ev.usage = { promptTokens: this.prompt, completionTokens: out, totalTokens: total(this.prompt, out) };
      if (this.cached !== null) ev.usage.cachedTokens = this.cached;
    }
    return ev;
  }
}

function blockIndex(o: Obj): number {
  return typeof o.index === 'number' && Number.isSafeInteger(o.index) ? o.index : 0;
}

/** `content_block_start`: a tool_use block opens a call (its id and name); other blocks are lifecycle. */
function toolStart(o: Obj): DecodedEvent {
  const ev: DecodedEvent = { kind: 'meta', text: '', tokens: null };
  const b = isObj(o.content_block) ? o.content_block : {};
  if (b.type !== 'tool_use') return ev;
  const d: ToolDelta = { index: blockIndex(o), args: '' };
  if (typeof b.id === 'string') d.id = b.id;
  if (typeof b.name === 'string') d.name = b.name;
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

/**
 * Messages without their system ones (those go top-level as `system`, the API has no system
 * role). A `tool` message becomes a user turn: Anthropic's tool results are user content.
 */
function split(spec: RequestSpec): { system: string | undefined; messages: ChatMessage[] } {
  if (!spec.messages || spec.messages.length === 0)
    return { system: undefined, messages: [{ role: 'user', content: spec.prompt ?? '' }] };
  const system = spec.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const messages: ChatMessage[] = spec.messages.filter((m) => m.role !== 'system').map((m) => ({ ...m }));
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages };
}

export const anthropicMessages: Dialect = {
  id: 'anthropic-messages',
  framing: 'sse',
  contentType: SSE_CONTENT_TYPE,
  terminator: 'message_stop',
  path: DIALECT_PATHS['anthropic-messages'],
  buildBody(spec: RequestSpec) {
    const p = spec.params ?? {};
    const { system, messages } = split(spec);
    return {
      model: spec.model,
      // Images go with single requests (the workload refuses them with agentic sessions).
      messages: spec.images?.length
        ? withAnthropicImages(messages, spec.images)
        : anthropicMessageList(messages),
      ...anthropicToolFields(spec),
      max_tokens: p.maxTokens ?? DEFAULT_MAX_TOKENS,
      stream: true,
      ...defined({
        system,
        temperature: p.temperature,
        top_p: p.topP,
        stop_sequences: stopList(spec),
        // vLLM extensions, as for chat and Responses: only when asked for (Anthropic's own API
        // rejects unknown fields); the Messages API has no seed.
        ignore_eos: p.ignoreEos ? true : undefined,
        min_tokens: p.minTokens ? p.minTokens : undefined,
      }),
    };
  },
  createDecoder() {
    return new MessagesDecoder();
  },
};
