/**
 * The summary of one imported benchmark result (a vLLM or SGLang result object, vllm-format.ts and
 * sglang-format.ts): recomputed from per-request arrays where the file has them, otherwise taken as
 * reported, with the import's record of which number came from where.
 */
import {
  errorsByMessage,
  num,
  numArray,
  outcomesFromArrays,
  reportedFlatKeys,
  reportedStatKeys,
  STAT_METRIC_SET,
  statsFromReported,
  statsOfSeconds,
  type ArrayOutcomes,
  type Json,
} from './common.ts';
import { valuesOf, type SampleMetric } from '../compare/bootstrap-samples.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import type { RunSummary, StatMetric, VllmMetrics } from '../summary/schema.ts';
import { percentileSorted } from '../../stats/summary.ts';
import { computeRunSummary, hasSlo, meetsSlo, vllmStatKeys } from '../summary/summary.ts';
import type { Slo } from '../workload/workload.ts';

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

/** Metadata: unknown top-level scalars (e.g. `--metadata KEY=VALUE`), never arrays or stats. */
function metadataOf(o: Json, known: Set<string>): Record<string, string | number | boolean | null> {
  const md: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(o)) {
    if (known.has(k) || /_ms$/.test(k)) continue;
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v))
      md[k] = v as string | number | boolean | null;
  }
  return md;
}

/** One result being imported: the file's object, the summary being built, and where its numbers came from. */
interface ImportContext {
  o: Json;
  duration: number;
  config: RunSummary['config'];
  /** Reported `<stat>_<metric>_ms` keys, by our metric name. */
  reported: Map<string, Record<string, number>>;
  /** The summary being built, and its vLLM keys (s.vllm). */
  s: RunSummary;
  v: VllmMetrics;
  recomputed: string[];
  reportedList: string[];
  notes: string[];
}

/** A top-level number of the file, as reported. */
const rep = (ctx: ImportContext, k: string): number | null => num(ctx.o[k]);

/** A metric taken as reported: its flat keys, its stats where it is one of ours, and listed as such. */
function useReported(ctx: ImportContext, metric: string): void {
  const { v, s, reported } = ctx;
  Object.assign(v, reportedFlatKeys(metric, reported.get(metric)));
  if (STAT_METRIC_SET.has(metric)) s.stats[metric as StatMetric] = statsFromReported(reported.get(metric));
  if (reported.has(metric)) ctx.reportedList.push(metric);
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
  const slo = sloOf(o.tokenscope_slo);
  const goodput = o.request_goodput !== undefined ? num(o.request_goodput) : num(o['request_goodput:']);
  const arr = outcomesFromArrays(o);
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
  const ctx: ImportContext = {
    o,
    duration,
    config,
    reported,
    s,
    v,
    recomputed: [],
    reportedList: [],
    notes: [],
  };
  if (arr) recomputeFromArrays(ctx, arr);
  else takeAsReported(ctx);
  const rtfx = rep(ctx, 'rtfx');
  if (rtfx !== null) v.rtfx = rtfx;
  applyGoodput(ctx, slo, arr, goodput);
  s.importInfo = {
    recomputed: [...new Set(ctx.recomputed)],
    reported: [...new Set(ctx.reportedList)],
    notes: ctx.notes,
    metadata: metadataOf(o, SUMMARY_KEYS),
  };
  // A Tokenscope run exported in this format: Tokenscope's client measured it, not the tool's.
  if (typeof o.tokenscope_version === 'string') s.measuredBy = 'tokenscope';
  return { summary: s, outcomes: arr?.outcomes ?? null };
}

/** With per-request arrays: every number they can give recomputed, the rest taken as reported. */
function recomputeFromArrays(ctx: ImportContext, arr: ArrayOutcomes): void {
  const { s, v, reported, recomputed, reportedList, duration } = ctx;
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
  for (const metric of reported.keys()) if (!can[metric]) useReported(ctx, metric);
  if (!arr.has.inputLens) {
    v.total_input_tokens = rep(ctx, 'total_input_tokens') ?? 0;
    v.total_token_throughput = (v.total_input_tokens + v.total_output_tokens) / duration;
    reportedList.push('total_input_tokens');
  } else recomputed.push('total_input_tokens');
  if (!arr.has.startTimes) {
    v.max_concurrent_requests = rep(ctx, 'max_concurrent_requests');
    v.max_output_tokens_per_s = rep(ctx, 'max_output_tokens_per_s');
    reportedList.push('max_concurrent_requests', 'max_output_tokens_per_s');
  } else recomputed.push('max_concurrent_requests', 'max_output_tokens_per_s');
  s.errors = errorsByMessage(ctx.o, arr.outcomes);
}

/** Without per-request arrays: the counts, totals and statistics as the file reported them. */
function takeAsReported(ctx: ImportContext): void {
  const { s, v, reported, recomputed, reportedList, duration, config } = ctx;
  const completed = rep(ctx, 'completed') ?? 0;
  let failed = rep(ctx, 'failed');
  if (failed === null) {
    const n = config.numPrompts;
    failed = n !== null ? Math.max(0, n - completed) : 0;
    ctx.notes.push(
      `"failed" not in the file (older version): inferred as ${n !== null ? 'num_prompts − completed' : '0'}`,
    );
  }
  const tin = rep(ctx, 'total_input_tokens') ?? 0;
  const tout = rep(ctx, 'total_output_tokens') ?? 0;
  Object.assign(v, {
    completed,
    failed,
    total_input_tokens: tin,
    total_output_tokens: tout,
    request_throughput: rep(ctx, 'request_throughput') ?? completed / duration,
    output_throughput: rep(ctx, 'output_throughput') ?? tout / duration,
    total_token_throughput:
      rep(ctx, 'total_token_throughput') ?? rep(ctx, 'total_throughput') ?? (tin + tout) / duration,
    max_output_tokens_per_s: rep(ctx, 'max_output_tokens_per_s'),
    max_concurrent_requests: rep(ctx, 'max_concurrent_requests'),
  });
  for (const metric of reported.keys()) useReported(ctx, metric);
  // A result without failures carries every request's latency and queue time even without
  // --save-detailed: those two can still be recomputed exactly.
  const lat = numArray(ctx.o.latencies);
  const qt = numArray(ctx.o.queue_times);
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

/** Goodput: recomputed where the file carries its SLOs and per-request arrays, else as reported. */
function applyGoodput(
  ctx: ImportContext,
  slo: Slo | null,
  arr: ArrayOutcomes | null,
  goodput: number | null,
): void {
  const { s, v, duration } = ctx;
  if (slo && arr) {
    // The SLOs came with the file (a Tokenscope export): goodput recomputed as for a native run.
    const good = arr.outcomes.filter((x) => x.ok && meetsSlo(x, slo)).length;
    s.goodRequests = good;
    v.request_goodput = good / duration;
    ctx.recomputed.push('request_goodput');
  } else {
    v.request_goodput = goodput;
    if (goodput !== null)
      ctx.reportedList.push(slo ? 'request_goodput' : 'request_goodput (the SLOs are not in the file)');
  }
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
