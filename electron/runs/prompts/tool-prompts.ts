/**
 * The tools prompt source: the built-in tool-calling dataset (shared/runs/workload/tool-dataset.ts)
 * or a user's JSONL of {"prompt", "tools", "tool_choice"?, "output_len"?} lines, each line checked
 * with the workload's own schema (a tool's parameters in json-schema-lite.ts's subset): bad lines
 * are reported by number with the field's path, and the run does not start.
 */
import path from 'node:path';
import { Rng } from '../../../shared/prng.ts';
import { BUILTIN_TOOL_DATASET } from '../../../shared/runs/workload/tool-dataset.ts';
import { ToolDatasetLine } from '../../../shared/runs/workload/tools.ts';
import type { PromptSource } from '../../../shared/runs/workload/workload.ts';
import { countTextTokens } from '../../../shared/tokenizer.ts';
import { listProvider, PromptFileError, readText } from './files.ts';
import { describeDist, sampleLength, type PromptItem, type PromptProvider } from './items.ts';

/** Lines of a tools dataset at most (a typo'd path to a huge file fails clearly). */
const MAX_TOOL_DATASET_LINES = 1_000_000;

function issuePath(p: readonly PropertyKey[]): string {
  return p
    .map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`))
    .join('')
    .replace(/^\./, '');
}

/**
 * The lines of a tools JSONL file, or a PromptFileError naming the first bad lines and fields.
 * @internal exported for its tests
 */
export function parseToolDataset(text: string, file: string): ToolDatasetLine[] {
  const out: ToolDatasetLine[] = [];
  const errors: string[] = [];
  const lines = text.split('\n');
  if (lines.length > MAX_TOOL_DATASET_LINES)
    throw new PromptFileError(`${file}: more than ${MAX_TOOL_DATASET_LINES} lines`);
  lines.forEach((line, i) => {
    if (line.trim() === '' || errors.length > 20) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      errors.push(`line ${i + 1}: not JSON`);
      return;
    }
    const r = ToolDatasetLine.safeParse(v);
    if (r.success) out.push(r.data);
    else {
      const iss = r.error.issues[0]!;
      errors.push(`line ${i + 1}: ${issuePath(iss.path) || '(line)'}: ${iss.message}`);
    }
  });
  if (errors.length > 0)
    throw new PromptFileError(
      `${file}: ${errors.slice(0, 5).join('; ')}${errors.length > 5 ? ` (+${errors.length - 5} more)` : ''}`,
    );
  if (out.length === 0) throw new PromptFileError(`${file}: no prompts`);
  return out;
}

export async function loadToolPrompts(
  src: Extract<PromptSource, { type: 'tools' }>,
  seed: number,
  baseDir: string,
): Promise<PromptProvider> {
  const file = src.path ? path.resolve(baseDir, src.path) : null;
  const lines = file ? parseToolDataset(await readText(file), file) : BUILTIN_TOOL_DATASET;
  const outDist = src.outputLen;
  const item = (k: number): PromptItem => {
    const l = lines[k]!;
    const out = l.output_len ?? (outDist ? sampleLength(outDist, new Rng(seed, `tools:out:${k}`)) : null);
    return {
      prompt: l.prompt,
      inputTokens: countTextTokens(l.prompt),
      outputTokens: out,
      tools: l.tools,
      ...(l.tool_choice !== undefined ? { toolChoice: l.tool_choice } : {}),
    };
  };
  const name = file ? `tools dataset ${path.basename(file)}` : 'built-in tools dataset';
  const desc = `${name} (${lines.length} prompts${outDist ? `, output ${describeDist(outDist)}` : ''})`;
  return listProvider(desc, lines.length, src.force, item, seed);
}
