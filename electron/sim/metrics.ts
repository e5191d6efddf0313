/**
 * The simulator's /metrics: vLLM V1 names, HELP texts, labels (`engine="0"`, `model_name`) and
 * bucket boundaries as in test-corpus/metrics/vllm-v1.prom (test-corpus/FORMATS.md §4.1), with values the
 * sim measures itself on its own clock:
 * - TTFT = first token produced - request arrival; inter-token latency per token (vLLM records
 *   one observation per engine step per request, i.e. per token without speculative decoding);
 * - queue time = admission - arrival; prefill = first token - admission; decode = last token -
 *   first token; inference = end - admission; e2e = end - arrival; TPOT = decode / (tokens - 1).
 * Request-level histograms are observed when a request finishes with stop or length; aborted
 * and failed requests only count in vllm:request_success_total{finished_reason="abort"|"error"}.
 */
import { buckets125, HistogramData, PromWriter, type Labels } from './prom-text.ts';
import { KV_BLOCK_TOKENS } from './types.ts';
import type { SimSpecDecode } from './spec-decode.ts';
import type { EndReason } from './types.ts';

/** What the metrics read of a scheduler's sequence (scheduler.ts's Sequence has it). */
interface SeqView {
  spec: { promptTokens: number; maxTokens: number; arrivalMs: number };
  generated: number;
  /** Prompt tokens the prefix cache held (absent: none). */
  cachedTokens?: number;
  lastTokenMs: number;
  admittedMs: number;
  firstTokenMs: number;
}

// Bucket boundaries copied from test-corpus/metrics/vllm-v1.prom.
const TTFT_BUCKETS = [
  0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640,
  2560,
];
const ITL_BUCKETS = [
  0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80,
];
const REQUEST_TIME_BUCKETS = [
  0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680,
];
const ITERATION_BUCKETS = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];
const PARAMS_N_BUCKETS = [1, 2, 5, 10, 20];

const END_REASONS: readonly EndReason[] = ['stop', 'length', 'abort', 'error'];

export interface LiveGauges {
  running: number;
  waiting: number;
  kvUsage: number;
}

interface HistDef {
  name: string;
  help: string;
  data: HistogramData;
}

export class SimMetrics {
  promptTokens = 0;
  generationTokens = 0;
  prefixQueries = 0;
  prefixHits = 0;
  preemptions = 0;
  readonly finishedBy: Record<EndReason, number> = { stop: 0, length: 0, abort: 0, error: 0 };
  private createdSec = (performance.timeOrigin + performance.now()) / 1000;
  private readonly labels: Labels;
  private h;

  constructor(
    private readonly model: string,
    private readonly kvCacheTokens: number,
    private readonly prefixCaching = true,
    /** Speculative mode's counters (spec-decode.ts), null without it. */
    readonly specDecode: SimSpecDecode | null = null,
  ) {
    this.labels = { engine: '0', model_name: model };
    this.h = this.freshHistograms();
  }

  /**
   * What a server restart does to its metrics: every counter and histogram starts again from 0
   * (and the process start time moves). A scraper must treat the drop as a reset, as Prometheus'
   * increase() does, not lose what was counted before it. `POST /sim/restart-metrics`.
   */
  restart(): void {
    this.promptTokens = 0;
    this.generationTokens = 0;
    this.prefixQueries = 0;
    this.prefixHits = 0;
    this.preemptions = 0;
    for (const k of Object.keys(this.finishedBy) as EndReason[]) this.finishedBy[k] = 0;
    this.specDecode?.restart();
    this.createdSec = (performance.timeOrigin + performance.now()) / 1000;
    this.h = this.freshHistograms();
  }

