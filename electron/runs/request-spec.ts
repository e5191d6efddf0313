/**
 * What a run sends for one prompt item, and what its file says about the target. API keys and
 * header values go to the wire only: the run file gets the URL without credentials (key-like
 * query values redacted) and the header names.
 */
import type { RequestSpec, SamplingParams } from '../../shared/request.ts';
import type { RunTarget } from '../../shared/runs/file/line-schema.ts';
import type { Workload } from '../../shared/runs/workload/workload.ts';
import type { DialectId } from '../../shared/dialects.ts';
import type { PromptItem, PromptProvider } from './prompts/items.ts';
import { looksSecretName } from '../../shared/redact.ts';
import { modelOf } from '../../shared/runs/workload/models.ts';

/** The target of a run, secrets included (they never leave the process). */
export interface RunTargetSpec {
  url: string;
  dialect: DialectId;
  model: string;
  headers?: Record<string, string>;
  apiKey?: string;
  insecureTls?: boolean;
}

/** The run file's target URL: no credentials, secret-looking query values (shared/redact.ts's names) replaced. */
export function redactTargetUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    for (const k of [...u.searchParams.keys()]) if (looksSecretName(k)) u.searchParams.set(k, 'REDACTED');
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

export function publicTarget(t: RunTargetSpec): RunTarget {
  return {
    url: redactTargetUrl(t.url),
    dialect: t.dialect,
    model: t.model,
    headerNames: Object.keys(t.headers ?? {}).sort(),
    authenticated: !!t.apiKey || /\/\/[^/]*@/.test(t.url),
  };
}

/**
 * The request for one item. Output length: the workload's sampling.maxTokens, else the item's;
 * forced with ignore_eos and/or min_tokens = max_tokens when the source asks (vLLM's random
 * dataset sends ignore_eos so every request generates exactly its output length). With a model
 * mix (workload `models`), the model sent is the mix's pick for `modelKey`, the request's place
 * (none: the mix's first, as the test request sends).
 */
export function buildSpec(
  w: Workload,
  t: RunTargetSpec,
  item: PromptItem,
  force: PromptProvider['force'],
  modelKey?: string,
): RequestSpec {
  const maxTokens = w.sampling.maxTokens ?? item.outputTokens ?? undefined;
  const params: SamplingParams = {
    maxTokens,
    temperature: w.sampling.temperature,
    topP: w.sampling.topP,
    seed: w.sampling.seed,
    stop: w.sampling.stop,
  };
  if (force === 'ignore_eos' || force === 'both') params.ignoreEos = true;
  if ((force === 'min_tokens' || force === 'both') && maxTokens !== undefined) params.minTokens = maxTokens;
  return {
    url: t.url,
    dialect: t.dialect,
    model: w.models
      ? modelKey === undefined
        ? w.models[0]!.name
        : modelOf(w.models, w.seed, modelKey)
      : t.model,
    prompt: item.prompt,
    messages: item.messages,
    ...(item.images?.length ? { images: item.images } : {}),
    ...(item.inputs ? { inputs: item.inputs } : {}),
    ...(item.topN !== undefined ? { topN: item.topN } : {}),
    params,
    extraBody: w.extraBody,
    headers: t.headers,
    apiKey: t.apiKey,
    includeUsage: w.includeUsage,
    continuousUsage: w.continuousUsage,
    timeoutMs: w.timeoutMs,
    idleTimeoutMs: w.idleTimeoutMs,
    insecureTls: t.insecureTls,
    ...(w.traceHeaders === false ? { traceHeaders: false } : {}),
    ...toolsOf(w, item),
  };
}

/**
 * The tools a request offers: its dataset line's, then the workload's definitions (a name already
 * offered is not repeated); the line's choice wins over the workload's. None: no tool fields at all.
 */
function toolsOf(w: Workload, item: PromptItem): Pick<RequestSpec, 'tools' | 'toolChoice'> {
  const own = item.tools ?? [];
  const extra = (w.tools?.definitions ?? []).filter((d) => !own.some((t) => t.name === d.name));
  const tools = [...own, ...extra];
  if (tools.length === 0) return {};
  return { tools, toolChoice: item.toolChoice ?? w.tools?.choice ?? 'auto' };
}
