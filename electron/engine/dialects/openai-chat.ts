/**
 * OpenAI chat completions, as spoken by vLLM, SGLang, TGI `/v1`, llama.cpp `/v1`, Ollama `/v1`,
 * LM Studio and OpenAI itself (test-corpus/FORMATS.md §2.1–2.5, §2.8). The envelope is in openai-common.ts;
 * this file reads one choice's `delta`.
 */
import type { RequestSpec } from '../../../shared/request.ts';
import { DIALECT_PATHS } from '../../../shared/dialects.ts';
import { chatMessages, isObj, str, type Obj, SSE_CONTENT_TYPE } from './common.ts';
import { OpenAiChunkDecoder, openAiParams, type ChoiceOutput } from './openai-common.ts';
import type { Dialect } from './types.ts';
import { withOpenAiImages } from './images.ts';

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
  if (Array.isArray(d.tool_calls)) {
    for (const tc of d.tool_calls) if (isObj(tc)) toolCall += functionText(tc.function);
  }
  toolCall += functionText(d.function_call);
  return { text, reasoning, toolCall };
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
      messages: withOpenAiImages(chatMessages(spec), spec.images),
      stream: true,
      ...openAiParams(spec),
    };
  },
  createDecoder() {
    return new OpenAiChunkDecoder(readDelta);
  },
};