  private freshHistograms() {
    const tokenBuckets = buckets125(this.kvCacheTokens);
    const def = (name: string, help: string, bounds: readonly number[]): HistDef => ({
      name,
      help,
      data: new HistogramData(bounds),
    });
    return {
      promptTokens: def('request_prompt_tokens', 'Number of prefill tokens processed.', tokenBuckets),
      generationTokens: def(
        'request_generation_tokens',
        'Number of generation tokens processed.',
        tokenBuckets,
      ),
      iteration: def(
        'iteration_tokens_total',
        'Histogram of number of tokens per engine_step.',
        ITERATION_BUCKETS,
      ),
      maxGen: def(
        'request_max_num_generation_tokens',
        'Histogram of maximum number of requested generation tokens.',
        tokenBuckets,
      ),
      paramsN: def('request_params_n', 'Histogram of the n request parameter.', PARAMS_N_BUCKETS),
      paramsMax: def(
        'request_params_max_tokens',
        'Histogram of the max_tokens request parameter.',
        tokenBuckets,
      ),
      ttft: def('time_to_first_token_seconds', 'Histogram of time to first token in seconds.', TTFT_BUCKETS),
      itl: def('inter_token_latency_seconds', 'Histogram of inter-token latency in seconds.', ITL_BUCKETS),
      tpot: def(
        'request_time_per_output_token_seconds',
        'Histogram of time_per_output_token_seconds per request.',
        ITL_BUCKETS,
      ),
      e2e: def(
        'e2e_request_latency_seconds',
        'Histogram of e2e request latency in seconds.',
        REQUEST_TIME_BUCKETS,
      ),
      queue: def(
        'request_queue_time_seconds',
        'Histogram of time spent in WAITING phase for request.',
        REQUEST_TIME_BUCKETS,
      ),
      inference: def(
        'request_inference_time_seconds',
        'Histogram of time spent in RUNNING phase for request.',
        REQUEST_TIME_BUCKETS,
      ),
      prefill: def(
        'request_prefill_time_seconds',
        'Histogram of time spent in PREFILL phase for request.',
        REQUEST_TIME_BUCKETS,
      ),
      decode: def(
        'request_decode_time_seconds',
        'Histogram of time spent in DECODE phase for request.',
        REQUEST_TIME_BUCKETS,
      ),
    };
  }

  /** The request's prompt was scheduled for prefill. */
  admitted(seq: SeqView, _now: number): void {
    this.promptTokens += seq.spec.promptTokens;
    // vLLM counts both in tokens: every prompt token queried, the cached ones hit (prefix-cache.ts).
    this.prefixQueries += seq.spec.promptTokens;
    this.prefixHits += seq.cachedTokens ?? 0;
  }

  /** One step's scheduled tokens (prefill + one per decoding sequence). */
  iteration(tokens: number): void {
    if (tokens > 0) this.h.iteration.data.observe(tokens);
  }

  /**
   * Token number seq.generated was produced at `now` (seq.lastTokenMs still holds the previous
   * one). vLLM observes inter-token latency once per step and request, so the further tokens of a
   * speculative step (`firstOfStep` false) count as tokens only.
   */
  token(seq: SeqView, now: number, firstOfStep = true): void {
    this.generationTokens++;
    if (seq.generated === 1) this.h.ttft.data.observe((now - seq.spec.arrivalMs) / 1000);
    else if (firstOfStep) this.h.itl.data.observe((now - seq.lastTokenMs) / 1000);
  }

  finished(seq: SeqView, reason: EndReason, now: number): void {
    this.finishedBy[reason]++;
    if (reason !== 'stop' && reason !== 'length') return;
    const s = (ms: number): number => Math.max(0, ms) / 1000;
    const n = seq.generated;
    this.h.promptTokens.data.observe(seq.spec.promptTokens);
    this.h.generationTokens.data.observe(n);
    this.h.maxGen.data.observe(seq.spec.maxTokens);
    this.h.paramsN.data.observe(1);
    this.h.paramsMax.data.observe(seq.spec.maxTokens);
    this.h.e2e.data.observe(s(now - seq.spec.arrivalMs));
    this.h.queue.data.observe(s(seq.admittedMs - seq.spec.arrivalMs));
    this.h.inference.data.observe(s(now - seq.admittedMs));
    this.h.prefill.data.observe(s(seq.firstTokenMs - seq.admittedMs));
    this.h.decode.data.observe(s(seq.lastTokenMs - seq.firstTokenMs));
    this.h.tpot.data.observe(n > 1 ? s(seq.lastTokenMs - seq.firstTokenMs) / (n - 1) : 0);
  }

