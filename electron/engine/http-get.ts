/**
 * The one small GET of the core, for model lists and /metrics scrapes (streams go through the
 * stream-I/O engine instead). Never throws: failures come back as values classified like every
 * other request error (shared/errors.ts), with the secrets the request carried redacted from the
 * message and body (a server may echo a key back). Bounded in time and size; can be cancelled; can
 * ask for gzip/deflate and decode it as it comes, the size limit then counting decoded bytes.
 */
import { errorMessage, type Result } from '../../shared/result.ts';
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { RequestError } from '../../shared/errors.ts';
import { redactText, secretHeaderValues, urlSecrets } from '../../shared/redact.ts';
import { classifySocketError, httpStatusError } from './classify.ts';
import { now } from './clock.ts';

export interface HttpGetOptions {
  headers?: Record<string, string>;
  /** Whole exchange, headers to last byte (default 5 s). */
  timeoutMs?: number;
  insecureTls?: boolean;
  /** Body bytes kept, decoded; past it the GET fails (default 32 MiB). */
  maxBytes?: number;
  signal?: AbortSignal;
  /** The Accept header (default: JSON, then text). */
  accept?: string;
  /** Ask for gzip or deflate and decode it (default: identity only). */
  decompress?: boolean;
  /** What the GET is, in its messages: "request" (default), "scrape"; and what its body is. */
  noun?: string;
  bodyName?: string;
}

export interface GetResult {
  status: number;
  contentType: string | null;
  body: string;
  /** Bytes of the body, decoded. */
  bytes: number;
  /** The Content-Encoding the body came in, when not identity (gzip, deflate). */
  encoding?: string;
  /** When the response headers arrived, on the engine's monotonic clock (engine/clock.ts). */
  headersAtMs: number;
  /** The same instant as wall-clock epoch ms (engine/clock.ts wallNow): a label, never a duration. */
  wallMs: number;
}

export type GetOutcome = Result<GetResult, RequestError>;

const DEFAULT_ACCEPT = 'application/json, text/plain;q=0.9, */*;q=0.5';

export function httpGet(url: URL, opts: HttpGetOptions = {}): Promise<GetOutcome> {
  const noun = opts.noun ?? 'request';
  const timeoutMs = opts.timeoutMs ?? 5000;
  return new Promise((resolve) => {
    const started = now();
    const since = (): number => now() - started;
    let done = false;
    const secrets = [...secretHeaderValues(opts.headers), ...urlSecrets(url.href)];
    const settle = (r: GetOutcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(r.ok ? r : { ok: false, error: redactError(r.error, secrets) });
    };
    const fail = (error: RequestError): void => {
      settle({ ok: false, error });
      req.destroy();
    };
    const onAbort = (): void =>
      fail({ kind: 'client', code: 'cancelled', message: `The ${noun} was cancelled.`, atMs: since() });
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      const message = `Unsupported URL scheme "${url.protocol}" (use http: or https:).`;
      resolve({ ok: false, error: { kind: 'network', code: 'network-other', message } });
      return;
    }
    const opened = openRequest(url, opts, noun);
    if (!opened.ok) return resolve(opened);
    const req = opened.value;
    // Before anything can destroy the request: an 'error' without a listener would crash the process.
    req.on('error', (e) => settle({ ok: false, error: classifySocketError(e, since(), false) }));
    const timer = setTimeout(
      () =>
        fail({
          kind: 'client',
          code: 'timeout',
          message: `No complete answer within ${timeoutMs} ms.`,
          atMs: since(),
        }),
      timeoutMs,
    );
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort);
    const reading: Reading = {
      bodyName: opts.bodyName ?? 'response body',
      max: opts.maxBytes ?? 32 * 1024 * 1024,
      decompress: opts.decompress ?? false,
      since,
      settle,
      fail,
    };
    req.on('response', (res) => readResponse(res, reading));
    req.end();
  });
}

function redactError(error: RequestError, secrets: readonly string[]): RequestError {
  return {
    ...error,
    message: redactText(error.message, secrets),
    ...(error.body !== undefined ? { body: redactText(error.body, secrets) } : {}),
  };
}

