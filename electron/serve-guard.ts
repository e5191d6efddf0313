/**
 * Who may talk to web mode. Three checks, each cheap and each answered with a status, never a throw:
 * - the Host header names this machine (loopback names, an IP literal, the bound host, or a name
 *   the user allowed with `--allow-host`): a page on a rebound DNS name (`evil.example` → 127.0.0.1)
 *   sends its own name as Host and is refused before the token is even looked at;
 * - the token, compared in constant time, on the socket (`?token=`) and the HTTP API
 *   (`Authorization: Bearer …`);
 * - the Origin, on the socket and on API writes: the page must come from this server.
 */
import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

// The Host check is shared with the simulator's own guard (platform/host-guard.ts).
export { hostAllowed } from './platform/host-guard.ts';

export function tokenOk(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
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
