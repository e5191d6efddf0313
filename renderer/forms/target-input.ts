/** The target editor's form ⇄ TargetInput (shared/api.ts), validated before it crosses the bridge. */
import { selectorProblem, type TargetInput, type TargetView } from '../../shared/api.ts';
import type { DialectId } from '../../shared/dialects.ts';
import { headersFromRows, rowsFromHeaders, type HeaderRow } from './fire-input.ts';

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
  metricsUrl: string;
  /** Where server metrics come from: the server's own /metrics, or a Prometheus server. */
  metricsSource: 'scrape' | 'prometheus';
  prometheusUrl: string;
  prometheusSelector: string;
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
  metricsUrl: '',
  metricsSource: 'scrape',
  prometheusUrl: '',
  prometheusSelector: '',
  insecureTls: false,
};

export function formFromTarget(t: TargetView): TargetForm {
  return {
    id: t.id,
    name: t.name,
    baseUrl: t.baseUrl,
    dialect: t.dialect,
    defaultModel: t.defaultModel ?? '',
    headers: rowsFromHeaders(t.headers),
    apiKey: '',
    clearKey: false,
    metricsUrl: t.metricsUrl ?? '',
    metricsSource: t.prometheusUrl ? 'prometheus' : 'scrape',
    prometheusUrl: t.prometheusUrl ?? '',
    prometheusSelector: t.prometheusSelector ?? '',
    insecureTls: t.insecureTls === true,
  };
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
  Record<'name' | 'baseUrl' | 'metricsUrl' | 'prometheusUrl' | 'prometheusSelector' | 'headers', string>
>;

export function buildTargetInput(
  f: TargetForm,
): { ok: true; input: TargetInput } | { ok: false; errors: TargetErrors } {
  const errors: TargetErrors = {};
  if (!f.name.trim()) errors.name = 'Give the target a name.';
  if (!httpUrl(f.baseUrl.trim())) errors.baseUrl = 'An http:// or https:// URL, e.g. http://gpu-box:8000';
  if (f.metricsUrl.trim() && !httpUrl(f.metricsUrl.trim()))
    errors.metricsUrl = 'An http:// or https:// URL, or empty.';
  const prom = f.metricsSource === 'prometheus';
  if (prom && !httpUrl(f.prometheusUrl.trim()))
    errors.prometheusUrl = 'The Prometheus server: an http:// or https:// URL, e.g. http://prometheus:9090';
  const selProblem = prom ? selectorProblem(f.prometheusSelector) : null;
  if (selProblem !== null) errors.prometheusSelector = selProblem;
  const headers = headersFromRows(f.headers);
  if (!headers.ok) errors.headers = headers.error;
  if (Object.keys(errors).length || !headers.ok) return { ok: false, errors };
  const input: TargetInput = { name: f.name.trim(), baseUrl: f.baseUrl.trim(), dialect: f.dialect };
  if (f.id) input.id = f.id;
  if (f.defaultModel.trim()) input.defaultModel = f.defaultModel.trim();
  if (headers.value) input.headers = headers.value;
  // Write-only key: absent keeps the stored one, '' clears it, a value replaces it.
  if (f.apiKey !== '') input.apiKey = f.apiKey;
  else if (f.clearKey) input.apiKey = '';
  if (f.metricsUrl.trim()) input.metricsUrl = f.metricsUrl.trim();
  if (prom) {
    input.prometheusUrl = f.prometheusUrl.trim();
    input.prometheusSelector = f.prometheusSelector.trim();
  }
  if (f.insecureTls) input.insecureTls = true;
  return { ok: true, input };
}
