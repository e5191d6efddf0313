/**
 * A saved target's URLs keep no secret in clear: the credentials (`user:pass@`) and secret-looking
 * query values (`?api_key=…`, `jwt`, `sig`… by shared/redact.ts's names) are split off and stored
 * like the API key (encrypted, or in memory only), and the URL everyone sees — the UI, the targets
 * file, `listTargets` — carries `***` in their place. The engine gets them joined back.
 *
 * Editing works on the shown form: a URL that comes back with `***` where a secret was keeps that
 * secret (the same way an absent API key keeps the stored one); a new value replaces it.
 */
import { looksSecretName, REDACTED } from './redact.ts';

/** The secret parts of one URL: user and password as in the URL (percent-encoded). */
export interface UrlSecretParts {
  username?: string;
  password?: string;
  /** Secret query parameters, in order: [name, decoded value]. */
  params?: [string, string][];
}

function parse(u: string): URL | null {
  try {
    return new URL(u);
  } catch {
    return null;
  }
}

const shown = (url: URL): string => url.toString().replace(/%2A%2A%2A/g, REDACTED);

/**
 * `u` with its secret parts replaced by `***`, and those parts (null when there are none, and for
 * a text that is not a URL). A part that still is `***` is a placeholder with nothing behind it
 * (joinUrlSecrets found no stored value for it): it is dropped, never sent as a credential.
 */
export function splitUrlSecrets(u: string): { url: string; parts: UrlSecretParts | null } {
  const url = parse(u);
  if (!url) return { url: u, parts: null };
  const parts: UrlSecretParts = {};
  if (url.username && url.username !== REDACTED) parts.username = url.username;
  if (url.password && url.password !== REDACTED) parts.password = url.password;
  const params: [string, string][] = [];
  const query = new URLSearchParams();
  let secretQuery = false;
  for (const [k, v] of url.searchParams) {
    if (looksSecretName(k) && v !== '') {
      secretQuery = true;
      if (v === REDACTED) continue;
      params.push([k, v]);
      query.append(k, REDACTED);
    } else query.append(k, v);
  }
  if (params.length) parts.params = params;
  const placeholders = url.username === REDACTED || url.password === REDACTED;
  if (!parts.username && !parts.password && !parts.params && !placeholders && !secretQuery)
    return { url: u, parts: null };
  url.username = parts.username ? REDACTED : '';
  url.password = parts.password ? REDACTED : '';
  if (secretQuery) url.search = query.toString();
  const empty = !parts.username && !parts.password && !parts.params;
  return { url: shown(url), parts: empty ? null : parts };
}

/** `u` with each `***` placeholder filled from `parts` (in order, per name); others stay as they are. */
export function joinUrlSecrets(u: string, parts: UrlSecretParts | null | undefined): string {
  if (!parts) return u;
  const url = parse(u);
  if (!url) return u;
  if (url.username === REDACTED && parts.username !== undefined) url.username = parts.username;
  if (url.password === REDACTED && parts.password !== undefined) url.password = parts.password;
  const queue = new Map<string, string[]>();
  for (const [k, v] of parts.params ?? []) queue.set(k, [...(queue.get(k) ?? []), v]);
  if (queue.size === 0) return url.toString();
  const query = new URLSearchParams();
  for (const [k, v] of url.searchParams) query.append(k, v === REDACTED ? (queue.get(k)?.shift() ?? v) : v);
  url.search = query.toString();
  return url.toString();
}
