/**
 * OpenAI (legacy) completions `/v1/completions`: vLLM, SGLang, TGI, llama.cpp, Ollama
 * (test-corpus/FORMATS.md §2.1–2.5). Each choice carries a `text` delta; the envelope is openai-common.ts.
 * Quirks handled there: TGI's `finish_reason: ""`, Ollama's all-zero `usage` on every chunk,
 * llama.cpp's `usage` on the finish chunk itself (§6.5).
 */
import type { RequestSpec } from '../../../shared/request.ts';
import { DIALECT_PATHS } from '../../../shared/dialects.ts';
import { promptText, str, type Obj, SSE_CONTENT_TYPE } from './common.ts';
import { OpenAiChunkDecoder, openAiParams, type ChoiceOutput } from './openai-common.ts';
import type { Dialect } from './types.ts';

function readText(choice: Obj): ChoiceOutput {
  return { text: str(choice.text), reasoning: '', toolCall: '' };
}

export const openAiCompletions: Dialect = {
  id: 'openai-completions',
  framing: 'sse',
  contentType: SSE_CONTENT_TYPE,
  terminator: 'data: [DONE]',
  path: DIALECT_PATHS['openai-completions'],
  buildBody(spec: RequestSpec) {
    return { model: spec.model, prompt: promptText(spec), stream: true, ...openAiParams(spec) };
  },
  createDecoder() {
    return new OpenAiChunkDecoder(readText);
  },
};
