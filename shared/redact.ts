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
  /^(api[_-]?key|apikey|key|token|access[_-]?token|refresh[_-]?token|id[_-]?token|auth|authorization|sig|signature|secret|client[_-]?secret|password|passwd|pass|pwd|session|x-api-key|code|jwt|sas|otp|hmac)$/i;

/** A query parameter or header name whose value is a secret by its name. */
export function looksSecretName(name: string): boolean {
  const n = name.toLowerCase();
  return (
    SECRET_PARAM.test(n) ||
    // `auth` as in auth_token, oauth, x-auth-key — not as in author.
    /key|token|secret|passw|passphrase|cookie|session|signature|credential|jwt|bearer|auth(?!or)/.test(n) ||
    n === 'authorization' ||
    n === 'proxy-authorization'
  );
}

/** `scheme://userinfo@` at the start of a URL-like text that the URL parser refused. */
const RAW_USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#@\s]*)@/;
/** `?name=value` / `&name=value` in a URL-like text that the URL parser refused. */
const RAW_PARAM = /([?&])([^=&#\s]*)=([^&#\s]*)/g;

/** What a URL the parser refused would leak: its userinfo and secret-looking query values. */
function redactRawUrl(u: string): string {
  return u
    .replace(RAW_USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`)
    .replace(RAW_PARAM, (m, sep: string, k: string, v: string) =>
      v && looksSecretName(safeDecode(k)) ? `${sep}${k}=${REDACTED}` : m,
    );
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A URL with its credentials and secret-looking query values replaced; a text the URL parser
 * refuses (`http://u:pw@host:99999/`) has the same parts replaced by pattern, so an error that
 * quotes it leaks nothing either.
 */
export function redactUrlString(u: string): string {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return redactRawUrl(u);
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

/** base64 of a text's UTF-8 bytes (what a Basic credential carries), in Node and browsers alike. */
function base64Utf8(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * URL credentials and secret query values in a URL string: secrets to search for elsewhere. The
 * user name and password count (either can be a token), and so does the `Authorization: Basic`
 * credential the engine builds from them (prepare-request.ts), in case a server echoes it back.
 * A text the URL parser refuses gives its userinfo and secret-looking values by pattern.
 */
export function urlSecrets(u: string): string[] {
  let user = '';
  let pass = '';
  let params: [string, string][];
  try {
    const url = new URL(u);
    user = safeDecode(url.username);
    pass = safeDecode(url.password);
    params = [...url.searchParams];
  } catch {
    const info = RAW_USERINFO.exec(u)?.[2] ?? '';
    const colon = info.indexOf(':');
    user = safeDecode(colon >= 0 ? info.slice(0, colon) : info);
    pass = colon >= 0 ? safeDecode(info.slice(colon + 1)) : '';
    params = [...u.matchAll(RAW_PARAM)].map((m) => [safeDecode(m[2]!), m[3]!]);
  }
  const out: string[] = [];
  if (user) out.push(user);
  if (pass) out.push(pass);
  if (user || pass) out.push(base64Utf8(`${user}:${pass}`));
  for (const [k, v] of params) if (looksSecretName(k) && v) out.push(v, safeDecode(v));
  return [...new Set(out)];
}
