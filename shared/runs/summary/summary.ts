/**
 * The summary of a load run: everything `vllm bench serve` reports, computed exactly as vLLM does
 * (vllm/benchmarks/serve.py `calculate_metrics`, test-corpus/VLLM-BENCH-RESULT.md,
 * METRIC-DEFINITIONS.md §4.1), plus Tokenscope's own numbers. Pure: runs in the core, the CLI and
 * the renderer, on native runs, reopened files and imports alike.
 *
 * vLLM's rules, followed here:
 * - Only successful requests count for TTFT/TPOT/ITL/E2E, input tokens and output tokens.
 * - TPOT statistics use requests with more than one output token; for goodput a request with
 *   N ≤ 1 has TPOT 0.
 * - ITL is pooled: every chunk gap of every successful request in one list, so long requests
 *   weigh more.
 *
 * Where Tokenscope differs, on purpose: its own ITL (`stats.itl`, `stats.itl_per_token`) leaves out
 * coalesced gaps — gaps between content events one socket read carried together, ~0 ms by
 * construction (shared/stats/request-stats.ts) — and `coalesced` says how many there were. vLLM's
 * keys keep every gap (vLLM's client records them too): they come from `stats.itl.vllm`, present
 * when the two differ. Imports carry no read information: their ITL is every gap.
 * - Throughputs divide by the run's duration (first dispatch → last completion, warm-up excluded).
 * - Goodput: successful requests meeting every SLO given (metric ≤ SLO), per second; null without SLOs.
 * - Statistics: numpy mean/median/std (population)/percentile (linear); an empty list reports 0
 *   (vLLM's `np.mean(x or 0)`) in the vLLM keys, null in `stats`.
 * - max_concurrent_requests: sweep over successful requests' [start, start + latency), a
 *   departure before an arrival at equal times; max_output_tokens_per_s under vLLM's definitions:
 *   chunk times (start + TTFT + cumulative ITL) counted in 1-second buckets from the first start
 *   (chunks, not tokens — vllm-project/vllm#50677); under Tokenscope's and AIPerf's, tokens, never
 *   below output_throughput (peaks.ts maxTokensPerSecond), `tokens.peakEstimated` when spread.
 */
import { summarize, type Summary } from '../../stats/summary.ts';
import { DEFINITIONS, type DefinitionsId } from './definitions.ts';
import type { TokenSource } from '../../request.ts';
import type { Slo } from '../workload/workload.ts';
import { GapPools, type GapList } from './gap-pools.ts';
import { maxChunksPerSecond, maxTokensPerSecond, peakConcurrency } from './peaks.ts';
import {
  VLLM_PERCENTILES,
  type CoalescedGaps,
  type MetricStats,
  type ReasoningTotals,
  type RunSummary,
  type StatMetric,
  type VllmMetrics,
} from './schema.ts';
import { type RequestOutcome } from './outcome.ts';
import type { SelfCheck } from './self-check-schema.ts';
import { batchSummaryOf } from './batch.ts';

export interface SummaryInput {
  /** Measured requests only: no warm-up, no requests the user's cancel stopped. */
  outcomes: readonly RequestOutcome[];
  durationS: number;
  slo?: Slo | null;
  config: RunSummary['config'];
  source?: RunSummary['source'];
  imported?: boolean;
  partial?: boolean;
  cancelled?: boolean;
  cancelledRequests?: number;
  warmupRequests?: number;
  selfCheck?: SelfCheck | null;
  /** Whose per-request rules made the outcomes (definitions.ts); default 'tokenscope'. */
  definitions?: DefinitionsId;
  /** What the peak output throughput counts; default by the definitions (tokens for Tokenscope's). */
  peak?: 'chunks' | 'tokens';
  /**
   * A run of a non-streaming dialect (embeddings, rerank): no TTFT, TPOT or ITL exists — absent
   * from `stats` and the vLLM keys, not zeros — and `batch` says what it measured (batch.ts).
   */
  nonStreaming?: boolean;
}

export function toMetricStats(s: Summary | null): MetricStats | null {
  if (!s) return null;
  return {
    count: s.count,
    mean: s.mean,
    median: s.median,
    std: s.std,
    min: s.min,
    max: s.max,
    p90: s.p90,
    p95: s.p95,
    p99: s.p99,
    p999: s.p999,
  };
}

