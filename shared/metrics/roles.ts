/**
 * Roles of a deployment's metrics endpoints (issue 28 §4): a disaggregated server runs prefill
 * and decode on different machines, often behind a router or gateway, and each has its own
 * /metrics. A target lists them with their role; a run scrapes each on the server's clock and
 * sums them up per role (shared/runs/summary/server-side-schema.ts `roles`).
 */
export const METRICS_ROLES = ['prefill', 'decode', 'router', 'server'] as const;
export type MetricsRole = (typeof METRICS_ROLES)[number];

export interface MetricsEndpoint {
  url: string;
  role: MetricsRole;
}

/** How many endpoints a target may list. */
export const MAX_METRICS_ENDPOINTS = 8;

const isMetricsRole = (s: string): s is MetricsRole => (METRICS_ROLES as readonly string[]).includes(s);

/**
 * `ROLE=URL` (the CLI's `--metrics-endpoint decode=http://host:30001/metrics`, a line of the
 * target editor), or why not. The URL must be http(s).
 */
export function parseMetricsEndpoint(
  s: string,
): { ok: true; value: MetricsEndpoint } | { ok: false; error: string } {
  const m = /^\s*([a-z]+)\s*=\s*(\S+)\s*$/i.exec(s);
  if (!m) return { ok: false, error: `"${s}" is not ROLE=URL (e.g. decode=http://host:30001/metrics)` };
  const role = (m[1] as string).toLowerCase();
  if (!isMetricsRole(role))
    return { ok: false, error: `"${m[1]}" is not a role: one of ${METRICS_ROLES.join(', ')}` };
  const url = m[2] as string;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, error: `"${role}=…": the URL is not valid` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return { ok: false, error: `"${role}=…": only http:// and https:// URLs can be scraped` };
  return { ok: true, value: { role, url } };
}
