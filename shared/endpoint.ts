/**
 * Where a request goes, from a base URL and a dialect (pure: the core sends there, the renderer
 * matches a workload file's target against the user's targets with it).
 */
import { DIALECT_PATHS, type DialectId } from './dialects.ts';

/**
 * The URL a request goes to. A base URL (no path, `/`, or `/v1` for OpenAI-style dialects) gets
 * the dialect's path; anything else is taken as the full endpoint the user meant.
 */
export function resolveEndpoint(url: string, dialect: DialectId): URL {
  const u = new URL(url);
  const path = u.pathname.replace(/\/+$/, '');
  const dpath = DIALECT_PATHS[dialect];
  if (path === '') u.pathname = dpath;
  else if (path === '/v1' && dpath.startsWith('/v1/')) u.pathname = dpath;
  return u;
}

/** The endpoint as one comparable string (scheme, host, port, path; no credentials, query or trailing /), or null for a bad URL. @internal exported for its tests */
export function endpointKey(url: string, dialect: DialectId): string | null {
  let u: URL;
  try {
    u = resolveEndpoint(url, dialect);
  } catch {
    return null;
  }
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

/**
 * The first of `targets` that is the same server endpoint in the same dialect as a workload
 * file's target (`http://gpu:8000`, `http://gpu:8000/v1` and `http://gpu:8000/v1/chat/completions`
 * are one chat endpoint); null when none is.
 */
export function matchTarget<T extends { baseUrl: string; dialect: DialectId }>(
  targets: readonly T[],
  want: { url: string; dialect: DialectId },
): T | null {
  const key = endpointKey(want.url, want.dialect);
  if (key === null) return null;
  return targets.find((t) => t.dialect === want.dialect && endpointKey(t.baseUrl, t.dialect) === key) ?? null;
}
