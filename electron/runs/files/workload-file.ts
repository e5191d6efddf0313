/**
 * Reading a workload file (JSON, or YAML for .yaml/.yml). Errors come back as values with a path,
 * so the CLI and the app can say "prompts.inputLen.max: min must be ≤ max" rather than throw.
 */
import { plainMessage } from '../../../shared/runs/workload/messages.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { WorkloadIssue } from '../../../shared/runs/workload/workload.ts';
import { parseWorkloadText } from '../../../shared/runs/workload/text.ts';
import { fail, ok, type Result, errorMessage } from '../../../shared/result.ts';

/** A workload file's object (unvalidated) and the folder its relative paths are read from. */
export type WorkloadFileResult = Result<{ raw: Record<string, unknown>; baseDir: string }, WorkloadIssue[]>;

/** The file's JSON object, unvalidated (callers may merge overrides before validating). */
export async function readWorkloadJson(file: string): Promise<WorkloadFileResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return fail([
      {
        path: '',
        message: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`,
      },
    ]);
  }
  const r = parseWorkloadText(text, file);
  if (!r.ok) return r;
  return ok({ raw: r.value, baseDir: path.dirname(path.resolve(file)) });
}

/** `label`: how to name a path to the reader (the CLI names the flag that set it: `-c/--concurrency`). */
export function formatIssues(
  issues: readonly WorkloadIssue[],
  label: (path: string) => string = (p) => p,
): string {
  return issues
    .map((i) => {
      const m = plainMessage(i.path, i.message);
      return i.path ? `${label(i.path)}: ${m}` : m;
    })
    .join('\n');
}
