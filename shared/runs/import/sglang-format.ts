/**
 * SGLang `python -m sglang.bench_serving --output-file` JSONL: one result object per line
 * (VLLM-BENCH-RESULT.md §5.3). Same shape of keys as vLLM, except `*_e2e_latency_ms` for E2E,
 * `concurrency` (the mean, not the peak), and with `--output-details` the arrays input_lens,
 * output_lens, ttfts, itls, generated_texts, errors — but no latencies or start times, so TPOT,
 * E2E and peaks are taken as reported even when TTFT and ITL are recomputed.
 */
import { fail, ok } from '../../result.ts';
import { parseJsonObjects } from './common.ts';
import { importedSummary } from './imported-summary.ts';
import type { ImportResult, ImportedRun } from './vllm-format.ts';

export function importSglangText(text: string): ImportResult {
  const { objects, errors } = parseJsonObjects(text);
  if (objects.length === 0) return fail(errors[0] ?? 'no JSON object in the file');
  const runs: ImportedRun[] = [];
  const warnings = [...errors];
  objects.forEach((o, i) => {
    const r = importedSummary(o, 'sglang', { e2e_latency: 'e2el' });
    if (typeof r === 'string') {
      warnings.push(`line ${i + 1}: ${r}`);
      return;
    }
    r.summary.importInfo?.notes.push(
      'SGLang: TTFT is the first chunk with non-empty text; E2E ends at the last line received (incl. [DONE]); "concurrency" is the mean, not the peak.',
    );
    runs.push({
      format: 'sglang',
      ...r,
      label: typeof o.tag === 'string' ? o.tag : null,
      model: typeof o.model_id === 'string' ? o.model_id : null,
      date: null,
    });
  });
  if (runs.length === 0) return fail(warnings[0] ?? 'no result');
  return ok({ runs, warnings });
}

/** Which format a result file's text is: SGLang results have `*_e2e_latency_ms`, vLLM's `date`/`endpoint_type`. */
export function detectResultFormat(text: string): 'vllm' | 'sglang' | 'tokenscope' | null {
  const head = text.slice(0, 4096);
  if (/"format"\s*:\s*"tokenscope-run"/.test(head)) return 'tokenscope';
  if (/_e2e_latency_ms"/.test(text) && !/"endpoint_type"/.test(text)) return 'sglang';
  if (/"duration"/.test(text)) return 'vllm';
  return null;
}
