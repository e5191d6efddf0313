/**
 * The simulator's disaggregated mode (`--disagg`, issue 28 §4): prefill and decode as two servers
 * with a KV-transfer delay between them, and each side's /metrics in SGLang's prefill/decode names
 * (sgl-project/sglang python/sglang/srt/metrics/collector.py: the PD-disaggregation queue gauges
 * and `sglang:per_stage_req_latency_seconds` with `exponential_buckets(0.001, 1.62, 30)`; labels
 * model_name, engine_type, tp_rank, pp_rank, moe_ep_rank as its scheduler sets them).
 *
 * What it charges is what it says: a request's transfer runs from its first token (prefill done)
 * to the engine step at which its decode resumes; that measured time is observed in both sides'
 * per-stage histogram (stage `prefill_transfer_kv_cache` on the prefill side, `decode_transferred`
 * on the decode side), and the requests in transfer are both sides' transfer queue.
 */
import { HistogramData, PromWriter, type Labels } from './prom-text.ts';

/** python/sglang/srt/metrics/utils.py exponential_buckets(start=0.001, width=1.62, length=30). */
const SGLANG_STAGE_BUCKETS: readonly number[] = Array.from({ length: 30 }, (_, i) => 0.001 * 1.62 ** i);

export type SimRole = 'prefill' | 'decode';

const MAX_KEPT = 100_000;

export interface DisaggGauges {
  /** Requests waiting for admission (the prefill side's bootstrap/prealloc queue). */
  waiting: number;
  /** Requests admitted (prefilling, in transfer or decoding). */
  running: number;
}

/** What the simulator did (its ground truth), in ms. */
export interface DisaggTruth {
  transfers: number;
  transferMsSum: number;
  inTransfer: number;
  /** The most requests in transfer at once. */
  maxInTransfer: number;
  /** The shortest and longest transfer (null before the first). */
  minMs: number | null;
  maxMs: number | null;
}

export class SimDisaggMetrics {
  inTransfer = 0;
  private maxInTransfer = 0;
  private readonly hist = new HistogramData(SGLANG_STAGE_BUCKETS);
  private transferMsSum = 0;
  private minMs: number | null = null;
  /** Every transfer's time (the first MAX_KEPT), for tests that check quantiles against it. */
  readonly durationsMs: number[] = [];
  private maxMs: number | null = null;
  private readonly createdSec = (performance.timeOrigin + performance.now()) / 1000;

  constructor(private readonly model: string) {}

  started(): void {
    this.inTransfer++;
    this.maxInTransfer = Math.max(this.maxInTransfer, this.inTransfer);
  }

  /** A transfer ended; `ms` is what it took (null: the request ended during it, not observed). */
  ended(ms: number | null): void {
    this.inTransfer = Math.max(0, this.inTransfer - 1);
    if (ms === null) return;
    this.hist.observe(ms / 1000);
    this.transferMsSum += ms;
    if (this.durationsMs.length < MAX_KEPT) this.durationsMs.push(ms);
    this.minMs = Math.min(this.minMs ?? ms, ms);
    this.maxMs = Math.max(this.maxMs ?? ms, ms);
  }

  truth(): DisaggTruth {
    return {
      transfers: this.hist.count,
      transferMsSum: this.transferMsSum,
      inTransfer: this.inTransfer,
      maxInTransfer: this.maxInTransfer,
      minMs: this.minMs,
      maxMs: this.maxMs,
    };
  }

  render(role: SimRole, g: DisaggGauges): string {
    const w = new PromWriter();
    const L: Labels = {
      model_name: this.model,
      engine_type: role,
      tp_rank: '0',
      pp_rank: '0',
      moe_ep_rank: '0',
    };
    const gauge = (name: string, help: string, v: number): void =>
      w.family(`sglang:${name}`, 'gauge', help, [{ labels: L, value: v }]);
    const prefill = role === 'prefill';
    const decoding = Math.max(0, g.running - this.inTransfer);
    gauge('num_running_reqs', 'The number of running requests.', prefill ? 0 : decoding);
    gauge('num_queue_reqs', 'The number of requests in the waiting queue.', 0);
    gauge(
      'num_prefill_prealloc_queue_reqs',
      'The number of requests in the prefill prealloc queue.',
      prefill ? g.waiting : 0,
    );
    gauge(
      'num_prefill_inflight_queue_reqs',
      'The number of requests in the prefill inflight queue.',
      prefill ? this.inTransfer : 0,
    );
    gauge('num_decode_prealloc_queue_reqs', 'The number of requests in the decode prealloc queue.', 0);
    gauge(
      'num_decode_transfer_queue_reqs',
      'The number of requests in the decode transfer queue.',
      prefill ? 0 : this.inTransfer,
    );
    const stage = prefill ? 'prefill_transfer_kv_cache' : 'decode_transferred';
    w.histogram(
      'sglang:per_stage_req_latency_seconds',
      'The latency of each stage of requests.',
      { ...L, stage },
      this.hist,
      this.createdSec,
    );
    return w.text();
  }
}
