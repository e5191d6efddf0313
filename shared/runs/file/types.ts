/**
 * Shapes of a load run: the run file's lines (header, one line per request, summary) and what a
 * request contributes to a summary. Plain JSON-able data: it goes into files, over IPC and into the
 * renderer unchanged. The progress a UI consumes is in progress-types.ts; the summary's server-side
 * and self-check parts in server-side-types.ts and self-check-types.ts.
 *
 * Run file (JSONL, electron/runs/files/run-file.ts): line 1 `RunHeader`, then a `RunRequestLine` per
 * request as it finishes, then a `RunSummaryLine`. A file without the summary line is a partial
 * run (the process died or was killed); its summary is recomputed from the request lines.
 */
import type { DialectId } from '../../dialects.ts';
import type { ErrorCode, ErrorKind } from '../../errors.ts';
import type { Phases, TokenSource, Usage } from '../../request.ts';
import type { Slo, Workload } from '../workload/workload.ts';
import type { ReplaySummary } from '../summary/replay-lag.ts';
import type { PrefixCacheSummary } from '../summary/prefix-cache.ts';
import type { SelfCheck } from '../summary/self-check-types.ts';
import type { ServerSideSummary } from '../summary/server-side-types.ts';
import type { RunMergeInfo, RunShardInfo } from '../shard/shard.ts';

/** The definition presets (shared/runs/summary/definitions.ts): whose per-request rules made a summary. */
export const DEFINITION_IDS = ['tokenscope', 'vllm', 'sglang', 'aiperf'] as const;
export type DefinitionsId = (typeof DEFINITION_IDS)[number];

export const RUN_FILE_FORMAT = 'tokenscope-run';
export const RUN_FILE_VERSION = 1;

/** Where the run went, without secrets: credentials and key-like query values redacted, header values dropped. */
export interface RunTarget {
  url: string;
  dialect: DialectId;
  model: string;
  headerNames: string[];
  /** Whether an API key was sent (never the key). */
  authenticated: boolean;
}

export interface RunHeader {
  type: 'header';
  format: typeof RUN_FILE_FORMAT;
  version: number;
  runId: string;
  name: string | null;
  /** The workload with every default filled in, without its target. */
  workload: Workload;
  target: RunTarget;
  tokenscopeVersion: string;
  nodeVersion: string;
  platform: string;
  /** Wall clock at the start (labels only; every duration is monotonic). */
  startedAtWall: number;
  startedAt: string;
  /**
   * The run clock's zero (the measured part's start) as wall-clock epoch ms, sampled with the
   * monotonic clock at that instant: a request's wall time is clockZeroWall + sentMs + an event's t.
   * Absent in files written before it existed.
   */
  clockZeroWall?: number;
  /**
   * One of N repeats of the same workload (`tokenscope run --repeat N`): which, of how many, and
   * the id that ties the repeats together (pooled in summaries and comparisons).
   */
  repeat?: RunRepeat;
  /** The test request sent before the clock started (workload.testRequest), when it passed. */
  testRequest?: RunTestRequest;
  /** The prefix-cache reset before the run (workload.resetPrefixCache), when one was asked for. */
  prefixCacheReset?: RunPrefixCacheReset;
  /**
   * The test request found this many of its prompt tokens in the server's prefix cache: the cache
   * is warm from an earlier run (the same seed sends the same test prompt), so TTFT may look better
   * than a cold server gives. Absent: no hit, or no reset was asked for and none reported.
   */
  warmCacheTokens?: number;
  /** One shard of a workload run from several machines (`run --shard I/N`, shared/runs/shard/shard.ts). */
  shard?: RunShardInfo;
  /** The shards this run was merged from (`tokenscope merge`), with what was flagged. */
  merged?: RunMergeInfo;
}

/** What a prefix-cache reset before the run did (electron/runs/prefix-cache-reset.ts). */
export interface RunPrefixCacheReset {
  ok: boolean;
  /** The endpoint that answered; null: none exists on this server. */
  endpoint: string | null;
  status: number | null;
  message: string;
}

/** What the test request saw (not part of the run's numbers). */
export interface RunTestRequest {
  /** 1, or more when a passing failure (a 5xx, a dropped stream) was tried again. */
  attempts: number;
  ttftMs: number | null;
  e2eMs: number | null;
  outputTokens: number;
  /**
   * The model its response named, when it named one (shared/model-answer.ts): a server that serves
   * what it has loaded whatever the name (llama.cpp) shows here that the run's model was not used.
   */
  responseModel?: string;
}

