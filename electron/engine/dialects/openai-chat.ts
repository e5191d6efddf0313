/**
 * OpenAI chat completions, as spoken by vLLM, SGLang, TGI `/v1`, llama.cpp `/v1`, Ollama `/v1`,
 * LM Studio and OpenAI itself (test-corpus/FORMATS.md §2.1–2.5, §2.8). The envelope is in openai-common.ts;
 * this file reads one choice's `delta`.
 */
import type { RequestSpec } from '../../../shared/request.ts';
import { DIALECT_PATHS } from '../../../shared/dialects.ts';
import { chatMessages, isObj, str, type Obj, SSE_CONTENT_TYPE } from './common.ts';
import { OpenAiChunkDecoder, openAiParams, type ChoiceOutput } from './openai-common.ts';
import type { Dialect, ToolDelta } from './types.ts';
import { withOpenAiImages } from './images.ts';
import { openAiChatMessages, openAiChatToolFields } from './tools-body.ts';

/**
 * - `content` and `refusal` are answer text; `content` is null in llama.cpp's role chunk and in
 *   SGLang's finish chunk, `""` in vLLM's role/EOS chunks — all no output.
 * - Reasoning is `delta.reasoning` (new vLLM, Ollama) or `delta.reasoning_content` (old vLLM,
 *   SGLang — always present there, usually null — llama.cpp). Some builds send both with the
 *   same text, so one is taken, never both.
 * - Tool calls stream `tool_calls[i].function.{name,arguments}` fragments (and the deprecated
 *   `function_call`); they are generated output.
 */
function readDelta(choice: Obj): ChoiceOutput {
  const d = isObj(choice.delta) ? choice.delta : isObj(choice.message) ? choice.message : {};
  const text = str(d.content) + str(d.refusal);
  const reasoning = str(d.reasoning) || str(d.reasoning_content);
  let toolCall = '';
  const toolDeltas: ToolDelta[] = [];
  if (Array.isArray(d.tool_calls)) {
    d.tool_calls.forEach((tc, k) => {
      if (!isObj(tc)) return;
      toolCall += functionText(tc.function);
      toolDeltas.push(toolDeltaOf(tc, k));
    });
  }
  if (isObj(d.function_call)) {
    toolCall += functionText(d.function_call);
    toolDeltas.push(toolDeltaOf({ function: d.function_call }, 0));
  }
  return toolDeltas.length > 0 ? { text, reasoning, toolCall, toolDeltas } : { text, reasoning, toolCall };
}

/**
 * One `tool_calls[]` entry: vLLM sends the call's id, type and name in its first delta (arguments
 * empty or a first fragment), then `{"index":i,"function":{"arguments":"…"}}` fragments. `index`
 * says which call; a server that omits it is read by position.
 */
function toolDeltaOf(tc: Obj, position: number): ToolDelta {
  const f = isObj(tc.function) ? tc.function : {};
  const index = typeof tc.index === 'number' && Number.isSafeInteger(tc.index) ? tc.index : position;
  const out: ToolDelta = { index, args: str(f.arguments) };
  if (typeof tc.id === 'string' && tc.id) out.id = tc.id;
  if (typeof f.name === 'string' && f.name) out.name = f.name;
  return out;
}

function functionText(f: unknown): string {
  return isObj(f) ? str(f.name) + str(f.arguments) : '';
}

export const openAiChat: Dialect = {
  id: 'openai-chat',
  framing: 'sse',
  contentType: SSE_CONTENT_TYPE,
  terminator: 'data: [DONE]',
  path: DIALECT_PATHS['openai-chat'],
  buildBody(spec: RequestSpec) {
    return {
      model: spec.model,
      // Images go with single requests (the workload refuses them with agentic sessions).
      messages: spec.images?.length
        ? withOpenAiImages(chatMessages(spec), spec.images)
        : spec.messages?.length
          ? openAiChatMessages(spec.messages)
          : chatMessages(spec),
      stream: true,
      ...openAiParams(spec),
      ...openAiChatToolFields(spec),
    };
  },
  createDecoder() {
    return new OpenAiChunkDecoder(readDelta);
  },
};
