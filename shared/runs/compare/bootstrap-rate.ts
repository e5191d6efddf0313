/**
 * A run's throughput laid out for the bootstrap (bootstrap.ts). A rate is a count over the run's
 * time, and between two runs of one workload both vary: the tokens the requests asked for, and the
 * time they took. Resampling requests with the duration held fixed sees only the first, so two runs
 * from one population would be called different by the second (a hundred Poisson arrivals span
 * their mean ±10 %). Here each request carries its share of the run's time, and a replicate's rate
 * is Σ w·count / Σ w·share (with every weight 1: the summary's number):
 *
 * - open loop (a request rate): the gap from the previous request's start — the arrival process —
 *   plus the run's tail after its last start, spread over the requests drawn;
 * - closed loop (`--rate inf`: a slot starts the next request when one ends): its time in flight,
 *   E2E, scaled so the shares add up to the duration (time over the mean concurrency).
 *
 * Failed requests keep their share (they took an arrival, or a slot) and count 0.
 */
import type { RequestOutcome } from '../summary/outcome.ts';
import type { Slo } from '../workload/workload.ts';
import type { RateMetric, SampleStat } from './bootstrap-samples.ts';
import { meetsSlo } from '../summary/summary.ts';

/** What the bootstrap asks of a metric's layout: statistics of one replicate's weights. */
export interface Resampled {
  evalAll(w: Uint32Array, stats: readonly SampleStat[], out: Float64Array): void;
}

/** What a rate is measured over: the run's duration (s), for goodput its SLOs, how it was sent. */
export interface RateBasis {
  durationS: number;
  slo: Slo | null;
  /** Requests were sent as slots freed (`--rate inf`), not by an arrival process. */
  closedLoop: boolean;
}

function countOf(o: RequestOutcome, m: RateMetric, slo: Slo | null): number | null {
  if (!o.ok) return 0;
  switch (m) {
    case 'req_tput':
      return 1;
    case 'out_tput':
      return o.outputTokens;
    case 'total_tput':
      return (o.inputTokens ?? 0) + o.outputTokens;
    case 'goodput':
      return slo ? (meetsSlo(o, slo) ? 1 : 0) : null;
  }
}

export class RateData implements Resampled {
  private readonly count: Float64Array;
  /** Each request's share of the run's time, s (see the header). */
  private readonly share: Float64Array;
  /** The run's time after its last start, s (open loop; spread over the requests drawn). */
  private readonly tail: number;
  /** False when the rate cannot be resampled (no start times, no duration, goodput without SLOs). */
  readonly valid: boolean;

  constructor(outcomes: readonly RequestOutcome[], metric: RateMetric, basis: RateBasis | null) {
    const n = outcomes.length;
    this.count = new Float64Array(n);
    this.share = new Float64Array(n);
    let valid = basis !== null && Number.isFinite(basis.durationS) && basis.durationS > 0 && n > 0;
    for (let i = 0; i < n && valid; i++) {
      const c = countOf(outcomes[i]!, metric, basis!.slo);
      if (c === null || outcomes[i]!.startMs === null) valid = false;
      else this.count[i] = c;
    }
    let tail = 0;
    if (valid && basis!.closedLoop) {
      let busy = 0;
      outcomes.forEach((o, i) => (busy += this.share[i] = Math.max(0, o.e2eMs ?? 0)));
      if (busy > 0) for (let i = 0; i < n; i++) this.share[i] = (this.share[i]! * basis!.durationS) / busy;
      else valid = false;
    } else if (valid) {
      const order = outcomes.map((o, i) => [o.startMs!, i] as const).sort((a, b) => a[0] - b[0]);
      for (let k = 1; k < n; k++) this.share[order[k]![1]] = (order[k]![0] - order[k - 1]![0]) / 1000;
      tail = basis!.durationS - (order[n - 1]![0] - order[0]![0]) / 1000;
    }
    this.tail = tail;
    // Start times that do not fit in the duration (an import's own clock): no interval.
    this.valid = valid && tail >= 0;
  }

  evalAll(w: Uint32Array, stats: readonly SampleStat[], out: Float64Array): void {
    const n = w.length;
    let c = 0;
    let s = 0;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const wi = w[i]!;
      if (wi === 0) continue;
      c += wi * this.count[i]!;
      s += wi * this.share[i]!;
      m += wi;
    }
    const time = s + (this.tail * m) / Math.max(1, n);
    const r = this.valid && m > 0 && time > 0 ? c / time : NaN;
    for (let j = 0; j < stats.length; j++) out[j] = r;
  }
}