/** vLLM's percentile key: `p99`, `p99.9` (int when integral, else as written). */
export function percentileKey(p: number, metric: string): string {
  return `p${String(p)}_${metric}_ms`; // JS prints 99.9 and 99 as Python's str() does
}

const PCT_FIELD: Record<number, 'p90' | 'p95' | 'p99' | 'p999'> = {
  90: 'p90',
  95: 'p95',
  99: 'p99',
  99.9: 'p999',
};

/**
 * mean/median/std/p…_{metric}_ms as vLLM writes them: 0 for an empty list. From `s.vllm` when
 * present (the metric as vLLM defines it, where ours differs: ITL with coalesced gaps kept).
 */
export function vllmStatKeys(metric: string, stats: MetricStats | null): Record<string, number> {
  const s = stats?.vllm ?? stats;
  const out: Record<string, number> = {
    [`mean_${metric}_ms`]: s?.mean ?? 0,
    [`median_${metric}_ms`]: s?.median ?? 0,
    [`std_${metric}_ms`]: s?.std ?? 0,
  };
  for (const p of VLLM_PERCENTILES) out[percentileKey(p, metric)] = s?.[PCT_FIELD[p]!] ?? 0;
  return out;
}

export function hasSlo(slo: Slo | null | undefined): slo is Slo {
  return !!slo && (slo.ttftMs !== undefined || slo.tpotMs !== undefined || slo.e2elMs !== undefined);
}

/** vLLM's goodput test: every SLO given is met (metric ≤ SLO); TPOT counts as 0 when N ≤ 1. */
export function meetsSlo(o: RequestOutcome, slo: Slo): boolean {
  if (slo.ttftMs !== undefined && !(o.ttftMs !== null && o.ttftMs <= slo.ttftMs)) return false;
  const tpot = o.outputTokens > 1 ? o.tpotMs : 0;
  if (slo.tpotMs !== undefined && !(tpot !== null && tpot <= slo.tpotMs)) return false;
  if (slo.e2elMs !== undefined && !(o.e2eMs !== null && o.e2eMs <= slo.e2elMs)) return false;
  return true;
}

export function coalescedOf(gaps: number, totalGaps: number): CoalescedGaps {
  return { gaps, totalGaps, share: totalGaps > 0 ? gaps / totalGaps : 0 };
}

/**
 * Tokenscope's ITL per chunk, with vLLM's (every gap) attached when the two lists differ. When every
 * gap was coalesced ours is empty: count 0 (values 0, as vLLM reports an empty list), vLLM's attached.
 */
function ownItl(pools: GapPools, own: GapList, all: GapList): MetricStats | null {
  const s = toMetricStats(pools.stats(own));
  if (pools.same(own, all) || pools.length(all) === 0) return s;
  const vllm = toMetricStats(pools.stats(all))!;
  const empty: MetricStats = {
    count: 0,
    mean: 0,
    median: 0,
    std: 0,
    min: null,
    max: null,
    p90: null,
    p95: null,
    p99: null,
    p999: null,
  };
  return { ...(s ?? empty), vllm };
}

/** What the successful requests pool, in one pass over them (every list in request order). */
interface Pools {
  totalIn: number;
  totalOut: number;
  ttfts: number[];
  tpots: number[];
  /**
   * The gap lists (gap-pools.ts): every chunk gap (vLLM's ITL); Tokenscope's, coalesced gaps left
   * out where known (where nothing knows, imports, the very same list); per token, from those and
   * from every gap.
   */
  gaps: GapPools;
  coalescedGaps: number;
  knownGaps: number;
  coalescedKnown: boolean;
  e2els: number[];
  queues: number[];
  firsts: number[];
  /** TTFAT per request (its TTFT where it did not reason); empty when none reasoned. */
  ttfats: number[];
  reasoning: ReasoningTotals | null;
  outputSource: Record<TokenSource, number>;
  /** Of them, counted by the server's tokenizer from their text. */
  outputTokenized: number;
  inUsage: number;
  inEst: number;
  usageRefused: number;
}

