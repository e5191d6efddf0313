/**
 * What fireRequest (client.ts) settles before a byte is sent: the endpoint, the body, the headers
 * (checked) and the secrets to redact. A request that cannot be sent becomes a failed record here.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { newRecord, type RequestRecord, type TraceContext } from '../../shared/record.ts';
import type { RequestSpec } from '../../shared/request.ts';
import type { RequestError } from '../../shared/errors.ts';
import { headerValueProblem } from '../../shared/api.ts';
import { apiKeyHeader, dialectHeaders } from '../../shared/dialects.ts';
import { redactUrlsIn, secretHeaderValues, urlSecrets } from '../../shared/redact.ts';
import { wallNow } from './clock.ts';
import { resolveEndpoint, redactUrl } from './endpoint.ts';
import { getDialect, type Dialect } from './dialects/index.ts';
import { bodyOf } from './image-body.ts';
import { partsLength, type BodyPart } from './io/blobs.ts';

/** The longest delay a Node timer takes (2^31 − 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface PreparedRequest {
  dialect: Dialect;
  /** The endpoint as given (credentials included): the record shows it redacted. */
  endpoint: URL;
  /** The URL handed to the I/O thread: credentials travel in the header, never in it. */
  target: URL;
  /** Text, or text parts around image blobs for a body with large images (bodyOf). */
  body: string | BodyPart[];
  headers: Record<string, string>;
  /** What a server may echo back in its error and must never be kept in clear. */
  secrets: string[];
  /** The trace context sent (absent: trace headers off, or the user's own traceparent). */
  trace?: TraceContext;
}

/** The record's id and raw-keeping, as fireRequest's options give them. */
export interface RecordOptions {
  id?: string;
  keepRaw?: boolean;
}

export function prepareRequest(
  spec: RequestSpec,
  opts: RecordOptions,
): PreparedRequest | { failed: RequestRecord } {
  const dialect = getDialect(spec.dialect);
  let endpoint: URL;
  try {
    endpoint = resolveEndpoint(spec.url, spec.dialect);
  } catch {
    return { failed: failedBeforeStart(spec, opts, `Invalid URL: ${spec.url}`) };
  }
  const timeoutProblem = timeoutsProblem(spec);
  if (timeoutProblem) return { failed: failedBeforeStart(spec, opts, timeoutProblem) };
  const body = bodyOf(dialect, spec);
  const secrets = [
    ...(spec.apiKey ? [spec.apiKey] : []),
    ...secretHeaderValues(spec.headers),
    ...urlSecrets(spec.url),
  ];
  const headers = requestHeaders(spec, dialect, endpoint, body);
  const trace = spec.traceHeaders === false ? undefined : addTraceHeaders(headers);
  const headerProblem = headersProblem(spec, headers);
  if (headerProblem) return { failed: failedBeforeStart(spec, opts, headerProblem) };
  // Credentials travel in the header, never in the URL handed to the I/O thread.
  const target = new URL(endpoint.href);
  target.username = '';
  target.password = '';
  return { dialect, endpoint, target, body, headers, secrets, ...(trace ? { trace } : {}) };
}

/**
 * A fresh W3C trace context per request (https://www.w3.org/TR/trace-context/ §3.2: version 00,
 * 16-byte trace id, 8-byte parent id, flags 01 = sampled) and an `x-request-id`: a server that
 * traces (vLLM with --otlp-traces-endpoint) continues this trace, so its span joins this request
 * by trace id. Headers the user set (any case) win: then only what they carry is recorded.
 */
/**
 * Random bytes as hex, taken from a pool filled 4 KiB at a time (the CSPRNG, as randomUUID caches
 * its own): two randomBytes calls a request were 5 % of the measuring thread at 500 requests/s.
 */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomAt = 0;
function randomHex(n: number): string {
  if (randomAt + n > randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomAt = 0;
  }
  const s = randomPool.toString('hex', randomAt, randomAt + n);
  randomAt += n;
  return s;
}

function addTraceHeaders(headers: Record<string, string>): TraceContext | undefined {
  const own = (name: string): string | undefined =>
    Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const userParent = own('traceparent');
  const userId = own('x-request-id');
  const requestId = userId ?? randomUUID();
  if (userId === undefined) headers['x-request-id'] = requestId;
  if (userParent !== undefined) {
    const m = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(userParent.trim());
    return m?.[1] && m[2] ? { traceId: m[1], spanId: m[2], requestId } : undefined;
  }
  const traceId = randomHex(16);
  const spanId = randomHex(8);
  headers.traceparent = `00-${traceId}-${spanId}-01`;
  return { traceId, spanId, requestId };
}

/** Node's timers fire after 1 ms when given more than 2^31 − 1 ms: refuse such a timeout plainly. */
function timeoutsProblem(spec: RequestSpec): string | null {
  for (const [name, v] of [
    ['timeout', spec.timeoutMs],
    ['idle timeout', spec.idleTimeoutMs],
  ] as const) {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= MAX_TIMER_MS))
      return `The ${name} must be between 0 and ${MAX_TIMER_MS} ms (about 24.8 days); got ${v}.`;
  }
  return null;
}

function requestHeaders(
  spec: RequestSpec,
  dialect: Dialect,
  endpoint: URL,
  body: string | BodyPart[],
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: dialect.readResponse
      ? 'application/json'
      : dialect.framing === 'ndjson'
        ? 'application/x-ndjson, application/json'
        : 'text/event-stream',
    'accept-encoding': 'identity', // compressed bodies would hide the server's write boundaries
    'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : partsLength(body)),
    ...(spec.headers ?? {}),
    // The key as the dialect's server wants it (Anthropic: x-api-key, plus anthropic-version).
    ...dialectHeaders(dialect.id, spec.apiKey, spec.headers),
  };
  if (endpoint.username || endpoint.password) {
    headers.authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(endpoint.username)}:${decodeURIComponent(endpoint.password)}`).toString('base64')}`;
  }
  return headers;
}

/**
 * A value no HTTP header can carry (a pasted non-Latin-1 character in a key) is a clear error
 * before anything is sent, not a socket-level failure.
 */
function headersProblem(spec: RequestSpec, headers: Record<string, string>): string | null {
  const keyHeader = apiKeyHeader(spec.dialect);
  for (const [k, v] of Object.entries(headers)) {
    // Positions in the key as the user typed it, not in "Bearer <key>".
    const isKey = k === keyHeader && !!spec.apiKey;
    const problem = (isKey ? headerValueProblem(spec.apiKey!) : null) ?? headerValueProblem(v);
    if (problem) return `${isKey ? 'The API key' : `Header ${k}`} ${problem}.`;
  }
  return null;
}

export function failedBeforeStart(
  spec: RequestSpec,
  opts: RecordOptions,
  message: string,
  error: RequestError = { kind: 'client', code: 'invalid-request', message, atMs: 0 },
): RequestRecord {
  let url: string;
  try {
    url = redactUrl(new URL(spec.url));
  } catch {
    url = redactUrlsIn(spec.url);
  }
  return newRecord({
    id: opts.id ?? randomUUID(),
    url,
    dialect: spec.dialect,
    model: spec.model,
    startedAtWall: wallNow(),
    phases: { connectedMs: null, requestWrittenMs: null, headersMs: null, firstByteMs: null, endMs: 0 },
    raw: opts.keepRaw === false ? null : [],
    error,
  });
}
