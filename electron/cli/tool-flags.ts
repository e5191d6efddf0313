/**
 * Tool-calling flags of `tokenscope run` (workload `tools` and the tools prompt source; docs/load.md
 * "Tool calls and agentic loops"), laid over the workload file's JSON like the other flags.
 */
import type { Command } from 'commander';
import { int } from './args.ts';

export interface ToolCliOptions {
  /** Prompts from a tools dataset: a JSONL path, or true for the built-in one. */
  tools?: string | boolean;
  toolChoice?: string;
  agenticSteps?: number;
  /** MS, MIN-MAX (uniform) or exp:MEAN. */
  toolLatency?: string;
}

export function addToolOptions(cmd: Command): Command {
  return cmd
    .option(
      '--tools [jsonl]',
      'prompts that offer function tools: the built-in tool-calling dataset, or a JSONL of {"prompt","tools"} lines',
    )
    .option('--tool-choice <c>', 'auto (default), required, none, or a tool name')
    .option(
      '--agentic-steps <n>',
      "agentic sessions: each request is a session that sends the model's tool calls and their results back, up to n steps",
      int('--agentic-steps'),
    )
    .option(
      '--tool-latency <ms>',
      "agentic sessions: the tool's wait before its result: MS, MIN-MAX or exp:MEAN (default 100)",
    );
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});

function parseLatency(v: string): unknown {
  const t = v.trim();
  const e = /^exp:(\d+(?:\.\d+)?)$/.exec(t);
  if (e) return { type: 'exponential', meanMs: Number(e[1]) };
  const m = /^(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$/.exec(t);
  if (!m) return t; // the schema reports it, under the flag's name
  return m[2] === undefined ? Number(m[1]) : { type: 'uniform', minMs: Number(m[1]), maxMs: Number(m[2]) };
}

export function applyToolOverrides(w: Obj, o: ToolCliOptions): void {
  if (o.tools !== undefined)
    w.prompts = { type: 'tools', ...(typeof o.tools === 'string' ? { path: o.tools } : {}) };
  if (o.toolChoice === undefined && o.agenticSteps === undefined && o.toolLatency === undefined) return;
  const t = obj(w.tools);
  const c = o.toolChoice;
  w.tools = {
    ...t,
    ...(c !== undefined ? { choice: ['auto', 'required', 'none'].includes(c) ? c : { name: c } } : {}),
  };
  if (o.agenticSteps !== undefined || o.toolLatency !== undefined)
    (w.tools as Obj).agentic = {
      ...obj(t.agentic),
      ...(o.agenticSteps !== undefined ? { maxSteps: o.agenticSteps } : {}),
      ...(o.toolLatency !== undefined ? { toolLatencyMs: parseLatency(o.toolLatency) } : {}),
    };
}

/** Workload paths → the flag that sets them (run-flags.ts FLAG_OF_FIELD). */
export const TOOL_FLAG_OF_FIELD = {
  'tools.choice': ['--tool-choice', 'toolChoice'],
  'tools.agentic.maxSteps': ['--agentic-steps', 'agenticSteps'],
  'tools.agentic.toolLatencyMs': ['--tool-latency', 'toolLatency'],
  'prompts.path': ['--tools', 'tools'],
} as const;