function poolSuccessful(ok: readonly RequestOutcome[]): Pools {
  let totalIn = 0;
  let totalOut = 0;
  const ttfts: number[] = [];
  const tpots: number[] = [];
  let coalescedGaps = 0;
  let knownGaps = 0;
  let coalescedKnown = false;
  const e2els: number[] = [];
  const queues: number[] = [];
  const firsts: number[] = [];
  const outputSource: Record<TokenSource, number> = { 'per-event': 0, 'usage-total': 0, estimated: 0 };
  let inUsage = 0;
  let inEst = 0;
  let outputTokenized = 0;
  let usageRefused = 0;
  for (const o of ok) {
    totalIn += o.inputTokens ?? 0;
    totalOut += o.outputTokens;
    if (o.ttftMs !== null) ttfts.push(o.ttftMs);
    if (o.outputTokens > 1 && o.tpotMs !== null) tpots.push(o.tpotMs);
    if (o.coalescedGaps !== undefined) {
      coalescedKnown = true;
      coalescedGaps += o.coalescedGaps;
      knownGaps += o.itlChunkMs.length;
    }
    if (o.e2eMs !== null) e2els.push(o.e2eMs);
    if (o.queueMs !== null) queues.push(o.queueMs);
    if (o.firstEventMs !== null) firsts.push(o.firstEventMs);
    if (o.tokenSource) outputSource[o.tokenSource]++;
    if (o.tokenizedByServer) outputTokenized++;
    if (o.tokenDoubt !== undefined) usageRefused++;
    if (o.inputTokensSource === 'usage') inUsage++;
    else if (o.inputTokensSource === 'estimated') inEst++;
  }
  return {
    totalIn,
    totalOut,
    ttfts,
    tpots,
    gaps: new GapPools(ok),
    coalescedGaps,
    knownGaps,
    coalescedKnown,
    e2els,
    queues,
    firsts,
    outputSource,
    outputTokenized,
    inUsage,
    inEst,
    usageRefused,
    ...reasoningPools(ok, totalOut),
  };
}

/** TTFAT and the reasoning/answer totals, when any successful request reasoned (else nothing new). */
function reasoningPools(
  ok: readonly RequestOutcome[],
  totalOut: number,
): { ttfats: number[]; reasoning: ReasoningTotals | null } {
  if (!ok.some((o) => o.reasoningTokens !== undefined)) return { ttfats: [], reasoning: null };
  const ttfats: number[] = [];
  let requests = 0;
  let reasoningTokens = 0;
  let estimatedRequests = 0;
  for (const o of ok) {
    const t = o.reasoningTokens !== undefined ? (o.ttfatMs ?? null) : o.ttftMs;
    if (t !== null) ttfats.push(t);
    if (o.reasoningTokens === undefined) continue;
    requests++;
    reasoningTokens += o.reasoningTokens;
    if (!o.reasoningTokensExact) estimatedRequests++;
  }
  return {
    ttfats,
    reasoning: { requests, reasoningTokens, answerTokens: totalOut - reasoningTokens, estimatedRequests },
  };
}

function statsOfPools(p: Pools): Record<StatMetric, MetricStats | null> {
  return {
    ttft: toMetricStats(summarize(p.ttfts)),
    tpot: toMetricStats(summarize(p.tpots)),
    itl: ownItl(p.gaps, 'own', 'chunk'),
    e2el: toMetricStats(summarize(p.e2els)),
    // `.vllm` here: the every-gap figures, for comparisons with runs that cannot tell (imports).
    itl_per_token: p.gaps.anyToken ? ownItl(p.gaps, 'token', 'tokenAll') : null,
    client_queue_time: toMetricStats(summarize(p.queues)),
    first_event: toMetricStats(summarize(p.firsts)),
    ttfat: p.reasoning ? toMetricStats(summarize(p.ttfats)) : null,
  };
}

