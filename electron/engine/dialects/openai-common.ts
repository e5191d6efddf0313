/**
 * What OpenAI chat and completions share: the chunk envelope (choices, usage, errors, `[DONE]`)
 * and the request parameters. The quirks of every "OpenAI-compatible" server are in test-corpus/FORMATS.md
 * §2.1–2.5 and §2.8; the ones that matter here:
 * - the usage chunk has `choices: []` (§6.5) and arrives after the finish chunk;
 * - other chunks have no `usage` (vLLM), `"usage":null` (OpenAI, TGI), or an all-zero placeholder
 *   (Ollama `/v1/completions`), or a cumulative usage per chunk (vLLM `continuous_usage_stats`);
 * - `finish_reason` is null, or `""` (TGI `/v1/completions`) until the end, and may ride on the
 *   chunk with the last token (vLLM, TGI) or on a separate `delta:{}` (OpenAI, Ollama, llama.cpp);
 * - an error chunk is followed by `[DONE]` on vLLM/SGLang/TGI but not on llama.cpp (§6.2).
 */
import type { RequestSpec, Usage } from '../../../shared/request.ts';
import {
  defined,
  errorOf,
  invalid,
  isDone,
  isObj,
  count,
  parseObject,
  stopList,
  usageOf,
  type Obj,
} from './common.ts';
import type { DecodedEvent, EventDecoder, Frame, ToolDelta } from './types.ts';

/** The generated output of one choice. */
export interface ChoiceOutput {
  text: string;
  reasoning: string;
  toolCall: string;
  toolDeltas?: ToolDelta[];
}

/** Chat reads `choice.delta`, completions read `choice.text`. */
export type ChoiceReader = (choice: Obj) => ChoiceOutput;

/** OpenAI usage object → Usage; null for null/absent and for Ollama's all-zero placeholder. @internal exported for its tests */
export function openAiUsage(u: unknown): Usage | null {
  if (!isObj(u)) return null;
  const prompt = count(u.prompt_tokens);
  const completion = count(u.completion_tokens);
  const totalTokens = count(u.total_tokens);
  if (prompt === null && completion === null && totalTokens === null) return null;
  if (!prompt && !completion && !totalTokens) return null; // zeros: a placeholder, not a count
  const details = isObj(u.prompt_tokens_details) ? count(u.prompt_tokens_details.cached_tokens) : null;
  const usage = usageOf(prompt, completion, totalTokens, details);
  // vLLM, SGLang and OpenAI report reasoning tokens inside completion_tokens when they report them.
  const reasoning = isObj(u.completion_tokens_details)
    ? count(u.completion_tokens_details.reasoning_tokens)
    : null;
  if (reasoning !== null) usage.reasoningTokens = reasoning;
  return usage;
}

/** A real finish reason, or null (`null` and TGI's `""` both mean "not finished"). */
function finishOf(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

export class OpenAiChunkDecoder implements EventDecoder {
  /**
   * Whether the stream carries cumulative usage on every choice chunk (vLLM continuous usage):
   * decided by the first chunk with choices, so a usage that turns up only on the finish chunk
   * (llama.cpp `/v1/completions`) is never taken for a per-event count.
   */
  private continuous: boolean | null = null;
  private prevCompletion = 0;

  constructor(private readonly read: ChoiceReader) {}

  decode(frame: Frame): DecodedEvent {
    if (isDone(frame.data)) return { kind: 'done', text: '', tokens: null, terminal: true };
    const o = parseObject(frame.data);
    if (typeof o === 'string') return invalid(o);
    const err = errorOf(o);
    if (err) return err;
    const ev = this.chunk(o);
    if (typeof o.model === 'string' && o.model && ev.kind !== 'invalid') ev.model = o.model;
    if (typeof o.id === 'string' && o.id && ev.kind !== 'invalid') ev.responseId = o.id.slice(0, 200);
    return ev;
  }

  private chunk(o: Obj): DecodedEvent {
    const usage = openAiUsage(o.usage);
    const choices = o.choices;
    if (!Array.isArray(choices)) return invalid('chunk has no "choices" array');
    if (choices.length === 0) {
      if (usage) {
        if (usage.completionTokens !== null) this.prevCompletion = usage.completionTokens;
        return { kind: 'usage', text: '', tokens: null, usage };
      }
      return { kind: 'empty', text: '', tokens: null };
    }
    let text = '';
    let reasoning = '';
    let toolCall = '';
    let toolDeltas: ToolDelta[] | undefined;
    let finishReason: string | null = null;
    for (const c of choices) {
      if (!isObj(c)) return invalid('a choice is not an object');
      const out = this.read(c);
      text += out.text;
      reasoning += out.reasoning;
      toolCall += out.toolCall;
      if (out.toolDeltas) (toolDeltas ??= []).push(...out.toolDeltas);
      finishReason ??= finishOf(c.finish_reason);
    }
    if (this.continuous === null) this.continuous = usage !== null && usage.completionTokens !== null;
    let tokens: number | null = null;
    if (this.continuous && usage && usage.completionTokens !== null) {
      const delta = usage.completionTokens - this.prevCompletion;
      this.prevCompletion = usage.completionTokens;
      // A content chunk that did not advance the counter cannot be counted exactly: null, so the
      // engine estimates it and does not mix it silently with exact counts.
      tokens = delta > 0 ? delta : null;
    }
    const hasOutput = text.length > 0 || reasoning.length > 0 || toolCall.length > 0;
    const ev: DecodedEvent = {
      kind: hasOutput ? 'content' : 'empty',
      text,
      tokens: hasOutput ? tokens : null,
      choices: true,
    };
    if (reasoning) ev.reasoning = reasoning;
    if (toolCall) ev.toolCall = toolCall;
    if (toolDeltas) ev.toolDeltas = toolDeltas;
    if (finishReason) ev.finishReason = finishReason;
    if (usage) ev.usage = usage;
    return ev;
  }
}

/**
 * Sampling parameters and `stream_options` common to OpenAI chat and completions. `ignore_eos`
 * and `min_tokens` are vLLM/SGLang extensions: sent only when they change something (true, > 0),
 * since OpenAI itself rejects unknown parameters.
 */
export function openAiParams(spec: RequestSpec): Obj {
  const p = spec.params ?? {};
  const body = defined({
    max_tokens: p.maxTokens,
    temperature: p.temperature,
    top_p: p.topP,
    seed: p.seed,
    stop: stopList(spec),
    ignore_eos: p.ignoreEos ? true : undefined,
    min_tokens: p.minTokens ? p.minTokens : undefined,
  });
  const so = defined({
    include_usage: spec.includeUsage === false ? undefined : true,
    continuous_usage_stats: spec.continuousUsage === true ? true : undefined,
  });
  if (Object.keys(so).length > 0) body.stream_options = so;
  return body;
}
