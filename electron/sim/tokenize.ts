/**
 * POST /tokenize, in the shape vLLM and llama.cpp serve it, with the simulator's own vocabulary
 * (text.ts: words with their leading space, punctuation, paragraph breaks): the count of the text it
 * generated is exactly the tokens it streamed for it. vLLM takes `{"model", "prompt",
 * "add_special_tokens"}` and answers `{"count", "max_model_len", "tokens"}`
 * (vllm/entrypoints/openai/protocol.py TokenizeCompletionRequest / TokenizeResponse); llama.cpp
 * takes `{"content", "add_special"}` and answers `{"tokens"}` (tools/server/server.cpp
 * handle_tokenize). One answer serves both: `tokens` and `count`.
 */
import type { ServerResponse } from 'node:http';
import { tokenId } from './text.ts';
import { sendError } from './generate.ts';

/** A word with its leading space, a punctuation mark or a paragraph break: text.ts's pieces. */
const PIECE = /\n\n|\n| ?[^\s.,?!]+|[.,?!]| /gu;

/** @internal exported for its tests */
export function simTokenize(text: string): number[] {
  return [...text.matchAll(PIECE)].map((m) => tokenId(m[0]));
}

export function serveTokenize(res: ServerResponse, raw: string, maxModelLen: number): void {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return sendError(res, {
      status: 400,
      contentType: 'application/json',
      body: '{"detail":"Invalid JSON"}',
    });
  }
  const o = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const text = typeof o.prompt === 'string' ? o.prompt : typeof o.content === 'string' ? o.content : null;
  if (text === null)
    return sendError(res, {
      status: 400,
      contentType: 'application/json',
      body: '{"detail":"`prompt` (vLLM) or `content` (llama.cpp) is required"}',
    });
  const tokens = simTokenize(text);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ count: tokens.length, max_model_len: maxModelLen, tokens }));
}