export interface RunRepeat {
  group: string;
  /** 1-based. */
  index: number;
  of: number;
}

/**
 * One finished request. Offsets (`scheduledMs`, `arrivedMs`, `startedMs`) are ms since the
 * measured part of the run began; warm-up lines count from the warm-up's start. Event and phase
 * times are ms since the request was sent, 3 decimals.
 */
export interface RunRequestLine {
  type: 'request';
  seq: number;
  id: string;
  warmup?: true;
  /** Planned arrival (null for warm-up). */
  scheduledMs: number | null;
  /** When the scheduler released it: late against `scheduledMs` when the client lags. */
  arrivedMs: number;
  /** When it got a concurrency slot and was sent. */
  startedMs: number;
  /** startedMs − arrivedMs: waiting for a slot (vLLM's client_queue_time), not part of TTFT. */
  queueMs: number;
  /**
   * When the stream-I/O thread began sending it, on the run clock (the zero of its event and phase
   * times; warm-up lines: on the warm-up's clock). Absent in older files.
   */
  sentMs?: number;
  /**
   * Schedule lag: sentMs − scheduledMs, how late it left against its plan (queue time for a
   * concurrency slot included). Absent for warm-up lines and in older files.
   */
  lagMs?: number;
  /** Its connection: reused from the pool, and whether it was retried after a closed reused one. */
  connection?: { reused: boolean; retried: boolean; retryReason?: string };
  /** Prompt tokens: the server's usage when it reported them, else the workload's estimate. */
  inputTokens: number | null;
  inputTokensSource: 'usage' | 'estimated';
  expectedOutputTokens: number | null;
  status: 'ok' | 'error';
  httpStatus: number | null;
  phases: Phases;
  /** Columns of every event: time (ms), generated tokens, EV_* flags. */
  events: { t: number[]; tok: number[]; f: number[] };
  finishReason: string | null;
  usage: Usage | null;
  tokenSource: TokenSource;
  error: { kind: ErrorKind; code: ErrorCode; message: string; status?: number; atMs?: number } | null;
  textLength: number;
  reasoningLength: number;
  bytes: number;
  terminated: boolean;
  serverRequestId: string | null;
  /** Convenience copies for readers of the file (the reader recomputes them from `events`). */
  ttftMs: number | null;
  tpotMs: number | null;
  e2eMs: number | null;
  outputTokens: number;
  /**
   * Requests with reasoning only (absent otherwise, and in files written before): of outputTokens,
   * the reasoning ones — the server's, or estimated from the live record's text
   * (shared/stats/reasoning-stats.ts), which the line does not keep — and whether they were exact.
   * A reader takes the split from here; the times (TTFAT) it recomputes from the EV_REASONING flags.
   */
  reasoningTokens?: number;
  reasoningTokensExact?: boolean;
  /** Convenience copy: time to first answer token (requests with reasoning only). */
  ttfatMs?: number | null;
  /**
   * The output text counted by the server's tokenizer after the run (POST /tokenize), for lines
   * whose stream gave no count vLLM's client reads: vLLM re-tokenizes the text then. Else absent.
   */
  tokenizedOutputTokens?: number;
  /** Full text, only when the workload asked for it (saveText). */
  text?: string;
  /** hash32 of what was sent (prompt or messages), 8 hex digits: the same request in another run. */
  promptHash?: string;
  /** In a merged run: the shard that sent it. */
  shard?: number;
  /** Multi-turn runs (workload sessions): the conversation's index and this request's turn in it (1-based). */
  session?: number;
  turn?: number;
}

export interface RunSummaryLine {
  type: 'summary';
  summary: RunSummary;
}

export type RunLine = RunHeader | RunRequestLine | RunSummaryLine;

