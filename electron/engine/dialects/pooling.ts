/**
 * What the two non-streaming dialects (openai-embeddings, rerank) share: the answer is one JSON
 * document read whole at its end, so the record gets the end-to-end time, the server's usage and
 * the batch (inputs sent, results received) — and no events: nothing here pretends a token arrived.
 *
 * A body that is not what the dialect promises is classified, never thrown, and what it did say is
 * kept: not JSON, or cut at the engine's cap → protocol/bad-json; an error object with 2xx →
 * server/error-event; JSON of the wrong shape, or fewer/more results than asked →
 * protocol/bad-response (its usage still read).
 */
import type { RequestError } from '../../../shared/errors.ts';
import type { RequestRecord } from '../../../shared/record.ts';
import type { RequestSpec } from '../../../shared/request.ts';
import { errorMessageFromBody } from '../classify.ts';
import { count, isObj, type Obj } from './common.ts';
import type { EventDecoder, NonStreamedBody, StreamContentType } from './types.ts';

/** The answer is one JSON document. */
export const JSON_CONTENT_TYPE: StreamContentType = {
  expected: 'application/json',
  accepted: ['application/json'],
};

export const POOLING_TERMINATOR = 'one whole JSON document';

/** The inputs one request carries: `inputs`, else the prompt alone (a batch of one). */
export function inputsOf(spec: RequestSpec): string[] {
  if (spec.inputs && spec.inputs.length > 0) return spec.inputs;
  return [spec.prompt ?? spec.messages?.map((m) => m.content).join('\n') ?? ''];
}

/** Never called for an answer that is not a stream; here so a stray frame is still classified. */
export function noStreamDecoder(): EventDecoder {
  return {
    decode: () => ({
      kind: 'invalid',
      text: '',
      tokens: null,
      invalidReason: 'this dialect answers with one JSON document, not a stream',
    }),
  };
}

const BODY_SAMPLE = 4096;

/** The body parsed to an object, or the error that says why it is not one. */
export function parseBody(body: NonStreamedBody): { ok: true; o: Obj } | { ok: false; error: RequestError } {
  const { text, size, atMs } = body;
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    const cut = size > text.length;
    return {
      ok: false,
      error: {
        kind: 'protocol',
        code: 'bad-json',
        message: cut
          ? `The answer (${size} bytes) is past the ${text.length}-byte limit kept for one response: not read.`
          : 'The answer is not valid JSON.',
        body: text.slice(0, BODY_SAMPLE),
        atMs,
      },
    };
  }
  if (!isObj(j)) return { ok: false, error: badResponse('the answer is not a JSON object', text, atMs) };
  if (j.error !== undefined || j.object === 'error' || (j.detail !== undefined && j.data === undefined))
    return {
      ok: false,
      error: {
        kind: 'server',
        code: 'error-event',
        message: `The server answered 2xx with an error: ${errorMessageFromBody(text)}`,
        body: text.slice(0, BODY_SAMPLE),
        atMs,
      },
    };
  return { ok: true, o: j };
}

export function badResponse(why: string, text: string, atMs: number): RequestError {
  return {
    kind: 'protocol',
    code: 'bad-response',
    message: `The answer is not what the dialect promises: ${why}.`,
    body: text.slice(0, BODY_SAMPLE),
    atMs,
  };
}

/**
 * The server's usage (vLLM's UsageInfo: prompt_tokens, total_tokens; Cohere's rerank:
 * meta.billed_units.search_units carries no tokens), its model and id, onto the record.
 */
export function readCommon(rec: RequestRecord, o: Obj): void {
  const u = isObj(o.usage) ? o.usage : null;
  if (u) {
    const prompt = count(u.prompt_tokens) ?? count(u.input_tokens);
    const total = count(u.total_tokens);
    // Older vLLM rerank answers give total_tokens only: all of them are input.
    rec.usage = { promptTokens: prompt ?? total, completionTokens: 0, totalTokens: total };
  }
  if (typeof o.model === 'string') rec.responseModel = o.model;
  if (typeof o.id === 'string') rec.responseId = o.id;
}
