/** Ollama `/api/generate` (NDJSON, test-corpus/FORMATS.md §2.5). Decoding is shared with /api/chat in ollama.ts. */
import type { RequestSpec } from '../../../shared/request.ts';
import { DIALECT_PATHS } from '../../../shared/dialects.ts';
import { defined, promptText, NDJSON_CONTENT_TYPE } from './common.ts';
import { OllamaDecoder, ollamaOptions, readGenerate } from './ollama.ts';
import type { Dialect } from './types.ts';

export const ollamaGenerate: Dialect = {
  id: 'ollama-generate',
  framing: 'ndjson',
  contentType: NDJSON_CONTENT_TYPE,
  terminator: 'a final line with done: true',
  path: DIALECT_PATHS['ollama-generate'],
  buildBody(spec: RequestSpec) {
    return {
      model: spec.model,
      prompt: promptText(spec),
      stream: true,
      ...defined({ options: ollamaOptions(spec) }),
    };
  },
  createDecoder() {
    return new OllamaDecoder(readGenerate);
  },
};
