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
 * scalars kept as metadata.
 */
import type { DialectId } from '../dialects.ts';
import { outcomeUnder } from './definitions.ts';
import { isCancelledLine } from './outcome.ts';
import { summarizeRunLines } from './summarize-run.ts';
import {
  errorsByMessage,
  num,
  numArray,
  outcomesFromArrays,
  parseJsonObjects,
  reportedFlatKeys,
  reportedStatKeys,
  STAT_METRIC_SET,
  statsFromReported,
  statsOfSeconds,
  type Json,
} from './import-common.ts';
import type {
  RequestOutcome,
  RunHeader,
  RunRequestLine,
  RunSummary,
  StatMetric,
  VllmMetrics,
} from './run-types.ts';
import { valuesOf, type SampleMetric } from './bootstrap.ts';
import { percentileSorted } from '../stats/summary.ts';
import { computeRunSummary, hasSlo, meetsSlo, percentileKey, vllmStatKeys } from './summary.ts';
import type { Slo } from './workload.ts';

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
export function measuredLines(lines: readonly RunRequestLine[]): RunRequestLine[] {
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
  if (opts.detailed) out.start_times = rows.map((l) => l.startedMs / 1000);
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

/** Keys that go into the summary itself; every other scalar (date, backend, label, model_id, …) is metadata. */
const SUMMARY_KEYS = new Set([
  'num_prompts',
  'request_rate',
  'burstiness',
  'max_concurrency',
  'duration',
  'completed',
  'failed',
  'total_input_tokens',
  'total_output_tokens',
  'request_throughput',
  'request_goodput',
  'request_goodput:',
  'output_throughput',
  'total_token_throughput',
  'max_output_tokens_per_s',
  'max_concurrent_requests',
  'rtfx',
]);

export interface ImportedRun {
  format: 'vllm' | 'sglang';
  summary: RunSummary;
  /** Per-request outcomes when the file had per-request arrays (charts), else null. */
  outcomes: RequestOutcome[] | null;
  label: string | null;
  model: string | null;
  date: string | null;
}

export type ImportResult =
  { ok: true; runs: ImportedRun[]; warnings: string[] } | { ok: false; error: string };

/** Metadata: unknown top-level scalars (e.g. `--metadata KEY=VALUE`), never arrays or stats. */
export function metadataOf(o: Json, known: Set<string>): Record<string, string | number | boolean | null> {
  const md: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(o)) {
    if (known.has(k) || /_ms$/.test(k)) continue;
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v))
      md[k] = v as string | number | boolean | null;
  }
  return md;
}

/**
 * Summary of one imported result. With per-request arrays, the numbers are recomputed by the same
 * code as native runs; whatever the arrays cannot give is taken as reported, and listed as such.
 */