/** The GET, not yet sent; an error when Node refuses to build it. */
function openRequest(url: URL, opts: HttpGetOptions, noun: string): Result<http.ClientRequest, RequestError> {
  const mod = url.protocol === 'https:' ? https : http;
  try {
    const req = mod.request(url, {
      method: 'GET',
      headers: {
        accept: opts.accept ?? DEFAULT_ACCEPT,
        'accept-encoding': opts.decompress ? 'gzip, deflate' : 'identity',
        ...(opts.headers ?? {}),
      },
      agent: false,
      ...(url.protocol === 'https:' ? { rejectUnauthorized: opts.insecureTls !== true } : {}),
    });
    return { ok: true, value: req };
  } catch (e) {
    // Node refuses a header value it cannot send (a non-Latin-1 character in a key) synchronously.
    return {
      ok: false,
      error: {
        kind: 'client',
        code: 'invalid-request',
        message: `The ${noun} could not be sent: ${errorMessage(e)} (a pasted character in the API key or a header?)`,
        atMs: 0,
      },
    };
  }
}

/** What reading a response needs from its GET: the limits, the clock, and how to end it. */
interface Reading {
  bodyName: string;
  /** Body bytes kept, decoded. */
  max: number;
  decompress: boolean;
  /** Milliseconds since the GET started. */
  since: () => number;
  settle: (r: GetOutcome) => void;
  /** Settles with the error and destroys the request. */
  fail: (error: RequestError) => void;
}

function readResponse(res: http.IncomingMessage, g: Reading): void {
  const headersAtMs = now();
  const wallMs = performance.timeOrigin + headersAtMs;
  const parts: Buffer[] = [];
  let size = 0;
  const encoding = String(res.headers['content-encoding'] ?? 'identity')
    .toLowerCase()
    .trim();
  const stream = bodyStream(res, encoding, g);
  if (!stream) return;
  stream.on('data', (b: Buffer) => {
    size += b.length;
    if (size <= g.max) parts.push(b);
    else {
      if (stream !== res) (stream as zlib.Gunzip).destroy(); // no more inflating a bomb
      g.fail({
        kind: 'protocol',
        code: 'bad-frame',
        message: `The ${g.bodyName} is larger than ${g.max} bytes${stream !== res ? ` once decoded (${encoding})` : ''}; stopped reading.`,
        atMs: g.since(),
      });
    }
  });
  res.on('error', (e) => g.settle({ ok: false, error: classifySocketError(e, g.since(), true) }));
  stream.on('end', () => {
    const body = Buffer.concat(parts).toString('utf8');
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300)
      return g.settle({ ok: false, error: httpStatusError(status, body.slice(0, 2000), g.since()) });
    g.settle({
      ok: true,
      value: {
        status,
        contentType: (res.headers['content-type'] as string | undefined) ?? null,
        body,
        bytes: size,
        headersAtMs,
        wallMs,
        ...(encoding !== 'identity' && encoding !== '' ? { encoding } : {}),
      },
    });
  });
}

/**
 * The body as it comes: decoded when gzip/deflate was asked for and sent; null (the GET has
 * failed) when it came in an encoding that cannot be read.
 */
function bodyStream(res: http.IncomingMessage, encoding: string, g: Reading): NodeJS.ReadableStream | null {
  if (g.decompress && (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate')) {
    // Decoded as it comes; the size limit is on the DECODED bytes (a gzip bomb stops at it).
    const z = encoding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
    z.on('error', (e) =>
      g.fail({
        kind: 'protocol',
        code: 'bad-frame',
        message: `The ${g.bodyName} is not valid ${encoding}: ${e.message}`,
        atMs: g.since(),
      }),
    );
    return res.pipe(z);
  }
  if (encoding !== 'identity' && encoding !== '') {
    g.fail({
      kind: 'protocol',
      code: 'content-type',
      message: `The server sent the ${g.bodyName} with Content-Encoding "${encoding.slice(0, 40)}", which Tokenscope cannot decode (it asked for ${g.decompress ? 'gzip, deflate or none' : 'none'}).`,
      atMs: g.since(),
    });
    return null;
  }
  return res;
}
