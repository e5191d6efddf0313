import type { FireInput } from '../../shared/api.ts';
import { buildRequestBody } from '../engine/body.ts';
import { getDialect } from '../engine/dialects/index.ts';
import { resolveEndpoint, redactUrl } from '../engine/endpoint.ts';
import type { ResolvedTarget } from './targets-service.ts';
import { specFromInput } from './requests-service.ts';
import { looksSecretName } from '../../shared/redact.ts';
import { apiKeyHeader, dialectHeaders, isNonStreamingDialect } from '../../shared/dialects.ts';

function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The same request as a `curl -N` command (`curl` for embeddings and rerank). The API key is never written out: it is referenced as
 * $TOKENSCOPE_API_KEY so a copied command can't leak it.
 */
export function curlCommand(input: FireInput, target: ResolvedTarget): string {
  const spec = specFromInput(input, target);
  const dialect = getDialect(spec.dialect);
  const url = redactUrl(resolveEndpoint(spec.url, spec.dialect));
  const body = JSON.stringify(buildRequestBody(dialect, spec));
  // -N (no buffering) shows a stream as it comes; an embeddings or rerank answer is one document.
  const curl = isNonStreamingDialect(spec.dialect) ? 'curl' : 'curl -N';
  const parts = [curl, sq(url), `-H ${sq('Content-Type: application/json')}`];
  // Headers the user marked secret, and any whose name says it is one, never go into a command
  // that gets pasted into chats and issues.
  const secret = new Set((target.secretHeaderNames ?? []).map((n) => n.toLowerCase()));
  for (const [k, v] of Object.entries(spec.headers ?? {})) {
    if (secret.has(k.toLowerCase()) || looksSecretName(k)) parts.push(`-H ${sq(`${k}: <redacted>`)}`);
    else parts.push(`-H ${sq(`${k}: ${v}`)}`);
  }
  // The key as the dialect sends it (Anthropic: x-api-key, plus anthropic-version), in double
  // quotes so the shell fills in the variable.
  const keyHeader = apiKeyHeader(spec.dialect);
  const key = spec.apiKey ? '$TOKENSCOPE_API_KEY' : undefined;
  for (const [k, v] of Object.entries(dialectHeaders(spec.dialect, key, spec.headers))) {
    if (k === keyHeader) parts.push(`-H "${k === 'authorization' ? 'Authorization' : k}: ${v}"`);
    else parts.push(`-H ${sq(`${k}: ${v}`)}`);
  }
  parts.push(`-d ${sq(body)}`);
  return parts.join(' \\\n  ');
}
