/**
 * Request bodies of every dialect, normalised to what the scheduler needs. Field names follow
 * each server's own API (test-corpus/FORMATS.md §2): OpenAI/vLLM `max_tokens` / `max_completion_tokens`,
 * `min_tokens`, `ignore_eos`, `stream_options`; TGI `inputs` + `parameters`; llama.cpp `prompt`,
 * `n_predict`; Ollama `prompt` / `messages` + `options.num_predict`; Responses `input`,
 * `max_output_tokens`; Anthropic Messages `messages` + top-level `system` and a required
 * `max_tokens`. `ignore_eos` and `min_tokens` are accepted by every dialect (a sim
 * extension where the real server lacks them) so tests can ask for exact lengths anywhere.
 */
import type { DialectId } from '../../shared/dialects.ts';
import { imagesOf } from './body-images.ts';
import { promptImagesOf, type PromptImages } from './images.ts';
import { countChatTokens, countPromptTokens, type ChatMessageLike } from '../../shared/tokenizer.ts';
import { toolChoiceOfBody, toolsOfBody, type SimTool, type SimToolChoice } from './tool-calls.ts';

export interface GenRequest {
  dialect: DialectId;
  /** The `model` field as sent, or null. */
  model: string | null;
  /** Prompt text (messages joined), used to seed the generated text. */
  promptText: string;
  /** The chat messages as sent (chat dialects), or null (a raw prompt): the prefix cache's input. */
  messages: ChatMessageLike[] | null;
  promptTokens: number;
  /** null: the request set none (the sim's defaultMaxTokens applies). */
  maxTokens: number | null;
  minTokens: number;
  ignoreEos: boolean;
  stream: boolean;
  includeUsage: boolean;
  continuousUsage: boolean;
  /** TGI `parameters.details`. */
  details: boolean;
  /** The request's own seed, if any. */
  seed: number | null;
  /** Body field `sim_fault`. */
  fault: string | null;
  /** Body field `sim_reasoning_tokens`: this request's reasoning mode (null: the sim's option). */
  reasoningTokens: number | null;
  /** Images in a chat request's messages and their prompt tokens (images.ts), counted in promptTokens. */
  images: number;
  imageTokens: number;
  /** Function tools offered (tool-calls.ts) and tool_choice. */
  tools: SimTool[];
  toolChoice: SimToolChoice;
}

/** A request body the simulator refuses (answered 400 in the dialect's error shape); not the client's RequestError. */
export class BadSimRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optInt(o: Obj, key: string, min: number): number | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw new BadSimRequest(`${key} must be an integer >= ${min}, got ${JSON.stringify(v)}`, key);
  }
  return v;
}