export function importedSummary(
  o: Json,
  format: 'vllm' | 'sglang',
  aliases: Record<string, string> = {},
): { summary: RunSummary; outcomes: RequestOutcome[] | null } | string {
  const duration = num(o.duration);
  if (duration === null || !(duration > 0)) return 'no positive "duration": not a benchmark result';
  const rate = num(o.request_rate);
  const config: RunSummary['config'] = {
    maxConcurrency: num(o.max_concurrency),
    requestRate: rate === null ? null : rate === Infinity ? 'inf' : rate,
    burstiness: num(o.burstiness),
    numPrompts: num(o.num_prompts) ?? num(o.total_requests),
  };
  const reported = reportedStatKeys(o, aliases);
  const rep = (k: string): number | null => num(o[k]);
  const slo = sloOf(o.tokenscope_slo);
  const goodput = o.request_goodput !== undefined ? num(o.request_goodput) : num(o['request_goodput:']);
  const arr = outcomesFromArrays(o);
  const recomputed: string[] = [];
  const reportedList: string[] = [];
  const notes: string[] = [];
  const s = computeRunSummary({
    outcomes: arr?.outcomes ?? [],
    durationS: duration,
    config,
    source: format,
    // Measured by that tool's client: its per-request rules, not re-derivable here.
    definitions: format,
    imported: true,
    slo,
  });
  const v: VllmMetrics = s.vllm;
  // Stats keys come back below, either recomputed or as reported.
  for (const k of Object.keys(v)) if (k.endsWith('_ms')) delete v[k];
  const useReported = (metric: string): void => {
    Object.assign(v, reportedFlatKeys(metric, reported.get(metric)));
    if (STAT_METRIC_SET.has(metric)) s.stats[metric as StatMetric] = statsFromReported(reported.get(metric));
    if (reported.has(metric)) reportedList.push(metric);
  };
  if (arr) {
    recomputed.push('completed', 'failed', 'total_output_tokens', 'ttft', 'itl');
    const can: Record<string, boolean> = {
      ttft: true,
      itl: true,
      tpot: arr.has.latencies,
      e2el: arr.has.latencies,
      client_queue_time: arr.has.queueTimes,
    };
    for (const m of ['ttft', 'tpot', 'itl', 'e2el'] as const)
      if (can[m]) {
        Object.assign(v, vllmStatKeys(m, s.stats[m]));
        // Percentiles the file reported beyond ours (`--metric-percentiles 50,75`): recomputed too.
        const extra = Object.keys(reported.get(m) ?? {}).filter(
          (k) => /^p\d/.test(k) && v[`${k}_${m}_ms`] === undefined,
        );
        if (extra.length) {
          const sorted = pooledSorted(arr.outcomes, m);
          for (const k of extra)
            v[`${k}_${m}_ms`] = sorted.length ? percentileSorted(sorted, Number(k.slice(1))) : 0;
        }
      }
    if (arr.has.latencies) recomputed.push('tpot', 'e2el');
    if (arr.has.queueTimes) recomputed.push('client_queue_time');
    for (const metric of reported.keys()) if (!can[metric]) useReported(metric);
    if (!arr.has.inputLens) {
      v.total_input_tokens = rep('total_input_tokens') ?? 0;
      v.total_token_throughput = (v.total_input_tokens + v.total_output_tokens) / duration;
      reportedList.push('total_input_tokens');
    } else recomputed.push('total_input_tokens');
    if (!arr.has.startTimes) {
      v.max_concurrent_requests = rep('max_concurrent_requests');
      v.max_output_tokens_per_s = rep('max_output_tokens_per_s');
      reportedList.push('max_concurrent_requests', 'max_output_tokens_per_s');
    } else recomputed.push('max_concurrent_requests', 'max_output_tokens_per_s');
    s.errors = errorsByMessage(o, arr.outcomes);
  } else {
    const completed = rep('completed') ?? 0;
    let failed = rep('failed');
    if (failed === null) {
      const n = config.numPrompts;
      failed = n !== null ? Math.max(0, n - completed) : 0;
      notes.push(
        `"failed" not in the file (older version): inferred as ${n !== null ? 'num_prompts − completed' : '0'}`,
      );
    }
    const tin = rep('total_input_tokens') ?? 0;
    const tout = rep('total_output_tokens') ?? 0;
    Object.assign(v, {
      completed,
      failed,
      total_input_tokens: tin,
      total_output_tokens: tout,
      request_throughput: rep('request_throughput') ?? completed / duration,
      output_throughput: rep('output_throughput') ?? tout / duration,
      total_token_throughput:
        rep('total_token_throughput') ?? rep('total_throughput') ?? (tin + tout) / duration,
      max_output_tokens_per_s: rep('max_output_tokens_per_s'),
      max_concurrent_requests: rep('max_concurrent_requests'),
    });
    for (const metric of reported.keys()) useReported(metric);
    // A result without failures carries every request's latency and queue time even without
    // --save-detailed: those two can still be recomputed exactly.
    const lat = numArray(o.latencies);
    const qt = numArray(o.queue_times);
    if (failed === 0 && lat && lat.length === completed && completed > 0) {
      s.stats.e2el = statsOfSeconds(lat);
      Object.assign(v, vllmStatKeys('e2el', s.stats.e2el));
      recomputed.push('e2el');
    }
    if (failed === 0 && qt && qt.length === completed && completed > 0) {
      s.stats.client_queue_time = statsOfSeconds(qt);
      recomputed.push('client_queue_time');
    }
    reportedList.push('completed', 'failed', 'totals', 'throughputs');
    s.tokens.outputSource = { 'per-event': 0, 'usage-total': 0, estimated: 0 };
  }
  const rtfx = rep('rtfx');
  if (rtfx !== null) v.rtfx = rtfx;
  if (slo && arr) {
    // The SLOs came with the file (a Tokenscope export): goodput recomputed as for a native run.
    const good = arr.outcomes.filter((x) => x.ok && meetsSlo(x, slo)).length;
    s.goodRequests = good;
    v.request_goodput = good / duration;
    recomputed.push('request_goodput');
  } else {
    v.request_goodput = goodput;
    if (goodput !== null)
      reportedList.push(slo ? 'request_goodput' : 'request_goodput (the SLOs are not in the file)');
  }
  s.importInfo = {
    recomputed: [...new Set(recomputed)],
    reported: [...new Set(reportedList)],
    notes,
    metadata: metadataOf(o, SUMMARY_KEYS),
  };
  // A Tokenscope run exported in this format: Tokenscope's client measured it, not the tool's.
  if (typeof o.tokenscope_version === 'string') s.measuredBy = 'tokenscope';
  return { summary: s, outcomes: arr?.outcomes ?? null };
}

/** The SLOs a Tokenscope export carries (`tokenscope_slo`), or null. */
function sloOf(v: unknown): Slo | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const ms = (x: unknown): number | undefined =>
    typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : undefined;
  const slo: Slo = {};
  const t = ms(o.ttft_ms);
  const p = ms(o.tpot_ms);
  const e = ms(o.e2el_ms);
  if (t !== undefined) slo.ttftMs = t;
  if (p !== undefined) slo.tpotMs = p;
  if (e !== undefined) slo.e2elMs = e;
  return hasSlo(slo) ? slo : null;
}

/** A metric's values over successful requests, pooled and sorted (as the summary takes them). */
function pooledSorted(
  outcomes: readonly RequestOutcome[],
  m: 'ttft' | 'tpot' | 'itl' | 'e2el',
): Float64Array {
  const metric: SampleMetric = m === 'itl' ? 'itl_every_gap' : m;
  const all: number[] = [];
  for (const o of outcomes) for (const x of valuesOf(o, metric) ?? []) all.push(x);
  return Float64Array.from(all).sort();
}

/** Import a vLLM result file's text (one result, or several appended with --append-result). */
export function importVllmText(text: string): ImportResult {
  const { objects, errors } = parseJsonObjects(text);
  if (objects.length === 0) return { ok: false, error: errors[0] ?? 'no JSON object in the file' };
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
  if (runs.length === 0) return { ok: false, error: warnings[0] ?? 'no result' };
  return { ok: true, runs, warnings };
}
