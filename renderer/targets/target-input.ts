/** The target editor's form ⇄ TargetInput (shared/api.ts), validated before it crosses the bridge. */
import { selectorProblem, type TargetInput, type TargetView } from '../../shared/api.ts';
import type { DialectId } from '../../shared/dialects.ts';
import { fail, ok, type Result } from '../../shared/result.ts';
import { headersFromRows, rowsFromHeaders, type HeaderRow } from './header-rows.ts';
import { originOf } from '../../shared/origin.ts';
import {
  MAX_METRICS_ENDPOINTS,
  parseMetricsEndpoint,
  type MetricsEndpoint,
} from '../../shared/metrics/roles.ts';

export interface TargetForm {
  id?: string;
  name: string;
  baseUrl: string;
  dialect: DialectId;
  defaultModel: string;
  headers: HeaderRow[];
  /** Typed key ('' = leave the stored one unchanged unless clearKey). */
  apiKey: string;
  clearKey: boolean;
  /**
   * The base URL now names another server than the stored one, and the target has a key or
   * secret headers: keep them for it? null = not answered yet (saving waits for the answer).
   */
  keepSecretsOnMove: boolean | null;
  metricsUrl: string;
  /** Telemetry endpoints (dcgm-exporter, node_exporter), one URL a line, as typed. */
  telemetryUrls: string;
  /** A disaggregated deployment's other metrics endpoints, `role=URL` a line. */
  metricsEndpoints: string;
  /** Where server metrics come from: the server's own /metrics, or a Prometheus server. */
  metricsSource: 'scrape' | 'prometheus';
  prometheusUrl: string;
  prometheusSelector: string;
  /** Seconds, as typed. */
  metricsInterval: string;
  /** Seconds, as typed; '' = automatic (the interval, within 1–10 s). */
  metricsTimeout: string;
  insecureTls: boolean;
}

export const NEW_TARGET: TargetForm = {
  name: '',
  baseUrl: 'http://127.0.0.1:8000',
  dialect: 'openai-chat',
  defaultModel: '',
  headers: [],
  apiKey: '',
  clearKey: false,
  keepSecretsOnMove: null,
  metricsUrl: '',
  telemetryUrls: '',
  metricsEndpoints: '',
  metricsSource: 'scrape',
  prometheusUrl: '',
  prometheusSelector: '',
  metricsInterval: '1',
  metricsTimeout: '',
  insecureTls: false,
};

export function formFromTarget(t: TargetView): TargetForm {
  return {
    id: t.id,
    name: t.name,
    baseUrl: t.baseUrl,
    dialect: t.dialect,
    defaultModel: t.defaultModel ?? '',
    headers: [
      ...rowsFromHeaders(t.headers),
      ...(t.secretHeaderNames ?? []).map((key) => ({ key, value: '', secret: true, stored: true })),
    ],
    apiKey: '',
    clearKey: false,
    keepSecretsOnMove: null,
    metricsUrl: t.metricsUrl ?? '',
    telemetryUrls: (t.telemetryUrls ?? []).join('\n'),
    metricsEndpoints: (t.metricsEndpoints ?? []).map((e) => `${e.role}=${e.url}`).join('\n'),
    metricsSource: t.prometheusUrl ? 'prometheus' : 'scrape',
    prometheusUrl: t.prometheusUrl ?? '',
    prometheusSelector: t.prometheusSelector ?? '',
    metricsInterval: String((t.metricsIntervalMs ?? 1000) / 1000),
    metricsTimeout: t.metricsTimeoutMs === undefined ? '' : String(t.metricsTimeoutMs / 1000),
    insecureTls: t.insecureTls === true,
  };
}

/** Typed seconds → whole ms, or null when not a number in [min, max] s. */
function secondsToMs(s: string, min: number, max: number): number | null {
  const t = s.trim();
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(t)) return null;
  const v = Number(t);
  return v >= min && v <= max ? Math.round(v * 1000) : null;
}

function httpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export type TargetErrors = Partial<
  Record<
    | 'name'
    | 'baseUrl'
    | 'metricsUrl'
    | 'telemetryUrls'
    | 'metricsEndpoints'
    | 'prometheusUrl'
    | 'prometheusSelector'
    | 'metricsInterval'
    | 'metricsTimeout'
    | 'headers'
    | 'keepSecretsOnMove',
    string
  >
>;

