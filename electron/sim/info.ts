/**
 * The simulator's GET endpoints besides /metrics, in the shapes clients probe for:
 * vLLM `/v1/models`, `/health` (200, empty body), `/version`; Ollama `/api/tags`, `/api/version`.
 */
import { servedModels } from './models.ts';
import type { ResolvedSimOptions } from './types.ts';

const SIM_VERSION = '0.15.0+tokenscope.sim';
const OLLAMA_VERSION = '0.12.6';

export interface InfoResponse {
  status: number;
  contentType: string;
  body: string;
}

const json = (v: unknown, status = 200): InfoResponse => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(v),
});

/** Ollama names carry a tag; `tokenscope-sim` is listed as `tokenscope-sim:latest`. */
export function ollamaName(model: string): string {
  return model.includes(':') ? model : `${model}:latest`;
}

export function infoResponse(path: string, o: ResolvedSimOptions, startedSec: number): InfoResponse | null {
  switch (path) {
    case '/health':
      return { status: 200, contentType: '', body: '' };
    case '/version':
      return json({ version: SIM_VERSION });
    case '/v1/models':
      return json({
        object: 'list',
        // Every served name; an extra one's parent is the first (vLLM lists LoRA cards so).
        data: servedModels(o).map((id) => ({
          id,
          object: 'model',
          created: startedSec,
          owned_by: 'vllm',
          root: o.model,
          parent: id === o.model ? null : o.model,
          max_model_len: o.kvCacheTokens,
          permission: [
            {
              id: `modelperm-${o.seed.toString(16).padStart(8, '0')}`,
              object: 'model_permission',
              created: startedSec,
              allow_create_engine: false,
              allow_sampling: true,
              allow_logprobs: true,
              allow_search_indices: false,
              allow_view: true,
              allow_fine_tuning: false,
              organization: '*',
              group: null,
              is_blocking: false,
            },
          ],
        })),
      });
    case '/api/tags':
      return json({
        models: [
          {
            name: ollamaName(o.model),
            model: ollamaName(o.model),
            modified_at: new Date(startedSec * 1000).toISOString(),
            size: 4920753328,
            digest: '0000000000000000000000000000000000000000000000000000000000000000',
            details: {
              parent_model: '',
              format: 'gguf',
              family: 'llama',
              families: ['llama'],
              parameter_size: '8.0B',
              quantization_level: 'Q4_K_M',
            },
          },
        ],
      });
    case '/api/version':
      return json({ version: OLLAMA_VERSION });
    default:
      return null;
  }
}
