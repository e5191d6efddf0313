/**
 * The hash that says two shards run the same workload (`tokenscope merge` refuses shards whose
 * hashes differ): the workload with defaults filled (without its target and name, which may differ
 * per machine), the model and dialect, the prompt source, the first prompts and planned arrivals
 * as this build makes them (a shard on another Tokenscope version that would plan differently does
 * not merge silently).
 */
import { createHash } from 'node:crypto';
import { arrivalTimes } from '../../shared/runs/arrivals.ts';
import type { Workload } from '../../shared/runs/workload.ts';
import { promptHash } from './dispatch.ts';
import type { PromptProvider } from './prompt-items.ts';
import { arrivalSpecOf } from './run-options.ts';

/** How many leading prompts and arrivals the hash covers (the rest follow from the same seed). */
const SAMPLED = 64;

/** JSON with object keys sorted, so the same workload hashes the same whatever the key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export function workloadHash(
  w: Workload,
  target: { model: string; dialect: string },
  prompts: PromptProvider,
): string {
  const { target: _target, name: _name, ...rest } = w;
  const n = Math.min(SAMPLED, w.requests ?? SAMPLED);
  const schedule =
    w.rate === 'inf' ? [] : Array.from(arrivalTimes(arrivalSpecOf(w), w.requests ?? n).slice(0, n));
  const doc = {
    workload: rest,
    model: target.model,
    dialect: target.dialect,
    prompts: {
      description: prompts.description,
      size: prompts.size,
      force: prompts.force,
      first: Array.from({ length: n }, (_, i) => promptHash(prompts.at(i, 'main'))),
    },
    schedule: schedule.map((t) => Math.round(t * 1000) / 1000),
  };
  return 'sha256:' + createHash('sha256').update(canonicalJson(doc)).digest('hex').slice(0, 32);
}
