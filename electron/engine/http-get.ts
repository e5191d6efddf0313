/**
 * The one small GET of the core, for model lists and /metrics scrapes (streams go through the
 * stream-I/O engine instead). Never throws: failures come back as values classified like every
 * other request error (shared/errors.ts), with the secrets the request carried redacted from the
 * message and body (a server may echo a key back). Bounded in time and size; can be cancelled; can
 * ask for gzip/deflate and decode it as it comes, the size limit then counting decoded bytes.
 */
import type { Result } from '../../shared/result.ts';
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

export const DEFAULT_ACCEPT = 'application/json, text/plain;q=0.9, */*;q=0.5';

export function httpGet(url: URL, opts: HttpGetOptions = {}): Promise<GetOutcome> {
  const noun = opts.noun ?? 'request';
  const bodyName = opts.bodyName ?? 'response body';
  const timeoutMs = opts.timeoutMs ?? 5000;
  const max = opts.maxBytes ?? 32 * 1024 * 1024;
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
      resolve(
        r.ok
          ? r
          : {
              ok: false,
              error: {
                ...r.error,
                message: redactText(r.error.message, secrets),
                ...(r.error.body !== undefined ? { body: redactText(r.error.body, secrets) } : {}),
              },
            },
      );
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
    const mod = url.protocol === 'https:' ? https : http;
    let req: http.ClientRequest;
    try {
      req = mod.request(url, {
        method: 'GET',
        headers: {
          accept: opts.accept ?? DEFAULT_ACCEPT,
          'accept-encoding': opts.decompress ? 'gzip, deflate' : 'identity',
          ...(opts.headers ?? {}),
        },
        agent: false,
        ...(url.protocol === 'https:' ? { rejectUnauthorized: opts.insecureTls !== true } : {}),
      });
    } catch (e) {
      // Node refuses a header value it cannot send (a non-Latin-1 character in a key) synchronously.
      resolve({
        ok: false,
        error: {
          kind: 'client',
          code: 'invalid-request',
          message: `The ${noun} could not be sent: ${(e as Error).message} (a pasted character in the API key or a header?)`,
          atMs: 0,
        },
      });
      return;
    }
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
    req.on('response', (res) => {
      const headersAtMs = now();
      const wallMs = performance.timeOrigin + headersAtMs;
      const parts: Buffer[] = [];
      let size = 0;
      const encoding = String(res.headers['content-encoding'] ?? 'identity')
        .toLowerCase()
        .trim();
      let stream: NodeJS.ReadableStream = res;
      if (opts.decompress && (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate')) {
        // Decoded as it comes; the size limit is on the DECODED bytes (a gzip bomb stops at it).
        const z = encoding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
        z.on('error', (e) =>
          fail({
            kind: 'protocol',
            code: 'bad-frame',
            message: `The ${bodyName} is not valid ${encoding}: ${e.message}`,
            atMs: since(),
          }),
        );
        stream = res.pipe(z);
      } else if (encoding !== 'identity' && encoding !== '') {
        return fail({
          kind: 'protocol',
          code: 'content-type',
          message: `The server sent the ${bodyName} with Content-Encoding "${encoding.slice(0, 40)}", which Tokenscope cannot decode (it asked for ${opts.decompress ? 'gzip, deflate or none' : 'none'}).`,
          atMs: since(),
        });
      }
      stream.on('data', (b: Buffer) => {
        size += b.length;
        if (size <= max) parts.push(b);
        else {
          if (stream !== res) (stream as zlib.Gunzip).destroy(); // no more inflating a bomb
          fail({
            kind: 'protocol',
            code: 'bad-frame',
            message: `The ${bodyName} is larger than ${max} bytes${stream !== res ? ` once decoded (${encoding})` : ''}; stopped reading.`,
            atMs: since(),
          });
        }
      });
      res.on('error', (e) => settle({ ok: false, error: classifySocketError(e, since(), true) }));
      stream.on('end', () => {
        const body = Buffer.concat(parts).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300)
          return settle({ ok: false, error: httpStatusError(status, body.slice(0, 2000), since()) });
        settle({
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
    });
    req.end();
  });
}
