/**
 * An HTTP/1.1 request's bytes for the raw driver (raw-driver.ts), the other direction of
 * http1.ts: built once per request, headers checked as Node's client checks them.
 */
import type { IoRequest } from './protocol.ts';

/** Header names and values: no CR, LF or NUL (request smuggling), as Node's client checks. */
const BAD_HEADER = /[\r\n\0]/;

/** The request's bytes: request line, headers (checked), Host, Connection, then the body. */
export function serialize(req: IoRequest, url: URL, keepAlive: boolean): string | Buffer {
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
  if (!hasLength && (req.body.length > 0 || req.method === 'POST'))
    lines.push(`Content-Length: ${Buffer.byteLength(req.body)}`);
  lines.push(`Connection: ${keepAlive ? 'keep-alive' : 'close'}`);
  const head = `${lines.join('\r\n')}\r\n\r\n`;
  if (typeof req.body === 'string') return `${head}${req.body}`;
  // A body of bytes goes as they are after the head (one copy here, no text encoding).
  return Buffer.concat([Buffer.from(head), req.body]);
}
