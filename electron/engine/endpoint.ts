import { redactUrlString } from '../../shared/redact.ts';
import { DIALECT_PATHS, type DialectId } from '../../shared/dialects.ts';

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

/** The URL without user/password, for records and logs. */
export function redactUrl(u: URL): string {
  const c = new URL(u.toString());
  c.username = '';
  c.password = '';
  // Secret-looking query values (api_key, token, sig…) too: this URL goes into records and files.
  return redactUrlString(c.toString());
}
