/**
 * Answers that are not the stream asked for, kept in the server's own words:
 * - a redirect or a rate limit says where to go and when to come back (Location, Retry-After);
 * - a 200 with one JSON document (the server or a proxy ignored `stream: true`, or answered with an
 *   error object) is read whole: the server's error message, or the non-streamed result with its
 *   text, measured as what it is (end-to-end only: no per-token timing exists);
 * - a compressed stream is refused plainly: a compressor buffers, so when each event was written
 *   is lost, and Tokenscope asked for identity.
 */
import type { RequestError } from '../../shared/errors.ts';
import type { DialectId } from '../../shared/dialects.ts';
import type { RequestRecord } from '../../shared/record.ts';
import { errorMessageFromBody } from './classify.ts';

export function withResponseHints(
  e: RequestError,
  location: string | null,
  retryAfter: string | null,
): RequestError {
  const out: RequestError = { ...e };
  if (location && e.status !== undefined && e.status >= 300 && e.status < 400) {
    out.location = location;
    out.message = `HTTP ${e.status}: redirected to ${location}. Tokenscope does not follow redirects (a stream's timing would include the detour): point the target at the new address.`;
  }
  if (retryAfter) {
    out.retryAfter = retryAfter;
    const secs = /^\d+$/.test(retryAfter.trim()) ? `${retryAfter.trim()} s` : retryAfter;
    out.message = `${out.message} (the server asks to retry after ${secs})`;
  }
  return out;
}

export function compressedError(encoding: string, atMs: number): RequestError {
  return {
    kind: 'protocol',
    code: 'compressed',
    message:
      `The server compressed the stream (Content-Encoding: ${encoding}) although Tokenscope asked for identity: ` +
      'a compressor buffers events, so their arrival times would not be the server’s. Turn compression off for ' +
      'text/event-stream on the server or the proxy in front of it (e.g. nginx: gzip off).',
    atMs,
  };
}

function obj(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The generated text of a non-streamed response, per dialect; null when the shape is not one. */
function nonStreamedText(dialect: DialectId, j: unknown): string | null {
  const o = obj(Array.isArray(j) ? j[0] : j);
  if (!o) return null;
  const choice = Array.isArray(o.choices) ? obj(o.choices[0]) : null;
  switch (dialect) {
    case 'openai-chat': {
      const m = choice ? obj(choice.message) : null;
      return typeof m?.content === 'string' ? m.content : null;
    }
    case 'openai-completions':
      return typeof choice?.text === 'string' ? choice.text : null;
    case 'openai-responses': {
      if (typeof o.output_text === 'string') return o.output_text;
      const parts: string[] = [];
      for (const item of Array.isArray(o.output) ? o.output : [])
        for (const c of Array.isArray(obj(item)?.content) ? (obj(item)!.content as unknown[]) : [])
          if (typeof obj(c)?.text === 'string') parts.push(obj(c)!.text as string);
      return parts.length ? parts.join('') : null;
    }
    case 'anthropic-messages': {
      // A Message: `content` is a list of blocks; its text blocks are the answer.
      const parts = (Array.isArray(o.content) ? o.content : [])
        .map((c) => obj(c))
        .filter((c) => c?.type === 'text' && typeof c.text === 'string')
        .map((c) => c!.text as string);
      return parts.length ? parts.join('') : null;
    }
    case 'tgi':
      return typeof o.generated_text === 'string' ? o.generated_text : null;
    case 'llamacpp':
      return typeof o.content === 'string'
        ? o.content
        : typeof choice?.text === 'string'
          ? choice.text
          : null;
    default:
      return typeof o.response === 'string' ? o.response : null;
  }
}

function isErrorObject(j: unknown): boolean {
  const o = obj(j);
  return (
    !!o &&
    (o.error !== undefined || (o.detail !== undefined && o.choices === undefined) || o.object === 'error')
  );
}

/**
 * A 2xx answered with one JSON document instead of a stream. The record gets the text and usage
 * when it is a result; the returned error says which of the two it was.
 */
export function readJsonBody(
  dialect: DialectId,
  rec: RequestRecord,
  text: string,
  size: number,
  atMs: number,
): RequestError {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return {
      kind: 'protocol',
      code: 'content-type',
      message: `The server answered application/json instead of a stream, and the body is not valid JSON${size > text.length ? ' (too large to keep whole)' : ''}.`,
      body: text.slice(0, 4096),
      atMs,
    };
  }
  if (isErrorObject(j))
    return {
      kind: 'server',
      code: 'error-event',
      message: `The server answered 200 with an error instead of a stream: ${errorMessageFromBody(text)}`,
      body: text.slice(0, 4096),
      atMs,
    };
  const out = nonStreamedText(dialect, j);
  if (out !== null) rec.text = out;
  const o = obj(j);
  const usage = obj(o?.usage);
  if (usage) {
    const n = (k: string): number | null => (typeof usage[k] === 'number' ? (usage[k] as number) : null);
    rec.usage = {
      promptTokens: n('prompt_tokens') ?? n('input_tokens'),
      completionTokens: n('completion_tokens') ?? n('output_tokens'),
      totalTokens: n('total_tokens'),
    };
  }
  const choice = Array.isArray(o?.choices) ? obj(o!.choices[0]) : null;
  if (typeof choice?.finish_reason === 'string') rec.finishReason = choice.finish_reason;
  else if (typeof o?.stop_reason === 'string') rec.finishReason = o.stop_reason; // Anthropic's Message
  return {
    kind: 'protocol',
    code: 'not-streamed',
    message:
      `Not streamed: the server answered with one JSON document (it ignored stream: true). ` +
      `Only the end-to-end time (${atMs.toFixed(1)} ms) is measured; there is no per-token timing.` +
      (out !== null ? ` Its text (${out.length} characters) is kept.` : ''),
    body: text.slice(0, 4096),
    atMs,
  };
}