  /**
   * A pooling request (embeddings, rerank: sim/pooling.ts) answered at `endMs`, as vLLM V1 counts
   * one. Its engine output is a single one, carrying the pooled result and no token
   * (vllm/v1/core/sched/scheduler.py `update_from_output`: "Pooling stops as soon as there is
   * output", FINISHED_STOPPED → finished_reason "stop"); vllm/v1/metrics/stats.py
   * `IterationStats.update_from_output` sees it while `is_prefilling`, so it counts the prompt
   * tokens and observes one time to first token (arrival → that step) and never an inter-token
   * latency; `update_from_finished_request` then gives e2e, queue, prefill and inference time,
   * decode 0, 0 generation tokens, no max_tokens; vllm/v1/metrics/loggers.py `record` observes
   * them. A request whose client left before its pass ended counts as an abort only.
   */
  pooled(
    p: { promptTokens: number; arrivalMs: number; scheduledMs: number; endMs: number },
    aborted: boolean,
  ): void {
    if (aborted) {
      this.finishedBy.abort++;
      return;
    }
    const s = (ms: number): number => Math.max(0, ms) / 1000;
    this.promptTokens += p.promptTokens;
    this.finishedBy.stop++;
    this.h.ttft.data.observe(s(p.endMs - p.arrivalMs));
    this.h.promptTokens.data.observe(p.promptTokens);
    this.h.generationTokens.data.observe(0);
    this.h.e2e.data.observe(s(p.endMs - p.arrivalMs));
    this.h.queue.data.observe(s(p.scheduledMs - p.arrivalMs));
    this.h.inference.data.observe(s(p.endMs - p.scheduledMs));
    this.h.prefill.data.observe(s(p.endMs - p.scheduledMs));
    this.h.decode.data.observe(0);
    this.h.tpot.data.observe(0);
  }

  /** The exposition body; gauges are read from the live scheduler at scrape time. */
  render(g: LiveGauges): string {
    const w = new PromWriter();
    const L = this.labels;
    const one = (value: number) => [{ labels: L, value }];
    const mem = process.memoryUsage();
    const cpu = process.cpuUsage();
    w.family('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', [
      { labels: {}, value: mem.rss },
    ]);
    w.family(
      'process_start_time_seconds',
      'gauge',
      'Start time of the process since unix epoch in seconds.',
      [{ labels: {}, value: Math.round(performance.timeOrigin / 10) / 100 }],
    );
    w.family('process_cpu_seconds_total', 'counter', 'Total user and system CPU time spent in seconds.', [
      { labels: {}, value: Math.round((cpu.user + cpu.system) / 1e4) / 100 },
    ]);
    w.family(
      'vllm:num_requests_running',
      'gauge',
      'Number of requests in model execution batches.',
      one(g.running),
    );
    w.family(
      'vllm:num_requests_waiting',
      'gauge',
      'Number of requests waiting to be processed.',
      one(g.waiting),
    );
    w.family(
      'vllm:kv_cache_usage_perc',
      'gauge',
      'KV-cache usage. 1 means 100 percent usage.',
      one(g.kvUsage),
    );
    const c = this.createdSec;
    w.counter(
      'vllm:prefix_cache_queries',
      'Prefix cache queries, in terms of number of queried tokens.',
      one(this.prefixQueries),
      c,
    );
    w.counter(
      'vllm:prefix_cache_hits',
      'Prefix cache hits, in terms of number of cached tokens.',
      one(this.prefixHits),
      c,
    );
    w.counter(
      'vllm:num_preemptions',
      'Cumulative number of preemption from the engine.',
      one(this.preemptions),
      c,
    );
    w.counter('vllm:prompt_tokens', 'Number of prefill tokens processed.', one(this.promptTokens), c);
    w.counter(
      'vllm:generation_tokens',
      'Number of generation tokens processed.',
      one(this.generationTokens),
      c,
    );
    const success = END_REASONS.map((r) => ({
      labels: { ...L, finished_reason: r },
      value: this.finishedBy[r],
    }));
    w.counter('vllm:request_success', 'Count of successfully processed requests.', success, c);
    for (const def of Object.values(this.h)) w.histogram(`vllm:${def.name}`, def.help, L, def.data, c);
    this.specDecode?.render(w, L, c);
    const blocks = Math.floor(this.kvCacheTokens / KV_BLOCK_TOKENS);
    w.family('vllm:cache_config_info', 'gauge', 'Information of the LLMEngine CacheConfig', [
      {
        labels: {
          block_size: String(KV_BLOCK_TOKENS),
          cache_dtype: 'auto',
          enable_prefix_caching: this.prefixCaching ? 'True' : 'False',
          engine: '0',
          gpu_memory_utilization: '0.9',
          num_gpu_blocks: String(blocks),
        },
        value: 1,
      },
    ]);
    return w.text();
  }

  get modelName(): string {
    return this.model;
  }
}