/** What one request contributes to a summary, whatever it came from (run line or imported arrays). */
export interface RequestOutcome {
  ok: boolean;
  /** Sent (the zero of its event times: outcome.ts requestOriginMs), ms since run start. null: imports. */
  startMs: number | null;
  queueMs: number | null;
  firstEventMs: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
  /** (E2E − TTFT)/(N − 1); 0 when N ≤ 1 (vLLM). */
  tpotMs: number | null;
  itlChunkMs: readonly number[];
  /** null when unknown (imports have only chunk gaps). */
  itlTokenMs: readonly number[] | null;
  /**
   * Tokenscope's own ITL lists, coalesced gaps left out (shared/stats/request-stats.ts): what
   * `stats.itl` / `stats.itl_per_token` pool. Absent when unknown (imports): itlChunkMs / itlTokenMs
   * are used instead.
   */
  itlChunkMeasuredMs?: readonly number[];
  itlTokenMeasuredMs?: readonly number[] | null;
  /** Chunk gaps whose later event shared the earlier one's socket read (in itlChunkMs only). Absent when unknown. */
  coalescedGaps?: number;
  /**
   * Content events as (ms since the request's start, tokens): a peak throughput in tokens
   * (Tokenscope's and AIPerf's definitions). The tokens add up to `outputTokens`; `exact` false when
   * they were spread over the events (no per-event counts from the server: outcome.ts
   * contentEventsOf). Absent for imports: their peak counts chunks.
   */
  contentEvents?: { t: readonly number[]; tok: readonly number[]; exact?: boolean };
  outputTokens: number;
  /** outputTokens is the server's tokenizer count of the text (`tokenizedOutputTokens`), not its usage. */
  tokenizedByServer?: boolean;
  /**
   * Time to first answer token (shared/stats/reasoning-stats.ts), and the reasoning/answer split:
   * present only for requests that reasoned (absent: no reasoning, or unknown — imports).
   */
  ttfatMs?: number | null;
  reasoningTokens?: number;
  answerTokens?: number;
  reasoningTokensExact?: boolean;
  inputTokens: number | null;
  /** Prompt tokens the server said it took from its prefix cache (absent/null: it did not say). */
  cachedTokens?: number | null;
  tokenSource: TokenSource | null;
  /** Why the server's usage total was not believed (request-stats.ts `tokenDoubt`); absent: it was. */
  tokenDoubt?: string;
  inputTokensSource: 'usage' | 'estimated' | null;
  errorKind: ErrorKind | null;
  errorCode: ErrorCode | null;
  /** The error's message (a sample is kept per kind in the summary). */
  errorMessage?: string | null;
}

export interface ReasoningTotals {
  /** Successful requests that reasoned. */
  requests: number;
  reasoningTokens: number;
  answerTokens: number;
  /** Of `requests`, those whose split was estimated (the server gave no reasoning count). */
  estimatedRequests: number;
}

/** mean/median/std/percentiles; min/max/count null when an import reported only aggregates. */
export interface MetricStats {
  count: number | null;
  mean: number;
  median: number;
  std: number;
  min: number | null;
  max: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  p999: number | null;
  /**
   * The same metric as vLLM defines it, present only where that differs from this one: on
   * `stats.itl` when some chunk gaps were coalesced (Tokenscope's ITL leaves them out, vLLM's keeps
   * them). vLLM's keys (`vllmStatKeys`, summary.vllm, vLLM-format exports) are computed from it.
   */
  vllm?: MetricStats;
}

/**
 * Gaps between content events that one socket read carried together (the client read late; both
 * got the read's time, so the gap is ~0 ms by construction): left out of Tokenscope's ITL, kept in
 * vLLM's.
 */
export interface CoalescedGaps {
  /** Coalesced chunk gaps. */
  gaps: number;
  /** Every chunk gap (vLLM's ITL count). */
  totalGaps: number;
  /** gaps / totalGaps, 0…1 (0 when there is no gap). */
  share: number;
}

export const STAT_METRICS = [
  'ttft',
  'tpot',
  'itl',
  'e2el',
  'itl_per_token',
  'client_queue_time',
  'first_event',
  /** Time to first answer token (reasoning models); null for runs without reasoning, absent in older files. */
  'ttfat',
] as const;
export type StatMetric = (typeof STAT_METRICS)[number];

/** The metrics vLLM reports percentiles for, and the percentiles we write (vLLM's key format). */
export const VLLM_STAT_METRICS = ['ttft', 'tpot', 'itl', 'e2el'] as const;
export const VLLM_PERCENTILES = [90, 95, 99, 99.9] as const;

/**
 * `vllm bench serve` result keys, exactly as vLLM names and computes them (seconds for duration,
 * ms for latencies, per second for rates). Plus `mean_ttft_ms`, `p99.9_itl_ms`, … per metric.
 */
export interface VllmMetrics {
  completed: number;
  failed: number;
  duration: number;
  total_input_tokens: number;
  total_output_tokens: number;
  request_throughput: number;
  request_goodput: number | null;
  output_throughput: number;
  total_token_throughput: number;
  /** null only for imports that did not report it. */
  max_output_tokens_per_s: number | null;
  max_concurrent_requests: number | null;
  [statKey: string]: number | null;
}