/** The failed requests: counts by `kind/code`, a message per kind, and the tokens they carried. */
function tallyFailures(outcomes: readonly RequestOutcome[]) {
  const errors: Record<string, number> = {};
  const errorSamples: Record<string, string> = {};
  let failedOutput = 0;
  let failedInput = 0;
  let failedInputEstimated = false;
  for (const o of outcomes) {
    if (o.ok) continue;
    failedOutput += o.outputTokens;
    failedInput += o.inputTokens ?? 0;
    if (o.inputTokensSource !== 'usage' && (o.inputTokens ?? 0) > 0) failedInputEstimated = true;
    const k = `${o.errorKind ?? 'unknown'}/${o.errorCode ?? 'unknown'}`;
    errors[k] = (errors[k] ?? 0) + 1;
    if (o.errorMessage && errorSamples[k] === undefined) errorSamples[k] = o.errorMessage.slice(0, 300);
  }
  return { errors, errorSamples, failedOutput, failedInput, failedInputEstimated };
}

export function computeRunSummary(inp: SummaryInput): RunSummary {
  const ok = inp.outcomes.filter((o) => o.ok);
  const dur = inp.durationS;
  const p = poolSuccessful(ok);
  const { totalIn, totalOut } = p;
  const stats = statsOfPools(p);

  const slo = hasSlo(inp.slo) ? inp.slo : null;
  const good = slo ? ok.filter((o) => meetsSlo(o, slo)).length : null;
  const withTimes = ok.filter((o) => o.startMs !== null && o.e2eMs !== null);
  const peakIn = inp.peak ?? DEFINITIONS[inp.definitions ?? 'tokenscope'].peak;
  const tokenPeak = peakIn === 'tokens' ? maxTokensPerSecond(ok) : null;

  const vllm: VllmMetrics = {
    completed: ok.length,
    failed: inp.outcomes.length - ok.length,
    duration: dur,
    total_input_tokens: totalIn,
    total_output_tokens: totalOut,
    request_throughput: ok.length / dur,
    request_goodput: good === null ? null : good / dur,
    output_throughput: totalOut / dur,
    total_token_throughput: (totalIn + totalOut) / dur,
    max_output_tokens_per_s: tokenPeak ? tokenPeak.tokensPerS : maxChunksPerSecond(ok),
    max_concurrent_requests: peakConcurrency(
      withTimes.map((o) => ({ start: o.startMs!, end: o.startMs! + o.e2eMs! })),
    ),
    ...(inp.nonStreaming
      ? {}
      : {
          ...vllmStatKeys('ttft', stats.ttft),
          ...vllmStatKeys('tpot', stats.tpot),
          ...vllmStatKeys('itl', stats.itl), // every gap: stats.itl.vllm when coalesced gaps were left out
        }),
    ...vllmStatKeys('e2el', stats.e2el),
  };

  const { errors, errorSamples, failedOutput, failedInput, failedInputEstimated } = tallyFailures(
    inp.outcomes,
  );

  return {
    source: inp.source ?? 'tokenscope',
    definitions: inp.definitions ?? 'tokenscope',
    imported: inp.imported ?? false,
    partial: inp.partial ?? false,
    cancelled: inp.cancelled ?? false,
    config: inp.config,
    vllm,
    stats,
    tokens: {
      outputSource: p.outputSource,
      inputFromUsage: p.inUsage,
      inputEstimated: p.inEst,
      failedOutput,
      failedInput,
      failedInputEstimated,
      ...(tokenPeak?.estimated ? { peakEstimated: true } : {}),
      ...(p.outputTokenized > 0 ? { outputTokenized: p.outputTokenized } : {}),
      ...(p.usageRefused > 0 ? { usageRefused: p.usageRefused } : {}),
    },
    ...(p.reasoning ? { reasoning: p.reasoning } : {}),
    errors,
    ...(Object.keys(errorSamples).length ? { errorSamples } : {}),
    coalesced: p.coalescedKnown && !inp.nonStreaming ? coalescedOf(p.coalescedGaps, p.knownGaps) : null,
    cancelledRequests: inp.cancelledRequests ?? 0,
    warmupRequests: inp.warmupRequests ?? 0,
    slo,
    goodRequests: good,
    selfCheck: inp.selfCheck ?? null,
    ...(inp.nonStreaming ? { batch: batchSummaryOf(ok, dur, totalIn) } : {}),
  };
}