/** The telemetry endpoints typed, one a line (blank lines dropped). */
function telemetryList(text: string): string[] {
  return text
    .split(/\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** The role endpoints typed, `role=URL` a line: the list, or the first line's problem. */
function roleEndpointList(text: string): Result<MetricsEndpoint[], string> {
  const out: MetricsEndpoint[] = [];
  for (const line of telemetryList(text)) {
    const r = parseMetricsEndpoint(line);
    if (!r.ok) return fail(r.error);
    out.push(r.value);
  }
  if (out.length > MAX_METRICS_ENDPOINTS) return fail(`At most ${MAX_METRICS_ENDPOINTS} metrics endpoints.`);
  return ok(out);
}

/** The form's base URL names another server than the stored target's, which has secrets to lose. */
export function movesSecrets(f: TargetForm, existing: TargetView | null): boolean {
  if (!existing || existing.builtin) return false;
  const hasSecrets = existing.hasApiKey || (existing.secretHeaderNames?.length ?? 0) > 0;
  return hasSecrets && originOf(f.baseUrl) !== '' && originOf(f.baseUrl) !== originOf(existing.baseUrl);
}

export function buildTargetInput(
  f: TargetForm,
  existing: TargetView | null = null,
): Result<TargetInput, TargetErrors> {
  const errors: TargetErrors = {};
  const moving = movesSecrets(f, existing);
  if (moving && f.keepSecretsOnMove === null)
    errors.keepSecretsOnMove =
      'The URL now points to another server: keep the stored API key for it, or remove it?';
  if (!f.name.trim()) errors.name = 'Give the target a name.';
  if (!httpUrl(f.baseUrl.trim())) errors.baseUrl = 'An http:// or https:// URL, e.g. http://gpu-box:8000';
  if (f.metricsUrl.trim() && !httpUrl(f.metricsUrl.trim()))
    errors.metricsUrl = 'An http:// or https:// URL, or empty.';
  const telemetry = telemetryList(f.telemetryUrls);
  const badTelemetry = telemetry.find((u) => !httpUrl(u));
  if (badTelemetry !== undefined) errors.telemetryUrls = `Not an http:// or https:// URL: ${badTelemetry}`;
  else if (telemetry.length > 8) errors.telemetryUrls = 'At most 8 telemetry endpoints.';
  const roles = roleEndpointList(f.metricsEndpoints);
  if (!roles.ok) errors.metricsEndpoints = roles.error;
  const prom = f.metricsSource === 'prometheus';
  if (prom && !httpUrl(f.prometheusUrl.trim()))
    errors.prometheusUrl = 'The Prometheus server: an http:// or https:// URL, e.g. http://prometheus:9090';
  const selProblem = prom ? selectorProblem(f.prometheusSelector) : null;
  if (selProblem !== null) errors.prometheusSelector = selProblem;
  const intervalMs = secondsToMs(f.metricsInterval, 0.25, 60);
  if (intervalMs === null) errors.metricsInterval = 'Seconds between reads: 0.25 to 60.';
  const timeoutMs = f.metricsTimeout.trim() === '' ? undefined : secondsToMs(f.metricsTimeout, 0.1, 60);
  if (timeoutMs === null) errors.metricsTimeout = 'Seconds: 0.1 to 60, or empty for automatic.';
  const headers = headersFromRows(f.headers.filter((r) => !r.secret));
  const secretRows = headersFromRows(
    f.headers.filter((r) => r.secret).map((r) => ({ ...r, value: r.value || 'x' })),
  );
  if (!secretRows.ok) errors.headers = secretRows.error;
  if (!headers.ok) errors.headers = headers.error;
  if (Object.keys(errors).length || !headers.ok) return fail(errors);
  const input: TargetInput = { name: f.name.trim(), baseUrl: f.baseUrl.trim(), dialect: f.dialect };
  if (f.id) input.id = f.id;
  if (f.defaultModel.trim()) input.defaultModel = f.defaultModel.trim();
  if (headers.value) input.headers = headers.value;
  // Secret headers: every name the target keeps; a typed value replaces the stored one.
  const secretHeaders = f.headers
    .filter((r) => r.secret && r.key.trim() !== '' && (r.value !== '' || r.stored))
    .map((r) => (r.value !== '' ? { name: r.key.trim(), value: r.value } : { name: r.key.trim() }));
  // The full list when there is one, or when the stored ones were all removed ([] removes them).
  if (secretHeaders.length > 0 || (existing?.secretHeaderNames?.length ?? 0) > 0)
    input.secretHeaders = secretHeaders;
  if (moving) input.keepApiKey = f.keepSecretsOnMove === true;
  // Write-only key: absent keeps the stored one, '' clears it, a value replaces it.
  if (f.apiKey !== '') input.apiKey = f.apiKey;
  else if (f.clearKey) input.apiKey = '';
  if (f.metricsUrl.trim()) input.metricsUrl = f.metricsUrl.trim();
  if (telemetry.length > 0) input.telemetryUrls = telemetry;
  if (roles.ok && roles.value.length > 0) input.metricsEndpoints = roles.value;
  if (intervalMs !== null && intervalMs !== 1000) input.metricsIntervalMs = intervalMs;
  if (typeof timeoutMs === 'number') input.metricsTimeoutMs = timeoutMs;
  if (prom) {
    input.prometheusUrl = f.prometheusUrl.trim();
    input.prometheusSelector = f.prometheusSelector.trim();
  }
  if (f.insecureTls) input.insecureTls = true;
  return ok(input);
}
