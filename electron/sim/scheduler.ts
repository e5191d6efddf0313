/**
 * Continuous batching, the way vLLM's V1 scheduler behaves from the outside:
 *
 * - one engine loop; each step first admits waiting requests (FCFS) while the running batch has
 *   fewer than maxNumSeqs sequences and the KV budget holds the request's prompt + max tokens;
 * - step time = decodeStepMs + decodeStepPerSeqMs x batch size + prefillMsPerToken x prompt
 *   tokens admitted in this step that the prefix cache did not hold (prefix-cache.ts), times (1 +- jitter) from a seeded PRNG;
 * - at the end of a step every running sequence gets one token; a newly admitted one gets its
 *   first token from the step that prefilled it (so TTFT = queue wait + one step incl. prefill);
 * - a sequence emits a chunk on its first token, then every streamInterval tokens, and at its
 *   end (vLLM PR #27869 `--stream-interval`);
 * - it ends with 'length' at max tokens, or 'stop' when its seeded EOS comes (unless ignore_eos;
 *   not before min_tokens, like vLLM's min-tokens logits processor); the EOS token is counted
 *   in the output, as vLLM's usage counts it (test-corpus/sse/vllm-chat-include-usage.sse:
 *   9 text tokens + EOS = completion_tokens 10).
 *
 * The loop is drift-correcting: each step ends at an absolute target (previous target + step
 * duration) measured with performance.now(), so setTimeout's lateness does not accumulate.
 */
import { KV_BLOCK_TOKENS } from './types.ts';
import { PrefixCache } from './prefix-cache.ts';
import { Rng } from '../../shared/prng.ts';
import { eosToken, TextGenerator, type GenToken } from './text.ts';
import type { SimGpus } from './gpu.ts';
import type { SimMetrics } from './metrics.ts';
import type { SimDisaggMetrics } from './metrics-disagg.ts';
import type { EndReason, FinishReason, ResolvedSimOptions } from './types.ts';

/** How much timer lateness the next step may absorb (libuv timers have 1 ms granularity). */
export const MAX_CATCH_UP_MS = 1.5;

export interface SeqSpec {
  requestId: string;
  promptTokens: number;
  maxTokens: number;
  minTokens: number;
  ignoreEos: boolean;
  /** Seeds the request's text and EOS position. */
  textSeed: number;
  /** Reasoning tokens before the answer: its natural EOS comes that much later. */
  reasoningTokens?: number;
  /** performance.now() when the request arrived (server-side TTFT/queue/e2e start here). */
  arrivalMs: number;
  /** 1-based token index before which sink.onFault() is asked what to do; null: never. */
  faultAt: number | null;
  /** The prompt's block keys for the prefix cache (prefix-cache.ts); absent: nothing cached. */
  prefixKeys?: readonly string[];
  /** The W3C traceparent the request came with: its span continues that trace (tracing.ts). */
  traceparent?: string;
  /** Of promptTokens, the images' (images.ts); absent: none. */
  imageTokens?: number;
}

/** Told of every sequence that ended, after the metrics (the span exporter, the ground truth). */
export type SeqObserver = (seq: Sequence, reason: EndReason, now: number) => void;

export type FaultAction =
  { kind: 'continue' } | { kind: 'pause'; ms: number } | { kind: 'end'; reason: 'error' | 'abort' };

export interface SeqSink {
  /** A chunk's tokens; `finish` is set on the sequence's last chunk. */
  onTokens(tokens: GenToken[], finish: FinishReason | null): void;
  onFault(): FaultAction;
}

export interface OutputPlan {
  tokens: number;
  finishReason: FinishReason;
}

/** How many tokens a request will generate and why it stops; independent of load and timing. */
export function planOutput(
  textSeed: number,
  maxTokens: number,
  minTokens: number,
  ignoreEos: boolean,
  reasoningTokens = 0,
): OutputPlan {
  if (ignoreEos) return { tokens: maxTokens, finishReason: 'length' };
  const eosAt = Math.max(reasoningTokens + new TextGenerator(textSeed).naturalLength, minTokens + 1);
  return eosAt <= maxTokens
    ? { tokens: eosAt, finishReason: 'stop' }
    : { tokens: maxTokens, finishReason: 'length' };
}

export class Sequence {
  state: 'waiting' | 'running' | 'done' = 'waiting';
  generated = 0;
  sentTokens = 0;
  pending: GenToken[] = [];
  admittedMs = 0;
  firstTokenMs = 0;
  lastTokenMs = 0;
  pausedUntil = 0;
  /** Prompt tokens found in the prefix cache at admission: not prefilled again. */
  cachedTokens = 0;
  /** Speculative mode: this request's stream of acceptance draws. */
  specRng: Rng | null = null;
  /** Disaggregated mode: when its KV transfer began (0: none running). */
  transferStartMs = 0;
  faultAt: number | null;
  readonly plan: OutputPlan;
  private readonly text: TextGenerator;

