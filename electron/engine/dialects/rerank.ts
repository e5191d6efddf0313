/**
 * Rerank `POST /v1/rerank` in the shape vLLM and Cohere share (vLLM serves it at /rerank,
 * /v1/rerank and /v2/rerank): a query, its documents and `top_n`; the answer is one JSON document
 * with `results` [{index, document: {text}, relevance_score}] — best first, at most top_n (0 or
 * absent: all). Shapes from vLLM's protocol (vllm/entrypoints/openai/protocol.py `RerankRequest`:
 * query, documents, top_n; `RerankResponse`: id, model, usage `RerankUsage` {prompt_tokens,
 * total_tokens} (older versions total_tokens only), results `RerankResult`).
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
  noStreamDecoder,
  parseBody,
  readCommon,
} from './pooling.ts';
import type { Dialect, NonStreamedBody } from './types.ts';

/** Why the results are not scored documents of this request, or null. */
function resultsProblem(results: readonly unknown[], documents: number): string | null {
  const seen = new Uint8Array(documents);
  for (const r of results) {
    if (!isObj(r)) return 'a result is not an object';
    const i = r.index;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= documents || seen[i])
      return `a result's index (${JSON.stringify(i)}) is missing, out of range or repeated`;
    seen[i] = 1;
    if (typeof r.relevance_score !== 'number') return `result ${i} has no numeric relevance_score`;
  }
  return null;
}

function readRerank(rec: RequestRecord, spec: RequestSpec, body: NonStreamedBody): RequestError | null {
  const parsed = parseBody(body);
  if (!parsed.ok) return parsed.error;
  const { o } = parsed;
  readCommon(rec, o);
  const documents = spec.inputs?.length ?? 0;
  if (!Array.isArray(o.results)) {
    rec.batch = { inputs: documents, results: 0 };
    return badResponse('no `results` array', body.text, body.atMs);
  }
  rec.batch = { inputs: documents, results: o.results.length };
  const problem = resultsProblem(o.results, documents);
  if (problem) return badResponse(problem, body.text, body.atMs);
  const want = spec.topN && spec.topN > 0 ? Math.min(spec.topN, documents) : documents;
  if (o.results.length !== want)
    return badResponse(`${o.results.length} results where ${want} were asked for`, body.text, body.atMs);
  rec.terminated = true;
  return null;
}

export const rerank: Dialect = {
  id: 'rerank',
  framing: 'sse',
  contentType: JSON_CONTENT_TYPE,
  terminator: POOLING_TERMINATOR,
  path: DIALECT_PATHS.rerank,
  buildBody(spec: RequestSpec) {
    return {
      model: spec.model,
      query: spec.prompt ?? '',
      documents: spec.inputs ?? [],
      ...(spec.topN !== undefined ? { top_n: spec.topN } : {}),
    };
  },
  createDecoder: noStreamDecoder,
  readResponse: readRerank,
};
