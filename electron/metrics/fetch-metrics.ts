/**
 * One GET of a /metrics endpoint over node:http(s). Never throws: failures come back as values
 * classified like every other request error (shared/errors.ts), with the monotonic time the
 * response headers arrived (the best estimate of when the server rendered the body).
 */
import http from 'node:http';
import zlib from 'node:zlib';
import https from 'node:https';
import type { RequestError } from '../../shared/errors.ts';
import { classifySocketError, httpStatusError } from '../engine/classify.ts';
import { redactText, secretHeaderValues, urlSecrets } from '../../shared/redact.ts';

export interface FetchMetricsOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  insecureTls?: boolean;
  maxBodyBytes: number;
  signal?: AbortSignal;
}

export interface FetchedMetrics {
  status: number;
  contentType: string | null;
  body: string;
  /** Bytes of the body, decoded. */
  bytes: number;
  /** The Content-Encoding the body came in, when not identity (gzip, deflate). */
  encoding?: string;
  /** performance.now() when the response headers arrived. */
  headersAtMs: number;
  /** Date.now() at the same moment: a label, never a duration. */
  wallMs: number;
}

export type FetchMetricsResult = { ok: true; value: FetchedMetrics } | { ok: false; error: RequestError };
export type MetricsFetcher = (url: URL, opts: FetchMetricsOptions) => Promise<FetchMetricsResult>;

/**
 * `Accept: text/plain`: prometheus_client switches to OpenMetrics only when asked, and its
 * OpenMetrics output mangles vLLM/SGLang `:` names (FORMATS.md §3.1, pitfall 10).
 */
export const METRICS_ACCEPT = 'text/plain;version=0.0.4;q=1.0, */*;q=0.1';

export const fetchMetrics: MetricsFetcher = (url, opts) =>
  new Promise((resolve) => {
    const started = performance.now();
    const since = (): number => performance.now() - started;
    let done = false;
    // A server may echo the credentials back in its error: redacted before anyone keeps it.
    const secrets = [...secretHeaderValues(opts.headers), ...urlSecrets(url.href)];
    const settle = (r0: FetchMetricsResult): void => {
      if (done) return;
      done = true;
      const r: FetchMetricsResult = r0.ok
        ? r0
        : {
            ok: false,
            error: {
              ...r0.error,
              message: redactText(r0.error.message, secrets),
              ...(r0.error.body !== undefined ? { body: redactText(r0.error.body, secrets) } : {}),
            },
          };
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const fail = (error: RequestError): void => {
      settle({ ok: false, error });
      req.destroy();
    };
    const onAbort = (): void =>
      fail({ kind: 'client', code: 'cancelled', message: 'Scrape cancelled.', atMs: since() });
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
        // Prometheus client libraries gzip when asked (a large /metrics shrinks ~10×); the scrape's
        // time is not per-byte timing, so compression costs nothing here.
        headers: { accept: METRICS_ACCEPT, 'accept-encoding': 'gzip, deflate', ...(opts.headers ?? {}) },
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
          message: `The scrape could not be sent: ${(e as Error).message} (a pasted character in the API key or a header?)`,
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
          message: `No complete answer within ${opts.timeoutMs} ms.`,
          atMs: since(),
        }),
      opts.timeoutMs,
    );
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort);
    req.on('response', (res) => {
      const headersAtMs = performance.now();
      const wallMs = Date.now();
      const parts: Buffer[] = [];
      let size = 0;
      const encoding = String(res.headers['content-encoding'] ?? 'identity')
        .toLowerCase()
        .trim();
      let stream: NodeJS.ReadableStream = res;
      if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate') {
        // Decoded as it comes; the size limit is on the DECODED bytes (a gzip bomb stops at it).
        const z = encoding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
        z.on('error', (e) =>
          fail({
            kind: 'protocol',
            code: 'bad-frame',
            message: `The /metrics body is not valid ${encoding}: ${e.message}`,
            atMs: since(),
          }),
        );
        stream = res.pipe(z);
      } else if (encoding !== 'identity' && encoding !== '') {
        return fail({
          kind: 'protocol',
          code: 'content-type',
          message: `The server sent /metrics with Content-Encoding "${encoding.slice(0, 40)}", which Tokenscope cannot decode (it asked for gzip, deflate or none).`,
          atMs: since(),
        });
      }
      stream.on('data', (b: Buffer) => {
        size += b.length;
        if (size <= opts.maxBodyBytes) parts.push(b);
        else {
          if (stream !== res) (stream as zlib.Gunzip).destroy(); // no more inflating a bomb
          fail({
            kind: 'protocol',
            code: 'bad-frame',
            message: `The /metrics body is larger than ${opts.maxBodyBytes} bytes${encoding !== 'identity' ? ` once decoded (${encoding})` : ''}; stopped reading.`,
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
        const ct = res.headers['content-type'];
        settle({
          ok: true,
          value: {
            status,
            contentType: ct ?? null,
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
