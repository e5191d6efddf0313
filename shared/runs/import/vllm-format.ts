/**
 * vLLM `vllm bench serve --save-result [--save-detailed]` JSON, both ways. The contract is
 * test-corpus/VLLM-BENCH-RESULT.md §5 (vllm/benchmarks/serve.py@009e6d4): durations and
 * per-request values in SECONDS (`duration`, `latencies`, `ttfts`, `itls`, `start_times`,
 * `queue_times`), statistics in ms (`mean_ttft_ms`, `p99.9_itl_ms`), `request_rate` "inf" when
 * infinite, `itls` = per-request chunk gaps, `output_lens` 0 for failures.
 *
 * Import quirks handled: `request_goodput:` (older key with a colon), `failed` absent (older
 * versions), arrays absent (no --save-detailed), `start_times` on an arbitrary perf_counter epoch,
 * several results in one file (--append-result), Python's bare Infinity/NaN, unknown top-level
 * scalars kept as metadata. The summary of an imported result is built in imported-summary.ts
 * (shared with SGLang's format).
 */
import type { DialectId } from '../../dialects.ts';
import { fail, ok, type Result } from '../../result.ts';
import { outcomeUnder } from '../summary/definitions.ts';
import { importedSummary } from './imported-summary.ts';
import { parseJsonObjects, type Json } from './common.ts';
import { isCancelledLine, requestOriginMs } from '../summary/outcome.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import type { RunSummary } from '../summary/schema.ts';
import { summarizeRunLines } from '../summary/summarize-run.ts';
import { percentileKey, vllmStatKeys } from '../summary/summary.ts';

const BACKENDS: Partial<Record<DialectId, string>> = {
  'openai-completions': 'openai',
  'openai-chat': 'openai-chat',
  tgi: 'tgi',
  llamacpp: 'llama.cpp',
};

