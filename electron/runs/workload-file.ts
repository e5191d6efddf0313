/**
 * Reading a workload file (JSON). Errors come back as values with a path, so the CLI and the app
 * can say "prompts.inputLen.max: min must be ≤ max" rather than throw. YAML is not read yet:
 * JSON is the format the app writes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseWorkload, type Workload, type WorkloadIssue } from '../../shared/runs/workload.ts';

export type WorkloadFileResult = { ok: true; raw: Record<string, unknown>; baseDir: string } | { ok: false; issues: WorkloadIssue[] };

/** The file's JSON object, unvalidated (callers may merge overrides before validating). */
export async function readWorkloadJson(file: string): Promise<WorkloadFileResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return { ok: false, issues: [{ path: '', message: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` }] };
  }
  if (/\.ya?ml$/i.test(file)) return { ok: false, issues: [{ path: '', message: 'YAML workloads are not supported yet; write the workload as JSON' }] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, issues: [{ path: '', message: `${file} is not valid JSON: ${(e as Error).message}` }] };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, issues: [{ path: '', message: 'a workload is a JSON object' }] };
  return { ok: true, raw: raw as Record<string, unknown>, baseDir: path.dirname(path.resolve(file)) };
}

export async function loadWorkloadFile(file: string): Promise<{ ok: true; workload: Workload; baseDir: string } | { ok: false; issues: WorkloadIssue[] }> {
  const r = await readWorkloadJson(file);
  if (!r.ok) return r;
  const v = parseWorkload(r.raw);
  return v.ok ? { ok: true, workload: v.workload, baseDir: r.baseDir } : v;
}

export function formatIssues(issues: readonly WorkloadIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('\n');
}