  constructor(
    readonly spec: SeqSpec,
    readonly sink: SeqSink,
  ) {
    this.text = new TextGenerator(spec.textSeed);
    this.plan = planOutput(
      spec.textSeed,
      spec.maxTokens,
      spec.minTokens,
      spec.ignoreEos,
      spec.reasoningTokens,
    );
    this.faultAt = spec.faultAt;
  }

  get reservedTokens(): number {
    return this.spec.promptTokens + this.spec.maxTokens;
  }

  nextToken(): GenToken {
    const last = this.generated + 1 === this.plan.tokens;
    return last && this.plan.finishReason === 'stop' ? eosToken() : this.text.next();
  }
}

export class Scheduler {
  private readonly waiting: Sequence[] = [];
  private readonly running: Sequence[] = [];
  private inflight: Sequence[] | null = null;
  private timer: NodeJS.Timeout | null = null;
  private kickPending = false;
  private targetMs = 0;
  private reserved = 0;
  private closed = false;
  private readonly jitterRng: Rng;
  /** null: prefix caching off (`--no-prefix-caching`). */
  readonly prefixCache: PrefixCache | null;
  steps = 0;

  constructor(
    private readonly opts: ResolvedSimOptions,
    private readonly metrics: SimMetrics,
    /** The synthetic GPUs, told each step's occupancy (their power and energy follow it). */
    private readonly gpus: SimGpus | null = null,
    private readonly onEnd: SeqObserver | null = null,
    /** Disaggregated mode (opts.kvTransferMs): the transfers between prefill and decode. */
    private readonly disagg: SimDisaggMetrics | null = null,
  ) {
    this.jitterRng = new Rng(opts.seed, 'jitter');
    this.prefixCache = opts.prefixCaching
      ? new PrefixCache(Math.floor(opts.kvCacheTokens / KV_BLOCK_TOKENS))
      : null;
  }

  /** Whether a request can ever be admitted (vLLM rejects prompt + max_tokens > max_model_len). */
  fits(promptTokens: number, maxTokens: number): boolean {
    return promptTokens + maxTokens <= this.opts.kvCacheTokens;
  }

  submit(spec: SeqSpec, sink: SeqSink): Sequence {
    const seq = new Sequence(spec, sink);
    this.waiting.push(seq);
    this.kick();
    return seq;
  }

  /** Client went away (or the server gave up): free the slot now, count it as 'abort'. */
  abort(seq: Sequence, reason: 'abort' | 'error' = 'abort'): void {
    if (seq.state === 'waiting') {
      const i = this.waiting.indexOf(seq);
      if (i >= 0) this.waiting.splice(i, 1);
      seq.state = 'done';
      this.metrics.finished(seq, reason, performance.now());
    } else if (seq.state === 'running') {
      this.end(seq, reason, performance.now());
    }
  }

  get numRunning(): number {
    return this.running.length;
  }

  get numWaiting(): number {
    return this.waiting.length;
  }

  get reservedTokens(): number {
    return this.reserved;
  }

