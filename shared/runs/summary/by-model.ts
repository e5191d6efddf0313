/**
 * A model-mix run's numbers by model (workload `models`: models, or LoRA adapters served as model
 * names): TTFT, TPOT, ITL and E2E percentiles, throughput and errors of each model's requests.
 * Each row is the run's own summary (summary.ts computeRunSummary) over that model's requests
 * alone, with the whole run's duration — the same definitions as the run's numbers, so a model's
 * throughputs add up to the run's. Rows come in the mix's order (names it does not list after, in
 * the order of their first request); at most MAX_MIX_MODELS, since a workload lists no more.
 */
import type { RequestOutcome } from './outcome.ts';
import type { ModelRow } from './by-model-schema.ts';
import type { MetricStats, RunSummary } from './schema.ts';
import { computeRunSummary } from './summary.ts';
import type { DefinitionsId } from './definitions.ts';

export interface ByModelInput {
  outcomes: readonly RequestOutcome[];
  /** `models[k]` is outcome k's model (undefined: the line named none). */
  models: readonly (string | undefined)[];
  durationS: number;
  config: RunSummary['config'];
  definitions: DefinitionsId;
  /** The mix's names in its order (the header's workload.models). */
  order?: readonly string[];
}

/** Rows by model, or undefined when no request named its model (a run without a mix). */
export function byModelOf(inp: ByModelInput): ModelRow[] | undefined {
  const groups = new Map<string, RequestOutcome[]>();
  inp.outcomes.forEach((o, k) => {
    const m = inp.models[k];
    if (m === undefined) return;
    let g = groups.get(m);
    if (!g) groups.set(m, (g = []));
    g.push(o);
  });
  if (groups.size === 0) return undefined;
  const all = inp.outcomes.length;
  const rank = (m: string): number => {
    const i = inp.order?.indexOf(m) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const sorted = [...groups].sort((a, b) => rank(a[0]) - rank(b[0])); // stable: first seen among unlisted
  return sorted.map(([model, g]) => {
    const s = computeRunSummary({
      outcomes: g,
      durationS: inp.durationS,
      config: inp.config,
      definitions: inp.definitions,
    });
    return {
      model,
      requests: g.length,
      failed: s.vllm.failed,
      share: all > 0 ? g.length / all : 0,
      ttft: own(s.stats.ttft),
      tpot: own(s.stats.tpot),
      itl: own(s.stats.itl),
      e2el: own(s.stats.e2el),
      requestThroughput: s.vllm.request_throughput,
      outputThroughput: s.vllm.output_throughput,
      totalOutputTokens: s.vllm.total_output_tokens,
      errors: s.errors,
    };
  });
}

/** The statistics without vLLM's variant (stats.itl.vllm: the run's own table shows it). */
function own(m: MetricStats | null): ModelRow['ttft'] {
  if (!m) return null;
  const { vllm: _vllm, ...rest } = m;
  return rest;
}