/** A multi-turn run's requests of one turn (shared/runs/summary/by-turn.ts). */
export interface TurnRow {
  /** 1-based; with andLater, this turn and every later one. */
  turn: number;
  andLater: boolean;
  requests: number;
  failed: number;
  /** Mean prompt tokens of its successful requests (the conversation so far grows them). */
  meanInputTokens: number | null;
  ttft: MetricStats | null;
  e2e: MetricStats | null;
}

export interface RunSummary {
  /** 'tokenscope' for native runs; imports say where they came from. */
  source: 'tokenscope' | 'vllm' | 'sglang';
  /**
   * Imports: measured by Tokenscope and exported in that tool's format (the file says so), not by
   * the tool's own client. Absent otherwise.
   */
  measuredBy?: 'tokenscope';
  /**
   * Whose per-request rules made these numbers (shared/runs/summary/definitions.ts): a native run's stored
   * summary is 'tokenscope' and can be re-derived under another from its events; an import's are
   * its tool's. Absent in files written before presets (then: Tokenscope's, peak in chunks).
   */
  definitions?: DefinitionsId;
  imported: boolean;
  /** Recomputed from request lines of a run whose summary line is missing. */
  partial: boolean;
  cancelled: boolean;
  config: {
    maxConcurrency: number | null;
    requestRate: number | 'inf' | null;
    burstiness: number | null;
    numPrompts: number | null;
  };
  vllm: VllmMetrics;
  stats: Record<StatMetric, MetricStats | null>;
  tokens: {
    /** Completed requests by where their output token count came from. */
    outputSource: Record<TokenSource, number>;
    inputFromUsage: number;
    inputEstimated: number;
    /**
     * Output tokens received in requests that then failed (a stream reset mid-way): not in
     * total_output_tokens (vLLM counts successful requests only), but the server generated them.
     * Absent in run files written before it was recorded.
     */
    failedOutput?: number;
    /** Prompt tokens of the requests that failed (usage, else the workload's estimate); likewise. */
    failedInput?: number;
    /**
     * Completed requests whose usage total could not be true (past max_tokens, or more than what
     * arrived could carry: shared/stats/token-bounds.ts): counted from their events instead.
     * Absent: none (or a file written before it was checked).
     */
    usageRefused?: number;
    /** Whether some of failedInput is the workload's estimate (a failed stream rarely has usage). */
    failedInputEstimated?: boolean;
    /** The token peak spread totals over events with no per-event count (peaks.ts): said next to it. */
    peakEstimated?: boolean;
    /** Of 'usage-total', those counted by the server's tokenizer from their text (POST /tokenize). */
    outputTokenized?: number;
  };
  /**
   * The successful requests' reasoning and answer tokens (shared/stats/reasoning-stats.ts): present
   * only when one of them reasoned. answerTokens = total_output_tokens − reasoningTokens.
   */
  reasoning?: ReasoningTotals;
  /** Multi-turn runs: TTFT and E2E by turn (absent in single-request runs). */
  byTurn?: TurnRow[];
  /** Failed requests by `kind/code`. */
  errors: Record<string, number>;
  /** Per kind/code in `errors`: the first failed request's message (the server's words, 300 chars). */
  errorSamples?: Record<string, string>;
  /**
   * Coalesced chunk gaps of the successful requests (left out of stats.itl / stats.itl_per_token,
   * kept in vLLM's keys). null when unknown (imports); absent in files written before it existed.
   */
  coalesced?: CoalescedGaps | null;
  /** Requests the user's cancel stopped (left out of every number above). */
  cancelledRequests: number;
  warmupRequests: number;
  slo: Slo | null;
  goodRequests: number | null;
  selfCheck: SelfCheck | null;
  /** A trace replay's schedule lag (shared/runs/summary/replay-lag.ts); absent for other runs and older files. */
  replay?: ReplaySummary | null;
  /** What the server took from its prefix cache (summary/prefix-cache.ts); absent: nothing reported. */
  prefixCache?: PrefixCacheSummary;
  /**
   * What the server's own metrics said over the measured run (its /metrics, or a Prometheus that
   * scrapes it), when the run watched them; absent for imports and runs that did not.
   */
  server?: ServerSideSummary | null;
  /** For imports: what was recomputed from per-request arrays, what was taken as reported, and other notes. */
  importInfo?: {
    recomputed: string[];
    reported: string[];
    notes: string[];
    metadata: Record<string, string | number | boolean | null>;
  };
}
