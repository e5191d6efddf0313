/**
 * Does a request's Host header name this machine? Web mode (serve-guard.ts) and the simulator
 * (sim/server.ts) both refuse any other name: a page on a rebound DNS name (`evil.example` →
 * 127.0.0.1) sends its own name as Host, so checking it defeats DNS rebinding.
 */
import { isIP } from 'node:net';

/** The host name of a Host header (`[::1]:8080` → `::1`), lower-cased; null when it is not one. */
function hostNameOf(host: string | undefined): string | null {
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
