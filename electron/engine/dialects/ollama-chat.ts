/** Ollama `/api/chat` (NDJSON, test-corpus/FORMATS.md §2.5). Decoding is shared with /api/generate in ollama.ts. */
import type { RequestSpec } from '../../../shared/request.ts';
import { DIALECT_PATHS } from '../../../shared/dialects.ts';
import { chatMessages, defined, NDJSON_CONTENT_TYPE } from './common.ts';
import { OllamaDecoder, ollamaOptions, readChat } from './ollama.ts';
import type { Dialect } from './types.ts';

export const ollamaChat: Dialect = {
  id: 'ollama-chat',
  framing: 'ndjson',
  contentType: NDJSON_CONTENT_TYPE,
  terminator: 'a final line with done: true',
  path: DIALECT_PATHS['ollama-chat'],
  buildBody(spec: RequestSpec) {
    return {
      model: spec.model,
      messages: chatMessages(spec),
      stream: true,
      ...defined({ options: ollamaOptions(spec) }),
    };
  },
  createDecoder() {
    return new OllamaDecoder(readChat);
  },
};
