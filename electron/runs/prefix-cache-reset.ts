/**
 * Emptying the server's prefix cache before a run (workload.resetPrefixCache), so that an earlier
 * run's prompts do not make this one's TTFT look better than a cold server gives. Tried in turn:
 * - vLLM `POST /reset_prefix_cache` (vllm/entrypoints/serve/cache/api_router.py): 200 with an empty
 *   body; served only when the server runs with VLLM_SERVER_DEV_MODE=1 (else 404).
 * - SGLang `POST /flush_cache` (sglang/srt/entrypoints/http_server.py `flush_cache`): 200, or 400
 *   when requests are running or waiting (the cache is then kept).
 * TGI, llama.cpp (its cache is per slot, `cache_prompt`) and Ollama offer no such endpoint: the
 * result says the cache could not be reset, and the run goes on (recorded in its header).
 */
import type { RunPrefixCacheReset } from '../../shared/runs/file/line-schema.ts';
import type { RunTargetSpec } from './request-spec.ts';
import { smallPost } from './small-post.ts';

const TIMEOUT_MS = 10_000;

const ENDPOINTS = ['/reset_prefix_cache', '/flush_cache'] as const;

/** @internal exported for its tests */
export const NO_RESET_ENDPOINT =
  'the server has no prefix-cache reset: vLLM serves POST /reset_prefix_cache only with VLLM_SERVER_DEV_MODE=1, SGLang serves /flush_cache; TGI, llama.cpp and Ollama have none';

export async function resetPrefixCache(
  target: RunTargetSpec,
  signal?: AbortSignal,
): Promise<RunPrefixCacheReset> {
  const origin = new URL(target.url).origin;
  for (const path of ENDPOINTS) {
    const a = await smallPost(origin + path, target, { timeoutMs: TIMEOUT_MS, maxBytes: 64 * 1024, signal });
    if (a === null)
      return { ok: false, endpoint: path, status: null, message: `POST ${path} failed (no answer)` };
    if (a.status === 404 || a.status === 405) continue;
    const text = a.body.trim().split('\n')[0]?.slice(0, 200) ?? '';
    if (a.status >= 200 && a.status < 300)
      return { ok: true, endpoint: path, status: a.status, message: 'reset' };
    return {
      ok: false,
      endpoint: path,
      status: a.status,
      message: `POST ${path} answered ${a.status}${text ? `: ${text}` : ''}`,
    };
  }
  return { ok: false, endpoint: null, status: null, message: NO_RESET_ENDPOINT };
}
