/**
 * A server address typed on the command line. `localhost:8000` is what people type; WHATWG URL
 * parsing reads it as the scheme "localhost:", so without help it fails deep inside with
 * "Invalid URL". A scheme-less `host[:port][/path]` gets `http://` (said once on stderr); anything
 * that still is not an http(s) URL is a usage error (exit 2), never a stack trace.
 */
import { InvalidArgumentError } from 'commander';
import { redactUrlString } from '../../shared/redact.ts';
import {
  MAX_METRICS_ENDPOINTS,
  parseMetricsEndpoint,
  type MetricsEndpoint,
} from '../../shared/metrics/roles.ts';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const HOSTISH = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?(\/.*)?$/;

export function normalizeServerUrl(
  v: string,
  note: (line: string) => void = (l) => process.stderr.write(l),
): string {
  const s = v.trim();
  // What a message quotes: the credentials it may carry stay out of it, parseable or not.
  const shown = SCHEME.test(s)
    ? redactUrlString(s)
    : redactUrlString(`http://${s}`).replace(/^http:\/\//, '');
  let candidate = s;
  if (!SCHEME.test(s)) {
    if (!HOSTISH.test(s))
      throw new InvalidArgumentError(`"${shown}" is not a server URL (e.g. http://localhost:8000).`);
    candidate = `http://${s}`;
    note(`note: "${shown}" has no scheme; using http://${shown}\n`);
  }
  let u: URL;
  try {
    u = new URL(candidate);
  } catch {
    throw new InvalidArgumentError(`"${shown}" is not a valid URL (e.g. http://localhost:8000).`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new InvalidArgumentError(`"${shown}": only http:// and https:// servers can be measured.`);
  return candidate;
}

/** Commander argParser for the repeatable `--metrics-endpoint ROLE=URL` (at most 8). */
export function collectMetricsEndpoint(v: string, prev: MetricsEndpoint[] = []): MetricsEndpoint[] {
  const r = parseMetricsEndpoint(v);
  if (!r.ok) throw new InvalidArgumentError(`${redactUrlString(r.error)}.`);
  if (prev.length >= MAX_METRICS_ENDPOINTS)
    throw new InvalidArgumentError(`at most ${MAX_METRICS_ENDPOINTS} metrics endpoints.`);
  return [...prev, r.value];
}

/** Commander argParser for a repeatable URL option. */
export function collectUrl(v: string, prev: string[] = []): string[] {
  return [...prev, normalizeServerUrl(v)];
}
