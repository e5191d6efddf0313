/**
 * The hash that says two shards run the same workload (`tokenscope merge` refuses shards whose
 * hashes differ): the workload with defaults filled (without its target and name, which may differ
 * per machine), the model and dialect, the prompt source, the first prompts and planned arrivals
 * as this build makes them (a shard on another Tokenscope version that would plan differently does
 * not merge silently). A trace replay hashes its file's name, not its path, and the trace's times.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { arrivalTimes } from '../../../shared/runs/workload/arrivals.ts';
import type { Workload } from '../../../shared/runs/workload/workload.ts';
import { promptHash } from '../dispatch.ts';
import type { PromptProvider } from '../prompts/items.ts';
import { arrivalSpecOf } from '../run-options.ts';

/** How many leading prompts and arrivals the hash covers (the rest follow from the same seed). */
const SAMPLED = 64;

/** JSON with object keys sorted, so the same workload hashes the same whatever the key order. */
function canonicalJson(v: unknown): string {
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
  // A trace's times are the trace's; its path may differ per machine (its rows are hashed below).
  const planned =
    prompts.schedule ?? (w.rate === 'inf' ? null : arrivalTimes(arrivalSpecOf(w), w.requests ?? n));
  const schedule = planned ? Array.from(planned.slice(0, n)) : [];
  const workload =
    rest.prompts.type === 'trace'
      ? { ...rest, prompts: { ...rest.prompts, path: path.basename(rest.prompts.path) } }
      : rest;
  const doc = {
    workload,
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
