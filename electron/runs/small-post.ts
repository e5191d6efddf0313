/**
 * A small POST to the target's server beside the streams (a tokenizer call, a cache reset): bounded in
 * time and answer size, with the target's headers, key and TLS setting; never throws — null when
 * the exchange failed (refused, timed out, too large, cancelled).
 */
import http from 'node:http';
import https from 'node:https';
import type { RunTargetSpec } from './request-spec.ts';

export interface SmallAnswer {
  status: number;
  body: string;
}

export interface SmallPostOptions {
  /** JSON to send; none: an empty body. */
  json?: unknown;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

export function smallPost(
  url: string,
  target: RunTargetSpec,
  o: SmallPostOptions,
): Promise<SmallAnswer | null> {
  const u = new URL(url);
  const data = o.json === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(o.json));
  const headers: Record<string, string> = {
    ...(target.headers ?? {}),
    ...(o.json === undefined ? {} : { 'content-type': 'application/json' }),
    'content-length': String(data.length),
    accept: 'application/json, text/plain;q=0.9',
  };
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = lib.request(
      u,
      {
        method: 'POST',
        headers,
        timeout: o.timeoutMs,
        signal: o.signal,
        ...(u.protocol === 'https:' && target.insecureTls ? { rejectUnauthorized: false } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > o.maxBytes) req.destroy();
          else chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', () => resolve(null));
        res.on('close', () => resolve(null)); // destroyed past the size limit: no 'end'
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end(data);
  });
}
