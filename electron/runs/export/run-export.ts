/**
 * A run's exports besides its raw file: a CSV of its requests, or a vLLM result (aggregate or
 * `--save-detailed`), named after the run.
 */
import { toCsv } from '../../../shared/runs/summary/csv.ts';
import { toVllmResult } from '../../../shared/runs/import/vllm-format.ts';
import type { RunDetail, RunExport } from '../../../shared/runs-api.ts';
import { RunError } from '../files/run-keys.ts';

/** A run's name as a file name: letters, digits, `.`, `_` and `-` only; null when nothing is left. @internal exported for its tests */
export function fileNameOf(name: string | null | undefined): string | null {
  const slug = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return slug || null;
}

/** An opened Tokenscope run as CSV or vLLM JSON; `fileBase` names it when the run has no name. */
export function exportDetail(
  d: RunDetail,
  format: 'vllm' | 'vllm-detailed' | 'csv',
  fileBase: string,
): RunExport {
  if (!d.header || !d.lines) throw new RunError('nothing to export');
  // Named after the run ("e2e simulator run" → e2e-simulator-run.csv); its file's name without one.
  const base = fileNameOf(d.entry.name) ?? fileBase;
  if (format === 'csv') return { filename: `${base}.csv`, mime: 'text/csv', content: toCsv(d.lines) };
  const json = toVllmResult(d.header, d.lines, d.summary, { detailed: format === 'vllm-detailed' });
  return {
    filename: `${base}${format === 'vllm-detailed' ? '-detailed' : ''}.vllm.json`,
    mime: 'application/json',
    content: JSON.stringify(json),
  };
}
