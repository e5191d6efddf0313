/**
 * Secrets never leave in clear: not in a printed line, `--json`, an error message, a run file, an
 * export or a copied curl command. Three tools:
 * - URLs: credentials (`user:pass@`) and secret-looking query parameters (`api_key`, `token`,
 *   `sig`…) are replaced by `***`;
 * - known values: an API key or a secret header value the user gave is replaced wherever it shows
 *   up, e.g. echoed back by a server in an error body;
 * - header names that look secret (`*key*`, `*token*`, `*secret*`, `cookie`…).
 */

export const REDACTED = '***';

const SECRET_PARAM =
  /^(api[_-]?key|apikey|key|token|access[_-]?token|refresh[_-]?token|id[_-]?token|auth|authorization|sig|signature|secret|client[_-]?secret|password|passwd|pwd|session|x-api-key|code)$/i;

/** A query parameter or header name whose value is a secret by its name. */
export function looksSecretName(name: string): boolean {
  const n = name.toLowerCase();
  return (
    SECRET_PARAM.test(n) ||
    /key|token|secret|passw|cookie|session|signature|credential/.test(n) ||
    n === 'authorization' ||
    n === 'proxy-authorization'
  );
}

/** A URL with its credentials and secret-looking query values replaced; unchanged when not a URL. */
export function redactUrlString(u: string): string {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return u;
  }
  let changed = false;
  if (url.username || url.password) {
    url.username = url.username ? REDACTED : '';
    url.password = url.password ? REDACTED : '';
    changed = true;
  }
  for (const k of [...url.searchParams.keys()])
    if (looksSecretName(k)) {
      url.searchParams.set(k, REDACTED);
      changed = true;
    }
  // URL-encoding turns *** into %2A%2A%2A: keep it readable.
  return changed ? url.toString().replace(/%2A%2A%2A/g, REDACTED) : u;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>`]+/g;

/** Every http(s) URL inside a text, redacted. */
export function redactUrlsIn(text: string): string {
  return text.includes('://') ? text.replace(URL_IN_TEXT, (m) => redactUrlString(m)) : text;
}

/** Secrets shorter than this are not searched for (a 2-letter "key" would redact half a text). */
const MIN_SECRET = 6;

/**
 * `text` with every occurrence of each secret (as given, URL-encoded, and as the base64 of a Basic
 * credential that contains it) replaced by ***, and its URLs redacted.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = redactUrlsIn(text);
  for (const s of secrets) {
    if (s.length < MIN_SECRET) continue;
    for (const form of new Set([s, encodeURIComponent(s)]))
      if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/** The secret values of a request's headers: those whose names look secret (and Basic/Bearer tokens). */
export function secretHeaderValues(headers: Record<string, string> | undefined): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (!looksSecretName(k)) continue;
    out.push(v);
    const m = /^(?:Bearer|Basic|Token)\s+(\S+)$/i.exec(v.trim());
    if (m) out.push(m[1]!);
  }
  return out;
}

/** URL credentials and secret query values in a URL string: secrets to search for elsewhere. */
export function urlSecrets(u: string): string[] {
  try {
    const url = new URL(u);
    const out: string[] = [];
    if (url.password) out.push(decodeURIComponent(url.password));
    for (const [k, v] of url.searchParams) if (looksSecretName(k) && v) out.push(v);
    return out;
  } catch {
    return [];
  }
}
