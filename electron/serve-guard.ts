/**
 * Who may talk to web mode. Three checks, each cheap and each answered with a status, never a throw:
 * - the Host header names this machine (loopback names, an IP literal, the bound host, or a name
 *   the user allowed with `--allow-host`): a page on a rebound DNS name (`evil.example` → 127.0.0.1)
 *   sends its own name as Host and is refused before the token is even looked at;
 * - the token, compared in constant time, on the socket (`?token=`) and the HTTP API
 *   (`Authorization: Bearer …`);
 * - the Origin, on the socket and on API writes: the page must come from this server.
 */
import { isIP } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

export function tokenOk(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The host name of a Host header (`[::1]:8080` → `::1`), lower-cased; null when it is not one. */
export function hostNameOf(host: string | undefined): string | null {
  if (!host || host.length > 300) return null;
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return null;
    const rest = h.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    return h.slice(1, end);
  }
  const m = /^([a-z0-9.-]+)(?::\d{1,5})?$/.exec(h);
  return m ? m[1]! : null;
}

/**
 * Host names a request may carry. An IP literal can't be a rebinding attack (the browser sends the
 * name it resolved, and a literal resolves to itself), so any is accepted; names are checked.
 */
export function hostAllowed(
  hostHeader: string | undefined,
  boundHost: string,
  extra: readonly string[],
): boolean {
  const name = hostNameOf(hostHeader);
  if (name === null) return false;
  if (isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const bound = boundHost.toLowerCase().replace(/^\[|\]$/g, '');
  if (name === bound) return true;
  return extra.some((e) => e.toLowerCase() === name);
}

/** The page that sent this request is this server's (Origin equals http(s)://Host). */
export function sameOrigin(req: http.IncomingMessage): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  return (
    origin !== undefined &&
    host !== undefined &&
    (origin === `http://${host}` || origin === `https://${host}`)
  );
}

/** The bearer token of an API request. */
export function bearerOf(req: http.IncomingMessage): string | null {
  const a = req.headers.authorization;
  if (typeof a !== 'string') return null;
  const m = /^Bearer\s+(\S+)$/i.exec(a);
  return m ? m[1]! : null;
}

/** The decoded path of a request target, or null when it cannot be one (bad URL or escape). */
export function pathOf(target: string | undefined): string | null {
  try {
    return decodeURIComponent(new URL(target ?? '/', 'http://x').pathname);
  } catch {
    return null;
  }
}
