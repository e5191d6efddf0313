/**
 * A vLLM/SGLang result file's bytes → its runs, in bounded memory: the text Tokenscope never reads
 * (generated texts, prompts) is dropped before parsing (shared/runs/import/result-slim.ts). A 200 MB file
 * is one JSON.parse that cannot be sliced, so the core runs it on a thread of its own
 * (thread.ts); this module is what that thread runs, and the fallback when it cannot start.
 */
import { readFile } from 'node:fs/promises';
import { slimResultBytes } from '../../../shared/runs/import/result-slim.ts';
import { detectResultFormat, importSglangText } from '../../../shared/runs/import/sglang-format.ts';
import { importVllmText, type ImportResult } from '../../../shared/runs/import/vllm-format.ts';

export function importBytes(bytes: Uint8Array): ImportResult {
  return importText(slimResultBytes(bytes));
}

function importText(text: string): ImportResult {
  const f = detectResultFormat(text);
  if (f === 'tokenscope')
    return { ok: false, error: 'this is a Tokenscope run file, not a vLLM or SGLang result' };
  if (f === 'sglang') return importSglangText(text);
  if (f === 'vllm') return importVllmText(text);
  return { ok: false, error: 'not a vLLM or SGLang benchmark result (no "duration" key)' };
}

/** What a thread is asked: a file to read and parse (`outcomes`: keep each run's per-request outcomes). */
export interface ImportJob {
  file: string;
  outcomes: boolean;
}

/** Reads and parses `job.file`; the runs' outcomes dropped unless asked for (they are most of it). */
export async function importJob(job: ImportJob): Promise<ImportResult> {
  const r = importBytes(await readFile(job.file));
  if (!r.ok || job.outcomes) return r;
  return { ok: true, value: { ...r.value, runs: r.value.runs.map((x) => ({ ...x, outcomes: null })) } };
}
