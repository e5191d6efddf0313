/**
 * What a run needs besides its workload, found the same way by the app and `tokenscope run`: the
 * model (the one given, else the first the server lists) and the prompts (synthetic, or loaded
 * from the workload's file, paths relative to `baseDir`). A problem is a PrepareError with a
 * message for the user; nothing has been sent to the server but the model list.
 */
import type { DialectId } from '../../shared/dialects.ts';
import type { Workload } from '../../shared/runs/workload/workload.ts';
import { discoverModels } from '../engine/models.ts';
import { PromptFileError } from './prompts/files.ts';
import { loadPrompts, type PromptProvider } from './prompts/prompts.ts';
import { loadWorkloadImages, withImages } from './prompts/images.ts';
import { IMAGE_DIALECTS } from '../../shared/runs/workload/images.ts';
import { withPoolingInputs } from './prompts/pooling.ts';

export class PrepareError extends Error {
  /**
   * @param unreachable the server could not be asked (its model list failed: refused, timed out,
   *   an HTTP error): a failed request, not a bad workload.
   */
  constructor(
    message: string,
    readonly unreachable = false,
  ) {
    super(message);
    this.name = 'PrepareError';
  }
}

export interface PrepareTarget {
  url: string;
  dialect: DialectId;
  /** The model asked for; absent or '' = the server's first. */
  model?: string | null;
  apiKey?: string;
  headers?: Record<string, string>;
  insecureTls?: boolean;
}

export async function prepareRun(
  w: Workload,
  t: PrepareTarget,
  baseDir: string,
): Promise<{ model: string; prompts: PromptProvider }> {
  // A model mix names its own models: the target's is then its first (the header's, the watch's).
  let model = (w.models ? w.models[0]!.name : t.model) || null;
  if (!model) {
    const r = await discoverModels(t.url, t.dialect, {
      apiKey: t.apiKey,
      headers: t.headers,
      insecureTls: t.insecureTls,
    });
    // The network's word first: "Connection refused" is the news, the model list only the occasion.
    if (!r.ok)
      throw new PrepareError(
        `${t.url}: ${r.error.message} (while listing its models: no model was given)`,
        true,
      );
    if (r.value.models.length === 0)
      throw new PrepareError('no model given and the server listed none: name one (--model)');
    model = r.value.models[0]!;
  }
  let prompts: PromptProvider;
  try {
    prompts = withPoolingInputs(
      await loadPrompts(w.prompts, w.seed, baseDir, w.sessions),
      t.dialect,
      w.pooling,
      w.seed,
    );
  } catch (e) {
    if (e instanceof PromptFileError) throw new PrepareError(`prompts: ${e.message}`);
    throw e;
  }
  return { model, prompts: await withWorkloadImages(w, t.dialect, prompts, baseDir) };
}

/** The workload's images added to every item (built or read once, here, before the clock starts). */
async function withWorkloadImages(
  w: Workload,
  dialect: DialectId,
  prompts: PromptProvider,
  baseDir: string,
): Promise<PromptProvider> {
  if ((w.images || prompts.hasImages) && !(IMAGE_DIALECTS as readonly string[]).includes(dialect))
    throw new PrepareError(
      `images: the ${dialect} dialect carries no images; use ${IMAGE_DIALECTS.join(' or ')}`,
    );
  if (!w.images) return prompts;
  try {
    return withImages(prompts, w.images, await loadWorkloadImages(w.images, w.seed, baseDir));
  } catch (e) {
    if (e instanceof PromptFileError) throw new PrepareError(e.message);
    throw e;
  }
}
