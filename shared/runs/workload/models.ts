/**
 * A model mix: requests spread over several model names by weight — models, or LoRA adapters,
 * which vLLM serves as model names of their own (`--lora-modules name=path`; docs/load.md "Model
 * and adapter mixes"). Each request's model is drawn from the workload's seed and the request's
 * place in the run alone (its stream and index, or its conversation), so the same workload file
 * sends the same model to the same request on every run, whatever the order requests finish in.
 * A conversation (workload sessions) keeps one model through all its turns.
 */
import { z } from 'zod';
import { Rng } from '../../prng.ts';

/** Model names in one mix: far past any real server's adapters, low enough to list in a table. */
export const MAX_MIX_MODELS = 64;

const ModelEntry = z.preprocess(
  (v) => (typeof v === 'string' ? { name: v } : v),
  z
    .object({
      /** The name the server serves it under (a model, or a LoRA adapter's name). */
      name: z.string().min(1).max(500),
      /** Its share of the requests: weight / the sum of weights. */
      weight: z.number().positive().max(1_000_000).default(1),
    })
    .strict(),
);

export const ModelMix = z
  .array(ModelEntry)
  .min(1)
  .max(MAX_MIX_MODELS, `at most ${MAX_MIX_MODELS} models`)
  .superRefine((ms, ctx) => {
    const seen = new Set<string>();
    ms.forEach((m, i) => {
      if (seen.has(m.name))
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `"${m.name}" is listed twice` });
      seen.add(m.name);
    });
  });
export type ModelMix = z.output<typeof ModelMix>;

/**
 * The model of one request: `key` names its place in the run ("main:17", "warmup:3", "session:4"),
 * drawn uniformly and mapped onto the cumulative weights.
 */
export function modelOf(mix: ModelMix, seed: number, key: string): string {
  if (mix.length === 1) return mix[0]!.name;
  let total = 0;
  for (const m of mix) total += m.weight;
  let u = new Rng(seed, `model-of:${key}`).next() * total;
  for (const m of mix) {
    if (u < m.weight) return m.name;
    u -= m.weight;
  }
  return mix[mix.length - 1]!.name;
}

/**
 * Each model's expected share of the requests, 0…1, in the mix's order.
 * @internal exported for its tests
 */
export function sharesOf(mix: ModelMix): { name: string; share: number }[] {
  const total = mix.reduce((a, m) => a + m.weight, 0);
  return mix.map((m) => ({ name: m.name, share: m.weight / total }));
}

/**
 * A mix as typed (`--mix name=weight`, the run form's "name=weight" list): each entry split at its
 * last `=`; a weight that is no number is kept as typed, for the schema to refuse with its path.
 */
export function mixEntryOfText(v: string): { name: string; weight?: number | string } {
  const at = v.lastIndexOf('=');
  if (at < 0) return { name: v.trim() };
  const w = v.slice(at + 1).trim();
  return { name: v.slice(0, at).trim(), weight: w !== '' && Number.isFinite(Number(w)) ? Number(w) : w };
}

/** The run form's text (entries on lines or between commas) as the workload's `models`; null when empty. */
export function mixOfText(text: string): { name: string; weight?: number | string }[] | null {
  const parts = text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return parts.length === 0 ? null : parts.map(mixEntryOfText);
}

/** A workload's `models` as the run form shows it: "name=weight, …" ('' when none or not a list). */
export function textOfMix(models: unknown): string {
  if (!Array.isArray(models)) return '';
  return models
    .map((m: unknown) => {
      if (typeof m === 'string') return m;
      const o = (m ?? {}) as { name?: unknown; weight?: unknown };
      const name = typeof o.name === 'string' ? o.name : '';
      return o.weight === undefined ? name : `${name}=${String(o.weight)}`;
    })
    .join(', ');
}