  /** Fraction of KV blocks holding prompt + generated tokens of running sequences. */
  kvUsage(): number {
    const total = Math.floor(this.opts.kvCacheTokens / KV_BLOCK_TOKENS);
    let used = 0;
    for (const s of this.running) used += Math.ceil((s.spec.promptTokens + s.generated) / KV_BLOCK_TOKENS);
    return total > 0 ? Math.min(1, used / total) : 0;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const s of [...this.waiting, ...this.running]) s.state = 'done';
    this.waiting.length = 0;
    this.running.length = 0;
    this.inflight = null;
    this.reserved = 0;
  }

  /** Start the loop if idle. Deferred to setImmediate so requests arriving together batch together. */
  private kick(): void {
    if (this.inflight || this.kickPending || this.closed) return;
    this.kickPending = true;
    setImmediate(() => {
      this.kickPending = false;
      if (this.inflight || this.closed) return;
      this.targetMs = performance.now();
      this.startStep();
    });
  }

  private readonly onTimer = (): void => {
    this.timer = null;
    const now = performance.now();
    const batch = this.inflight ?? [];
    this.inflight = null;
    for (const seq of batch) if (seq.state === 'running') this.advance(seq, now);
    // Drift correction: the next step starts at this one's planned end, so timer lateness within
    // the timer's granularity is paid back instead of accumulating. A longer delay (a blocked
    // event loop) is not caught up: a GPU step cannot run faster than its compute time.
    this.targetMs = Math.max(this.targetMs, now - MAX_CATCH_UP_MS);
    if (!this.closed) this.startStep();
  };

  private startStep(): void {
    const now = performance.now();
    let prefillTokens = 0;
    while (this.waiting.length > 0 && this.running.length < this.opts.maxNumSeqs) {
      const head = this.waiting[0] as Sequence;
      if (this.reserved + head.reservedTokens > this.opts.kvCacheTokens) break; // FCFS: head-of-line waits
      this.waiting.shift();
      head.state = 'running';
      head.admittedMs = now;
      this.reserved += head.reservedTokens;
      this.running.push(head);
      const keys = head.spec.prefixKeys;
      head.cachedTokens = this.prefixCache && keys ? this.prefixCache.admit(keys, head.spec.promptTokens) : 0;
      prefillTokens += head.spec.promptTokens - head.cachedTokens; // cached blocks are not computed again
      this.metrics.admitted(head, now);
    }
    if (this.running.length === 0) {
      this.gpus?.load(0, 0, now);
      return; // idle until the next submit
    }
    if (this.disagg) this.landTransfers(now);
    const batch = this.running.filter((s) => s.pausedUntil <= now);
    const o = this.opts;
    let duration = o.decodeStepMs + o.decodeStepPerSeqMs * batch.length + o.prefillMsPerToken * prefillTokens;
    if (o.jitter > 0) duration *= 1 + o.jitter * (2 * this.jitterRng.next() - 1);
    duration = Math.max(0.1, duration);
    const decoding = batch.filter((s) => s.generated > 0).length;
    this.gpus?.load(batch.length / o.maxNumSeqs, this.kvUsage(), now);
    // A speculative step schedules each decoding sequence's last token and its K drafts.
    const perSeq = 1 + (this.metrics.specDecode?.config.k ?? 0);
    this.metrics.iteration(prefillTokens + decoding * perSeq);
    this.inflight = batch;
    this.targetMs += duration;
    this.steps++;
    this.timer = setTimeout(this.onTimer, Math.max(0, this.targetMs - performance.now()));
  }

  /**
   * One step of a sequence: one token, or in speculative mode (spec-decode.ts) after its first
   * token 1 + the accepted draft run, sent together (one chunk per step at --stream-interval 1).
   */
  private advance(seq: Sequence, now: number): void {
    try {
      const spec = this.metrics.specDecode;
      let n = 1;
      if (spec !== null && seq.generated > 0) {
        seq.specRng ??= spec.rngFor(seq.spec.textSeed, this.opts.seed);
        n = spec.step(seq.specRng, seq.plan.tokens - seq.generated);
      }
      for (let j = 0; j < n && seq.state === 'running'; j++) {
        if (!this.produce(seq, now, j === 0)) return;
      }
      const last = seq.generated === seq.plan.tokens;
      if (seq.generated === 1 && !last && this.disagg && this.opts.kvTransferMs !== null) {
        // Prefill is done: its KV cache goes to the decode side; the first token leaves from there.
        seq.transferStartMs = now;
        seq.pausedUntil = now + this.opts.kvTransferMs;
        this.disagg.started();
        return;
      }
      if (last || seq.sentTokens === 0 || seq.pending.length >= this.opts.streamInterval) {
        this.flush(seq, last ? seq.plan.finishReason : null);
      }
      if (last && seq.state === 'running') this.end(seq, seq.plan.finishReason, now);
    } catch (err) {
      // A sink must never take the engine loop down; the request fails alone.
      this.opts.log(`sim: request ${seq.spec.requestId} failed in the engine loop: ${String(err)}`);
      if (seq.state === 'running') this.end(seq, 'error', now);
    }
  }

  /** The sequence's next token (false: a fault paused or ended it before that token). */
  private produce(seq: Sequence, now: number, firstOfStep: boolean): boolean {
    const k = seq.generated + 1;
    if (seq.faultAt === k) {
      seq.faultAt = null;
      this.flush(seq, null);
      const action = seq.sink.onFault();
      if (action.kind === 'pause') {
        seq.pausedUntil = now + action.ms;
        return false;
      }
      if (action.kind === 'end') {
        this.end(seq, action.reason, now);
        return false;
      }
    }
    const token = seq.nextToken();
    seq.generated = k;
    this.metrics.token(seq, now, firstOfStep);
    if (k === 1) seq.firstTokenMs = now;
    seq.lastTokenMs = now;
    seq.pending.push(token);
    return true;
  }

  private flush(seq: Sequence, finish: FinishReason | null): void {
    if (seq.pending.length === 0) return;
    const tokens = seq.pending;
    seq.pending = [];
    seq.sentTokens += tokens.length;
    seq.sink.onTokens(tokens, finish);
  }

  /** Transfers whose time is up: decode resumes now, and the first token leaves. */
  private landTransfers(now: number): void {
    for (const seq of this.running) {
      if (seq.transferStartMs === 0 || seq.pausedUntil > now) continue;
      this.disagg?.ended(now - seq.transferStartMs);
      seq.transferStartMs = 0;
      this.flush(seq, null);
    }
  }

  private end(seq: Sequence, reason: EndReason, now: number): void {
    if (seq.transferStartMs !== 0) {
      seq.transferStartMs = 0;
      this.disagg?.ended(null);
    }
    const i = this.running.indexOf(seq);
    if (i >= 0) this.running.splice(i, 1);
    this.reserved -= seq.reservedTokens;
    seq.state = 'done';
    this.metrics.finished(seq, reason, now);
    this.onEnd?.(seq, reason, now);
  }
}
