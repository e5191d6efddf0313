/**
 * OpenAI embeddings `POST /v1/embeddings` (vLLM, SGLang, TEI, llama.cpp, Ollama's OpenAI layer):
 * one request embeds a batch — `input` a string or an array of them — and the answer is one JSON
 * document, not a stream. Shapes from vLLM's protocol (vllm/entrypoints/openai/protocol.py
 * `EmbeddingCompletionRequest`: model, input, encoding_format, dimensions; `EmbeddingResponse`:
 * id, object "list", created, model, data[{index, object "embedding", embedding}], usage
 * `UsageInfo` {prompt_tokens, total_tokens, completion_tokens}), which follow OpenAI's.
 */
import type { RequestSpec } from '../../../shared/request.ts';
import { DIALECT_PATHS } from '../../../shared/dialects.ts';
import type { RequestRecord } from '../../../shared/record.ts';
import type { RequestError } from '../../../shared/errors.ts';
import { isObj } from './common.ts';
import {
  JSON_CONTENT_TYPE,
  POOLING_TERMINATOR,
  badResponse,
  inputsOf,
  noStreamDecoder,
  parseBody,
  readCommon,
} from './pooling.ts';
import type { Dialect, NonStreamedBody } from './types.ts';

/** The vectors' length when every one is a float array of one length; null for base64; a string when wrong. */
function dimensionOf(data: readonly unknown[]): number | null | string {
  let dim: number | null = null;
  const seen = new Uint8Array(data.length);
  for (const item of data) {
    if (!isObj(item)) return 'an item of data is not an object';
    const i = item.index;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= data.length || seen[i])
      return `an embedding's index (${JSON.stringify(i)}) is missing, out of range or repeated`;
    seen[i] = 1;
    const e = item.embedding;
    if (typeof e === 'string') continue; // encoding_format base64: its length says nothing of the model's
    if (!Array.isArray(e) || e.length === 0 || typeof e[0] !== 'number')
      return `embedding ${i} is not an array of numbers`;
    if (dim !== null && e.length !== dim)
      return `embedding ${i} has ${e.length} values, the first had ${dim}`;
    dim = e.length;
  }
  return dim;
}

function readEmbeddings(rec: RequestRecord, spec: RequestSpec, body: NonStreamedBody): RequestError | null {
  const parsed = parseBody(body);
  if (!parsed.ok) return parsed.error;
  const { o } = parsed;
  readCommon(rec, o);
  const inputs = inputsOf(spec).length;
  if (!Array.isArray(o.data)) {
    rec.batch = { inputs, results: 0 };
    return badResponse('no `data` array of embeddings', body.text, body.atMs);
  }
  const dim = dimensionOf(o.data);
  rec.batch = { inputs, results: o.data.length, dimension: typeof dim === 'number' ? dim : null };
  if (typeof dim === 'string') return badResponse(dim, body.text, body.atMs);
  if (o.data.length !== inputs)
    return badResponse(`${o.data.length} embeddings for ${inputs} inputs`, body.text, body.atMs);
  rec.terminated = true;
  return null;
}

export const openAiEmbeddings: Dialect = {
  id: 'openai-embeddings',
  framing: 'sse',
  contentType: JSON_CONTENT_TYPE,
  terminator: POOLING_TERMINATOR,
  path: DIALECT_PATHS['openai-embeddings'],
  buildBody(spec: RequestSpec) {
    const inputs = inputsOf(spec);
    // A batch of one is sent as the string itself, as clients usually do.
    return {
      model: spec.model,
      input: spec.inputs && spec.inputs.length > 0 ? inputs : inputs[0],
      encoding_format: 'float',
    };
  },
  createDecoder: noStreamDecoder,
  readResponse: readEmbeddings,
};