function vllmDate(wall: number): string {
  const d = new Date(wall);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/** The measured requests in dispatch order, as the summary counted them. */
function measuredLines(lines: readonly RunRequestLine[]): RunRequestLine[] {
  return lines.filter((l) => !l.warmup && !isCancelledLine(l)).sort((a, b) => a.seq - b.seq);
}

/**
 * A run as vLLM's `--save-result` JSON, its numbers under vLLM's own per-request rules
 * (definitions.ts 'vllm': TTFT at the first `choices` chunk, every chunk gap, latency to the last
 * `choices` chunk, vLLM's success rule), re-derived from the run's events — so a file from this
 * export and one from `vllm bench serve` on the same server mean the same thing. The stored
 * (Tokenscope) summary gives the duration; `tokenscope_definitions` says which rules were used.
 */
export function toVllmResult(
  header: RunHeader,
  lines: readonly RunRequestLine[],
  stored: RunSummary,
  opts: { detailed?: boolean } = {},
): Json {
  const w = header.workload;
  const rows = measuredLines(lines);
  const dialect = header.target.dialect;
  const oc = rows.map((l) => outcomeUnder(l, 'vllm', dialect));
  const summary = summarizeRunLines(header, lines, {
    durationS: stored.vllm.duration,
    definitions: 'vllm',
    partial: stored.partial,
    cancelled: stored.cancelled,
  });
  const backend = BACKENDS[header.target.dialect] ?? header.target.dialect;
  const out: Json = {
    date: vllmDate(header.startedAtWall),
    endpoint_type: backend,
    backend,
    label: header.name,
    model_id: header.target.model,
    tokenizer_id: null, // Tokenscope uses no tokenizer: token counts come from the server (see token_source)
    num_prompts: w.requests ?? rows.length,
    request_rate: w.rate,
    burstiness: w.burstiness,
    max_concurrency: w.maxConcurrency,
  };
  if (w.rampUp) {
    Object.assign(out, {
      ramp_up_strategy: 'linear',
      ramp_up_start_rps: w.rampUp.startRate,
      ramp_up_end_rps: w.rate,
      tokenscope_ramp_up_duration_s: w.rampUp.durationS,
    });
  }
  const v = summary.vllm;
  Object.assign(out, {
    duration: v.duration,
    completed: v.completed,
    failed: v.failed,
    total_input_tokens: v.total_input_tokens,
    total_output_tokens: v.total_output_tokens,
    request_throughput: v.request_throughput,
    request_goodput: v.request_goodput,
    output_throughput: v.output_throughput,
    total_token_throughput: v.total_token_throughput,
  });
  if (opts.detailed) {
    out.input_lens = rows.map((l) => l.inputTokens ?? 0);
    out.output_lens = oc.map((o) => (o.ok ? o.outputTokens : 0));
    out.ttfts = oc.map((o) => (o.ttftMs ?? 0) / 1000);
    out.itls = oc.map((o) => o.itlChunkMs.map((g) => g / 1000));
  }
  // vLLM leaves latency at 0.0 for a failed request.
  out.latencies = oc.map((o) => (o.ok ? (o.e2eMs ?? 0) / 1000 : 0));
  if (opts.detailed) out.start_times = rows.map((l) => requestOriginMs(l) / 1000);
  out.queue_times = rows.map((l) => l.queueMs / 1000);
  if (opts.detailed) {
    out.generated_texts = rows.map((l) => l.text ?? '');
    // Empty for a success under vLLM's rule (an in-band error event does not fail it there).
    out.errors = rows.map((l, i) =>
      l.error && !oc[i]!.ok ? `${l.error.kind}/${l.error.code}: ${l.error.message}` : '',
    );
  }
  Object.assign(out, {
    max_output_tokens_per_s: v.max_output_tokens_per_s,
    max_concurrent_requests: v.max_concurrent_requests,
    rtfx: 0,
  });
  for (const m of ['ttft', 'tpot', 'itl', 'e2el'] as const) {
    Object.assign(out, vllmStatKeys(m, summary.stats[m]));
    // As `--metric-percentiles 50,…` writes it: the median under its percentile name too.
    out[percentileKey(50, m)] = (summary.stats[m]?.vllm ?? summary.stats[m])?.median ?? 0;
  }
  // Extras under vLLM's own naming (client_queue_time) or ours (itl_per_token); vLLM readers ignore them.
  if (summary.stats.client_queue_time)
    Object.assign(out, vllmStatKeys('client_queue_time', summary.stats.client_queue_time));
  if (summary.stats.itl_per_token)
    Object.assign(out, vllmStatKeys('itl_per_token', summary.stats.itl_per_token));
  // vLLM writes no goodput SLOs into its result; ours ride along so an import recomputes goodput.
  if (summary.slo)
    out.tokenscope_slo = {
      ...(summary.slo.ttftMs !== undefined ? { ttft_ms: summary.slo.ttftMs } : {}),
      ...(summary.slo.tpotMs !== undefined ? { tpot_ms: summary.slo.tpotMs } : {}),
      ...(summary.slo.e2elMs !== undefined ? { e2el_ms: summary.slo.e2elMs } : {}),
    };
  Object.assign(out, {
    tokenscope_version: header.tokenscopeVersion,
    tokenscope_run_id: header.runId,
    tokenscope_definitions: 'vllm',
    tokenscope_token_source: summary.tokens.outputSource,
  });
  return out;
}

export interface ImportedRun {
  format: 'vllm' | 'sglang';
  summary: RunSummary;
  /** Per-request outcomes when the file had per-request arrays (charts), else null. */
  outcomes: RequestOutcome[] | null;
  label: string | null;
  model: string | null;
  date: string | null;
}

/** The runs a result file holds, with warnings about what could not be read; or why none could. */
export type ImportResult = Result<{ runs: ImportedRun[]; warnings: string[] }, string>;

/** Import a vLLM result file's text (one result, or several appended with --append-result). */
export function importVllmText(text: string): ImportResult {
  const { objects, errors } = parseJsonObjects(text);
  if (objects.length === 0) return fail(errors[0] ?? 'no JSON object in the file');
  const runs: ImportedRun[] = [];
  const warnings = [...errors];
  objects.forEach((o, i) => {
    const r = importedSummary(o, 'vllm');
    if (typeof r === 'string') {
      warnings.push(`result ${i + 1}: ${r}`);
      return;
    }
    runs.push({
      format: 'vllm',
      ...r,
      label: typeof o.label === 'string' ? o.label : null,
      model: typeof o.model_id === 'string' ? o.model_id : null,
      date: typeof o.date === 'string' ? o.date : null,
    });
  });
  if (runs.length === 0) return fail(warnings[0] ?? 'no result');
  return ok({ runs, warnings });
}
