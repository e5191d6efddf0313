/**
 * Model discovery: OpenAI-style `GET /v1/models` (vLLM, SGLang, TGI, llama.cpp, LM Studio, Ollama's
 * shim, Anthropic's `{"data":[{"id","type":"model",…}],"has_more"}`) and Ollama's native
 * `GET /api/tags`. The dialect decides which is tried first; the other is the fallback, so a base
 * URL alone is enough.
 */
import type { Result } from '../../shared/result.ts';
import { dialectHeaders, type DialectId } from '../../shared/dialects.ts';
import type { RequestError } from '../../shared/errors.ts';
import { httpGet } from './http-get.ts';

export interface ModelList {
  models: string[];
  /** Which endpoint answered. */
  source: string;
}

export async function discoverModels(
  baseUrl: string,
  dialect: DialectId,
  opts: { apiKey?: string; headers?: Record<string, string>; timeoutMs?: number; insecureTls?: boolean } = {},
): Promise<Result<ModelList, RequestError>> {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return {
      ok: false,
      error: { kind: 'client', code: 'invalid-request', message: `Invalid URL: ${baseUrl}` },
    };
  }
  // Strip a full endpoint path down to the server root (keep a /v1 prefix-less root).
  const root = new URL(base.origin);
  const prefix = base.pathname
    .replace(/\/(v1\/.*|v1|api\/.*|generate_stream|completion)\/?$/, '')
    .replace(/\/+$/, '');
  // The same key header as the stream's (Anthropic: x-api-key and anthropic-version, which its
  // /v1/models needs as much as /v1/messages does).
  const headers = { ...(opts.headers ?? {}), ...dialectHeaders(dialect, opts.apiKey, opts.headers) };
  const order = dialect.startsWith('ollama') ? ['/api/tags', '/v1/models'] : ['/v1/models', '/api/tags'];
  let firstError: RequestError | null = null;
  for (const path of order) {
    const u = new URL(prefix + path, root);
    const r = await httpGet(u, { headers, timeoutMs: opts.timeoutMs ?? 5000, insecureTls: opts.insecureTls });
    if (!r.ok) {
      firstError ??= r.error;
      if (r.error.kind === 'network') break; // the server is not there; the other path will not help
      continue;
    }
    const models = parseModelList(r.value.body);
    if (models) return { ok: true, value: { models, source: path } };
    firstError ??= { kind: 'protocol', code: 'bad-json', message: `${path} did not return a model list.` };
  }
  return {
    ok: false,
    error: firstError ?? { kind: 'protocol', code: 'bad-json', message: 'No model list.' },
  };
}

/** @internal exported for its tests */
export function parseModelList(body: string): string[] | null {
  try {
    const j = JSON.parse(body) as {
      data?: { id?: unknown }[];
      models?: { name?: unknown; model?: unknown }[];
    };
    if (Array.isArray(j.data)) return j.data.map((m) => String(m.id ?? '')).filter(Boolean);
    if (Array.isArray(j.models)) return j.models.map((m) => String(m.name ?? m.model ?? '')).filter(Boolean);
  } catch {
    return null;
  }
  return null;
}
