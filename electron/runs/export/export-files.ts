/**
 * Export a run file as vLLM `--save-result` JSON or CSV, and import result files (vLLM JSON,
 * SGLang JSONL, or our own run files) — thin file I/O over the pure converters in shared/runs/.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { toCsv } from '../../../shared/runs/summary/csv.ts';
import { detectResultFormat, importSglangText } from '../../../shared/runs/import/sglang-format.ts';
import { importVllmText, toVllmResult, type ImportResult } from '../../../shared/runs/import/vllm-format.ts';
import { readRunFile } from '../files/run-file.ts';

async function loadRun(runFile: string) {
  const r = await readRunFile(runFile);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/** vLLM result JSON (one line, as vLLM's json.dump writes it); `detailed` adds --save-detailed's arrays. */
export async function exportVllmFile(
  runFile: string,
  outFile: string,
  opts: { detailed?: boolean } = {},
): Promise<void> {
  const run = await loadRun(runFile);
  await writeFile(outFile, JSON.stringify(toVllmResult(run.header, run.requests, run.summary, opts)), {
    mode: 0o600,
  });
}

export async function exportCsvFile(runFile: string, outFile: string): Promise<void> {
  const run = await loadRun(runFile);
  await writeFile(outFile, toCsv(run.requests), { mode: 0o600 });
}

/** Import a benchmark result of another tool; the format is detected from the content. */
export async function importResultFile(file: string, format?: 'vllm' | 'sglang'): Promise<ImportResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return {
      ok: false,
      error: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    };
  }
  const f = format ?? detectResultFormat(text);
  if (f === 'tokenscope')
    return { ok: false, error: 'this is a Tokenscope run file: open it with readRunFile' };
  if (f === 'sglang') return importSglangText(text);
  if (f === 'vllm') return importVllmText(text);
  return { ok: false, error: 'not a vLLM or SGLang benchmark result (no "duration" key)' };
}
