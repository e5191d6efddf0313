import type { RequestError } from '../../shared/errors.ts';

/** Map a Node socket/TLS error to its class (docs/ARCHITECTURE.md "Dialects and errors"). */
export function classifySocketError(
  e: Error & { code?: string },
  atMs: number,
  midStream: boolean,
): RequestError {
  const code = e.code ?? '';
  const where = midStream ? ' after the response started' : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    return { kind: 'network', code: 'dns', message: `DNS lookup failed (${code}): ${e.message}`, atMs };
  if (code === 'ECONNREFUSED')
    return {
      kind: 'network',
      code: 'refused',
      message: `Connection refused: is the server running? (${e.message})`,
      atMs,
    };
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    e.message === 'aborted'
  )
    return { kind: 'network', code: 'reset', message: `Connection reset by the server${where}.`, atMs };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT')
    return { kind: 'network', code: 'unreachable', message: `Host unreachable (${code}).`, atMs };
  if (
    /CERT|TLS|SSL|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_SSL/i.test(code) ||
    /certificate|ssl|tls/i.test(e.message)
  )
    return {
      kind: 'network',
      code: 'tls',
      message: `TLS failed (${code || 'handshake'}): ${e.message}`,
      atMs,
    };
  if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_'))
    return {
      kind: 'protocol',
      code: 'bad-frame',
      message: `Malformed HTTP response (${code}): ${e.message}`,
      atMs,
    };
  return {
    kind: 'network',
    code: 'network-other',
    message: `${code ? code + ': ' : ''}${e.message}${where}`,
    atMs,
  };
}

/** An error status before the stream, with the server's own message pulled out of its body. */
export function httpStatusError(status: number, body: string, atMs: number): RequestError {
  return {
    kind: 'http',
    code: 'status',
    status,
    body,
    message: `HTTP ${status}: ${errorMessageFromBody(body)}`,
    atMs,
  };
}

/** The human message inside the error bodies of vLLM, SGLang, TGI, llama.cpp, Ollama, OpenAI, Anthropic. */
export function errorMessageFromBody(body: string): string {
  const trimmed = body.trim();
  try {
    const j = JSON.parse(trimmed) as unknown;
    const m = pickMessage(j);
    if (m) return m;
  } catch {
    /* not JSON: fall through to the text */
  }
  if (trimmed.length === 0) return '(empty body)';
  return trimmed.length > 300 ? trimmed.slice(0, 300) + '…' : trimmed;
}

function pickMessage(j: unknown): string | null {
  if (typeof j === 'string') return j;
  if (typeof j !== 'object' || j === null) return null;
  const o = j as Record<string, unknown>;
  if (typeof o.message === 'string') return o.message;
  if (typeof o.error === 'string') return o.error;
  if (typeof o.error === 'object' && o.error !== null) return pickMessage(o.error);
  if (typeof o.detail === 'string') return o.detail;
  return null;
}
