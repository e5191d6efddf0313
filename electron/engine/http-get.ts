import http from 'node:http';
import https from 'node:https';
import type { RequestError } from '../../shared/errors.ts';
import { classifySocketError, httpStatusError } from './classify.ts';

export interface GetResult {
  status: number;
  contentType: string | null;
  body: string;
}

/** A small GET with a timeout, for model lists, health and /metrics. Never throws. */
export function httpGet(
  url: URL,
  opts: {
    headers?: Record<string, string>;
    timeoutMs?: number;
    insecureTls?: boolean;
    maxBytes?: number;
  } = {},
): Promise<{ ok: true; value: GetResult } | { ok: false; error: RequestError }> {
  return new Promise((resolve) => {
    const mod = url.protocol === 'https:' ? https : http;
    const started = performance.now();
    const max = opts.maxBytes ?? 32 * 1024 * 1024;
    let done = false;
    const settle = (r: { ok: true; value: GetResult } | { ok: false; error: RequestError }): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    let req: http.ClientRequest;
    try {
      req = mod.request(url, {
        method: 'GET',
        headers: {
          accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
          'accept-encoding': 'identity',
          ...(opts.headers ?? {}),
        },
        agent: false,
        ...(url.protocol === 'https:' ? { rejectUnauthorized: opts.insecureTls !== true } : {}),
      });
    } catch (e) {
      // Node refuses a header value it cannot send (a non-Latin-1 character in a key) synchronously.
      done = true;
      resolve({
        ok: false,
        error: {
          kind: 'client',
          code: 'invalid-request',
          message: `The request could not be sent: ${(e as Error).message} (a pasted character in the API key or a header?)`,
          atMs: 0,
        },
      });
      return;
    }
    const timeoutMs = opts.timeoutMs ?? 5000;
    const timer = setTimeout(() => {
      req.destroy();
      settle({
        ok: false,
        error: {
          kind: 'client',
          code: 'timeout',
          message: `No answer within ${timeoutMs} ms.`,
          atMs: performance.now() - started,
        },
      });
    }, timeoutMs);
    req.on('error', (e) =>
      settle({ ok: false, error: classifySocketError(e, performance.now() - started, false) }),
    );
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (b: Buffer) => {
        size += b.length;
        if (size <= max) parts.push(b);
        else req.destroy();
      });
      res.on('end', () => {
        const body = Buffer.concat(parts).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          settle({ ok: false, error: httpStatusError(status, body, performance.now() - started) });
          return;
        }
        settle({
          ok: true,
          value: { status, contentType: (res.headers['content-type'] as string) ?? null, body },
        });
      });
      res.on('error', (e) =>
        settle({ ok: false, error: classifySocketError(e, performance.now() - started, true) }),
      );
    });
    req.end();
  });
}
