/**
 * An HTTP/1.1 request's bytes for the raw driver (raw-driver.ts), the other direction of
 * http1.ts: built once per request, headers checked as Node's client checks them.
 */
import type { IoRequest } from './protocol.ts';
import { partsLength, resolveParts } from './blobs.ts';

/** Bodies reach the drivers with their blobs resolved (io-worker.ts, io-engine.ts inline). */
const noBlob = (): undefined => undefined;

/** Header names and values: no CR, LF or NUL (request smuggling), as Node's client checks. */
const BAD_HEADER = /[\r\n\0]/;

/**
 * The request's bytes: request line, headers (checked), Host, Connection, then the body; a body of
 * bytes (large images: 260 KB a request) as the head and the body apart, written together
 * (raw-driver.ts), not copied into one buffer.
 */
export function serialize(req: IoRequest, url: URL, keepAlive: boolean): string | (string | Uint8Array)[] {
  const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  let hasLength = false;
  for (const [name, value] of Object.entries(req.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'connection') continue;
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new Error(`Invalid header name ${JSON.stringify(name)}`);
    if (BAD_HEADER.test(value)) throw new Error(`Invalid character in header "${name}"`);
    if (lower === 'content-length') hasLength = true;
    lines.push(`${name}: ${value}`);
  }
  const body = req.body;
  if (!hasLength && (body.length > 0 || req.method === 'POST'))
    lines.push(
      `Content-Length: ${typeof body === 'string' ? Buffer.byteLength(body) : partsLength(body, noBlob)}`,
    );
  lines.push(`Connection: ${keepAlive ? 'keep-alive' : 'close'}`);
  const head = `${lines.join('\r\n')}\r\n\r\n`;
  if (typeof body === 'string') return `${head}${body}`;
  return [head, ...resolveParts(body, noBlob)];
}
