/**
 * Several model names on one simulator (`--extra-model name=speedup`, SimOptions.extraModels): a
 * model mix's target (workload `models`; docs/load.md "Model and adapter mixes"). The first model
 * (`model`) runs on the server's own engine; each extra name gets an engine of its own — its own
 * batch, KV cache and prefix cache, as a second server behind a router would — whose decode and
 * prefill step times are the first model's divided by its speedup (2: twice as fast, 0.5: half).
 * /v1/models lists every name, as vLLM lists its served names and LoRA adapters
 * (vllm/entrypoints/openai/serving_engine.py `show_available_models`); a name it does not serve
 * gets vLLM's 404 (`_check_model`: errors.ts). Counters in /metrics add up every engine; the
 * gauges (running, waiting, KV usage) are the first model's engine.
 */
import { fail, ok, type Result } from '../../shared/result.ts';
import type { ResolvedSimOptions } from './types.ts';

export interface ExtraModel {
  name: string;
  /** Speed relative to the first model: step times are divided by it. */
  speedup: number;
}

/** Extra names on one simulator, at most (each is an engine with its own timer). */
const MAX_EXTRA_MODELS = 16;
const SPEEDUP_RANGE = [0.01, 100] as const;

/** "name" or "name=speedup" (the last `=` splits: names may hold ':' and '/'). */
export function parseExtraModel(spec: string): Result<ExtraModel, string> {
  const at = spec.lastIndexOf('=');
  const name = (at < 0 ? spec : spec.slice(0, at)).trim();
  const speedText = at < 0 ? '1' : spec.slice(at + 1).trim();
  const speedup = Number(speedText);
  if (name === '') return fail(`--extra-model "${spec}": no model name`);
  if (
    speedText === '' ||
    !Number.isFinite(speedup) ||
    speedup < SPEEDUP_RANGE[0] ||
    speedup > SPEEDUP_RANGE[1]
  )
    return fail(
      `--extra-model "${spec}": the speedup must be a number from ${SPEEDUP_RANGE[0]} to ${SPEEDUP_RANGE[1]}`,
    );
  return ok({ name, speedup });
}

/** The extra models as resolved: speedups clamped, duplicates and the first model's name left out. */
export function resolveExtraModels(model: string, extra: readonly ExtraModel[] | undefined): ExtraModel[] {
  const seen = new Set([model]);
  const out: ExtraModel[] = [];
  for (const m of extra ?? []) {
    if (seen.has(m.name) || out.length >= MAX_EXTRA_MODELS) continue;
    seen.add(m.name);
    const s = Number.isFinite(m.speedup) ? m.speedup : 1;
    out.push({ name: m.name, speedup: Math.min(SPEEDUP_RANGE[1], Math.max(SPEEDUP_RANGE[0], s)) });
  }
  return out;
}

/** Every name the simulator serves, the first model first. */
export function servedModels(o: Pick<ResolvedSimOptions, 'model' | 'extraModels'>): string[] {
  return [o.model, ...o.extraModels.map((m) => m.name)];
}

/** The options of an extra model's engine: the step times divided by its speedup. */
export function engineOptions(o: ResolvedSimOptions, m: ExtraModel): ResolvedSimOptions {
  return {
    ...o,
    model: m.name,
    decodeStepMs: o.decodeStepMs / m.speedup,
    decodeStepPerSeqMs: o.decodeStepPerSeqMs / m.speedup,
    prefillMsPerToken: o.prefillMsPerToken / m.speedup,
  };
}
