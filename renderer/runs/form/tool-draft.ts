/**
 * The run form's tool-call fields (workload `tools` and the `tools` prompt source,
 * shared/runs/workload/tools.ts; docs/load.md "Tool calls and agentic loops") as strings, and
 * their conversions. The dataset is a prompt source (`source: 'tools'`, the built-in one or the
 * file in `path`); tool_choice, extra definitions and agentic sessions are the workload's
 * `tools`, written only when one of them differs from the schema's defaults. What a loaded
 * workload's `tools` holds beyond these rides along.
 */
import type { WorkloadIssue } from '../../../shared/runs/workload/workload.ts';
import { errorMessage } from '../../../shared/result.ts';

type LatencyType = 'fixed' | 'uniform' | 'exponential';

export interface ToolDraft {
  /** With the `tools` prompt source: the built-in dataset, or the JSONL in `path`. */
  toolDataset: 'builtin' | 'file';
  /** `named`: the tool in `toolChoiceName`. */
  toolChoice: 'auto' | 'required' | 'none' | 'named';
  toolChoiceName: string;
  /** Tools offered with every request besides a dataset's own, as a JSON array ('' = none). */
  toolDefs: string;
  /** Each request is an agentic session (workload `tools.agentic`). */
  agentic: boolean;
  agenticSteps: string;
  toolLatency: LatencyType;
  /** Fixed: the wait; exponential: its mean. */
  toolLatencyMs: string;
  toolLatencyMinMs: string;
  toolLatencyMaxMs: string;
  toolResultChars: string;
}

/** The schema's defaults (tools.ts): 4 steps, a fixed 100 ms, 200 characters of result. */
export const TOOL_DRAFT_DEFAULTS: ToolDraft = {
  toolDataset: 'builtin',
  toolChoice: 'auto',
  toolChoiceName: '',
  toolDefs: '',
  agentic: false,
  agenticSteps: '4',
  toolLatency: 'fixed',
  toolLatencyMs: '100',
  toolLatencyMinMs: '50',
  toolLatencyMaxMs: '150',
  toolResultChars: '200',
};

const num = (s: string): number => (s.trim() === '' ? NaN : Number(s.trim()));
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown, fallback: string): string =>
  typeof v === 'number' ? String(v) : typeof v === 'string' ? v : fallback;

/** The `tools` prompt source of the draft: the built-in dataset, or a file. */
export function toolPromptsOut(
  d: ToolDraft & { path: string; fileOutputLen: string },
): Record<string, unknown> {
  const p: Record<string, unknown> = { type: 'tools' };
  if (d.toolDataset === 'file') p.path = d.path.trim();
  if (d.fileOutputLen.trim()) p.outputLen = num(d.fileOutputLen);
  return p;
}

/** The definitions field parsed: null when empty; an error when it is not a JSON array. */
function defsOf(text: string): { value: unknown[] } | { error: string } | null {
  if (text.trim() === '') return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { error: `not JSON: ${errorMessage(err)}` };
  }
  if (!Array.isArray(v))
    return { error: 'a JSON array of {"name", "description"?, "parameters"} (one object per tool)' };
  return { value: v };
}

function latencyOut(d: ToolDraft): Record<string, unknown> {
  if (d.toolLatency === 'uniform')
    return { type: 'uniform', minMs: num(d.toolLatencyMinMs), maxMs: num(d.toolLatencyMaxMs) };
  if (d.toolLatency === 'exponential') return { type: 'exponential', meanMs: num(d.toolLatencyMs) };
  return { type: 'fixed', ms: num(d.toolLatencyMs) };
}

/** The workload's `tools` from the draft (undefined: all defaults, none written), over what was loaded. */
export function toolsOut(d: ToolDraft, loaded: unknown): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = { ...obj(loaded) };
  delete out.choice;
  delete out.definitions;
  delete out.agentic;
  if (d.toolChoice === 'named') out.choice = { name: d.toolChoiceName.trim() };
  else if (d.toolChoice !== 'auto') out.choice = d.toolChoice;
  const defs = defsOf(d.toolDefs);
  // Not a JSON array: left as text, so the schema refuses it at `tools.definitions` (toolIssues says why first).
  if (defs) out.definitions = 'error' in defs ? d.toolDefs : defs.value;
  if (d.agentic)
    out.agentic = {
      maxSteps: num(d.agenticSteps),
      toolLatencyMs: latencyOut(d),
      resultChars: num(d.toolResultChars),
    };
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A loaded workload's `tools` and prompt source as draft fields. */
export function toolsIn(raw: unknown, prompts: unknown): ToolDraft {
  const t = obj(raw);
  const d: ToolDraft = { ...TOOL_DRAFT_DEFAULTS };
  const p = obj(prompts);
  d.toolDataset = p.type === 'tools' && typeof p.path === 'string' ? 'file' : 'builtin';
  const c = t.choice;
  if (c === 'required' || c === 'none') d.toolChoice = c;
  else if (typeof obj(c).name === 'string') {
    d.toolChoice = 'named';
    d.toolChoiceName = obj(c).name as string;
  }
  d.toolDefs = Array.isArray(t.definitions) && t.definitions.length > 0 ? JSON.stringify(t.definitions) : '';
  if (t.agentic === undefined) return d;
  const a = obj(t.agentic);
  d.agentic = true;
  d.agenticSteps = str(a.maxSteps, d.agenticSteps);
  d.toolResultChars = str(a.resultChars, d.toolResultChars);
  const l =
    typeof a.toolLatencyMs === 'number' ? { type: 'fixed', ms: a.toolLatencyMs } : obj(a.toolLatencyMs);
  if (l.type === 'uniform') {
    d.toolLatency = 'uniform';
    d.toolLatencyMinMs = str(l.minMs, d.toolLatencyMinMs);
    d.toolLatencyMaxMs = str(l.maxMs, d.toolLatencyMaxMs);
  } else if (l.type === 'exponential') {
    d.toolLatency = 'exponential';
    d.toolLatencyMs = str(l.meanMs, d.toolLatencyMs);
  } else d.toolLatencyMs = str(l.ms, d.toolLatencyMs);
  return d;
}

/** The form's own checks before the schema's: definitions that are not a JSON array. */
export function toolIssues(d: ToolDraft): WorkloadIssue[] {
  const defs = defsOf(d.toolDefs);
  return defs && 'error' in defs ? [{ path: 'tools.definitions', message: defs.error }] : [];
}

/** The form field of a `tools…` issue path, else null. */
export function toolFieldOfPath(path: string): string | null {
  if (!path.startsWith('tools')) return null;
  if (path.startsWith('tools.definitions')) return 'toolDefs';
  if (path.startsWith('tools.choice.name')) return 'toolChoiceName';
  if (path.startsWith('tools.choice')) return 'toolChoice';
  if (path.startsWith('tools.agentic.maxSteps')) return 'agenticSteps';
  if (path.startsWith('tools.agentic.resultChars')) return 'toolResultChars';
  if (path.startsWith('tools.agentic.toolLatencyMs.minMs')) return 'toolLatencyMinMs';
  if (path.startsWith('tools.agentic.toolLatencyMs.maxMs')) return 'toolLatencyMaxMs';
  if (path.startsWith('tools.agentic.toolLatencyMs')) return 'toolLatencyMs';
  if (path.startsWith('tools.agentic')) return 'agentic';
  return 'toolChoice';
}
