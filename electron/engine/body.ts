import type { RequestSpec } from '../../shared/request.ts';
import type { Dialect } from './dialects/types.ts';

/** The dialect's body with the user's extra JSON merged last (so it can override anything). */
export function buildRequestBody(dialect: Dialect, spec: RequestSpec): Record<string, unknown> {
  const body = dialect.buildBody(spec);
  if (spec.extraBody) deepMerge(body, spec.extraBody);
  return body;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepMerge(target: Record<string, unknown>, src: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(src)) {
    const cur = target[k];
    if (isPlainObject(cur) && isPlainObject(v)) deepMerge(cur, v);
    else target[k] = v;
  }
}