function optBool(o: Obj, key: string, dflt: boolean): boolean {
  const v = o[key];
  return typeof v === 'boolean' ? v : dflt;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

function messagesOf(v: unknown, key: string): ChatMessageLike[] {
  if (!Array.isArray(v)) throw new BadSimRequest(`${key} must be a list of messages`, key);
  return v.map((m) => {
    if (!isObj(m)) throw new BadSimRequest(`each of ${key} must be an object`, key);
    return { role: typeof m.role === 'string' ? m.role : 'user', content: textOf(m.content) };
  });
}

/** The images of a chat body's messages (lifted out of its bytes or not: body-images.ts), or a 400. */
function imagesOrRefuse(body: Obj): PromptImages {
  const r = promptImagesOf(body.messages, imagesOf(body));
  if (typeof r === 'string') throw new BadSimRequest(r, 'messages');
  return r;
}

/** Llama.cpp/Ollama use -1 (and 0) for "no limit": the sim's default applies then. */
function limit(v: number | null): number | null {
  return v === null || v <= 0 ? null : v;
}

/** What every dialect's request carries the same way; each dialect's parser adds the rest. */
type Common = Omit<GenRequest, 'promptText' | 'messages' | 'promptTokens' | 'maxTokens' | 'stream'>;

/** The usage fields of an OpenAI-style `stream_options`. */
type OpenAiUsage = Pick<GenRequest, 'includeUsage' | 'continuousUsage'>;

type DialectParser = (body: Obj, base: Common, openaiUsage: OpenAiUsage, dialect: DialectId) => GenRequest;

export function parseRequest(dialect: DialectId, body: unknown): GenRequest {
  if (!isObj(body)) throw new BadSimRequest('request body must be a JSON object');
  const base: Common = {
    dialect,
    model: typeof body.model === 'string' ? body.model : null,
    minTokens: optInt(body, 'min_tokens', 0) ?? 0,
    ignoreEos: optBool(body, 'ignore_eos', false),
    includeUsage: false,
    continuousUsage: false,
    details: false,
    seed: optInt(body, 'seed', Number.MIN_SAFE_INTEGER),
    fault: typeof body.sim_fault === 'string' ? body.sim_fault : null,
    reasoningTokens: optInt(body, 'sim_reasoning_tokens', 0),
    images: 0,
    imageTokens: 0,
    tools: toolsOfBody(body),
    toolChoice: toolChoiceOfBody(body),
  };
  const so = isObj(body.stream_options) ? body.stream_options : {};
  const openaiUsage = {
    includeUsage: optBool(so, 'include_usage', false),
    continuousUsage: optBool(so, 'continuous_usage_stats', false),
  };
  const r = PARSERS[dialect](body, base, openaiUsage, dialect);
  if (r.maxTokens !== null && r.minTokens > r.maxTokens) {
    throw new BadSimRequest(
      `min_tokens must be less than or equal to max_tokens=${r.maxTokens}, got ${r.minTokens}.`,
      'min_tokens',
    );
  }
  return r;
}

function openaiChat(body: Obj, base: Common, openaiUsage: OpenAiUsage): GenRequest {
  const messages = messagesOf(body.messages, 'messages');
  const maxTokens = optInt(body, 'max_completion_tokens', 1) ?? optInt(body, 'max_tokens', 1);
  const promptText = messages.map((m) => m.content).join('\n');
  const img = imagesOrRefuse(body);
  return {
    ...base,
    ...openaiUsage,
    ...img,
    promptText,
    messages,
    promptTokens: countChatTokens(messages) + img.imageTokens,
    maxTokens,
    stream: optBool(body, 'stream', false),
  };
}

function openaiCompletions(body: Obj, base: Common, openaiUsage: OpenAiUsage): GenRequest {
  const p = Array.isArray(body.prompt)
    ? body.prompt.map(String).join('')
    : typeof body.prompt === 'string'
      ? body.prompt
      : null;
  if (p === null) throw new BadSimRequest('prompt must be a string', 'prompt');
  return {
    ...base,
    ...openaiUsage,
    promptText: p,
    messages: null,
    promptTokens: countPromptTokens(p),
    maxTokens: optInt(body, 'max_tokens', 1),
    stream: optBool(body, 'stream', false),
  };
}

function openaiResponses(body: Obj, base: Common): GenRequest {
  const input =
    typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : messagesOf(body.input, 'input');
  const instructions =
    typeof body.instructions === 'string' ? [{ role: 'system', content: body.instructions }] : [];
  const messages = [...instructions, ...input];
  const promptText = messages.map((m) => m.content).join('\n');
  return {
    ...base,
    promptText,
    messages,
    promptTokens: countChatTokens(messages),
    maxTokens: optInt(body, 'max_output_tokens', 1),
    stream: optBool(body, 'stream', false),
  };
}

/** Anthropic Messages: `system` is top-level (a string or text blocks); `max_tokens` is required. */
function anthropicMessages(body: Obj, base: Common): GenRequest {
  const system = textOf(body.system);
  const messages = [
    ...(system !== '' ? [{ role: 'system', content: system }] : []),
    ...messagesOf(body.messages, 'messages'),
  ];
  const maxTokens = optInt(body, 'max_tokens', 1);
  // Anthropic's and vLLM's wording for the missing field.
  if (maxTokens === null) throw new BadSimRequest('max_tokens: Field required', 'max_tokens');
  const img = imagesOrRefuse(body);
  return {
    ...base,
    ...img,
    promptText: messages.map((m) => m.content).join('\n'),
    messages,
    promptTokens: countChatTokens(messages) + img.imageTokens,
    maxTokens,
    stream: optBool(body, 'stream', false),
  };
}

function tgi(body: Obj, base: Common): GenRequest {
  if (typeof body.inputs !== 'string') throw new BadSimRequest('inputs must be a string', 'inputs');
  const params = isObj(body.parameters) ? body.parameters : {};
  return {
    ...base,
    promptText: body.inputs,
    messages: null,
    promptTokens: countPromptTokens(body.inputs),
    maxTokens: optInt(params, 'max_new_tokens', 1),
    stream: true,
    details: optBool(params, 'details', false),
    seed: optInt(params, 'seed', 0) ?? base.seed,
  };
}

function llamacpp(body: Obj, base: Common): GenRequest {
  const p = typeof body.prompt === 'string' ? body.prompt : null;
  if (p === null) throw new BadSimRequest('"prompt" must be a string', 'prompt');
  const n = limit(optInt(body, 'n_predict', -1) ?? optInt(body, 'max_tokens', -1));
  return {
    ...base,
    promptText: p,
    messages: null,
    promptTokens: countPromptTokens(p),
    maxTokens: n,
    stream: optBool(body, 'stream', false),
  };
}

function ollama(body: Obj, base: Common, _usage: OpenAiUsage, dialect: DialectId): GenRequest {
  const messages =
    dialect === 'ollama-chat'
      ? messagesOf(body.messages, 'messages')
      : [{ role: 'user', content: typeof body.prompt === 'string' ? body.prompt : '' }];
  const options = isObj(body.options) ? body.options : {};
  const promptText = messages.map((m) => m.content).join('\n');
  return {
    ...base,
    promptText,
    messages,
    promptTokens: countChatTokens(messages),
    maxTokens: limit(optInt(options, 'num_predict', -2)),
    stream: optBool(body, 'stream', true),
    seed: optInt(options, 'seed', Number.MIN_SAFE_INTEGER) ?? base.seed,
  };
}

/** The pooling dialects are not generation: sim/pooling.ts reads their bodies. */
function notGeneration(_b: Obj, base: Common): GenRequest {
  throw new BadSimRequest(`${base.dialect} is not a generation request`);
}

const PARSERS: Record<DialectId, DialectParser> = {
  'openai-chat': openaiChat,
  'openai-completions': openaiCompletions,
  'openai-responses': openaiResponses,
  'anthropic-messages': anthropicMessages,
  tgi,
  llamacpp,
  'ollama-generate': ollama,
  'ollama-chat': ollama,
  'openai-embeddings': notGeneration,
  rerank: notGeneration,
};
