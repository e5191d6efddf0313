/**
 * Live histograms for the run dashboard: HdrHistogram (2 significant digits — ±1 %, plenty for a
 * live view; the counts array is then ~8× shorter than with 3 — values recorded in
 * microseconds) so each update is O(1) and a snapshot costs the same at 10 or 10 million samples.
 * Display only — the published summary is computed exactly from the raw values at the end
 * (summary.ts). Same pooling as the summary: ITL takes every chunk gap of every successful request
 * but the coalesced ones (one socket read, ~0 ms by construction: shared/stats/request-stats.ts),
 * which are counted in the snapshot's `coalesced`.
 *
 * A snapshot runs in the event loop that timestamps the streams, so it must stay cheap: all the
 * percentiles of a metric come from ONE scan of the counts array (the library's
 * getValueAtPercentile rescans from the start per call: ~15 calls × 6 metrics cost several ms),
 * and metrics that did not change reuse their last snapshot.
 */
import { Int32Histogram } from 'hdr-histogram-js';
import type { RequestOutcome } from '../summary/outcome.ts';
import type { LiveMetric, LiveSnapshot, LiveStat } from './progress-types.ts';
import { coalescedOf } from '../summary/summary.ts';

const METRICS: LiveMetric[] = ['ttft', 'tpot', 'itl', 'itl_per_token', 'e2el', 'client_queue_time'];
const CDF_POINTS = [0, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.9, 100];

function newHistogram(): Int32Histogram {
  // 1 µs … 60 s to start, resizing past that; pure JS (no WebAssembly) so it runs anywhere.
  const h = new Int32Histogram(1, 60_000_000, 2);
  h.autoResize = true;
  return h;
}

/**
 * Values at several percentiles, and the mean, in one pass, with HdrHistogram's own definitions
 * (JsHistogram.getValueAtPercentile: first index whose cumulative count reaches
 * max(1, round(p/100 · total)), its highest equivalent value — lowest for p = 0; mean over median
 * equivalent values). The library's `mean` getter walks an iterator object per value: slow.
 */
function valuesAtPercentiles(
  h: Int32Histogram,
  percentiles: readonly number[],
): { values: number[]; mean: number } {
  const total = h.totalCount;
  const order = percentiles
    .map((p, i) => ({ i, p, need: Math.max(1, Math.floor((Math.min(p, 100) / 100) * total + 0.5)) }))
    .sort((a, b) => a.need - b.need);
  const out = new Array<number>(percentiles.length).fill(0);
  let k = 0;
  let cum = 0;
  let sum = 0;
  for (let idx = 0; idx < h.countsArrayLength && cum < total; idx++) {
    const n = h.getCountAtIndex(idx);
    if (n === 0) continue;
    cum += n;
    const v = h.valueFromIndex(idx);
    sum += n * h.medianEquivalentValue(v);
    while (k < order.length && cum >= order[k]!.need) {
      out[order[k]!.i] = order[k]!.p === 0 ? h.lowestEquivalentValue(v) : h.highestEquivalentValue(v);
      k++;
    }
  }
  return { values: out, mean: total > 0 ? sum / total : 0 };
}

const ALL_POINTS = [50, 90, 99, ...CDF_POINTS];

export class LiveStats {
  private h = new Map<LiveMetric, Int32Histogram>(METRICS.map((m) => [m, newHistogram()]));
  private cache = new Map<LiveMetric, { count: number; stat: LiveStat }>();
  private coalescedGaps = 0;
  private knownGaps = 0;
  private coalescedKnown = false;
  private perTokenEstimated = false;

  record(metric: LiveMetric, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.h.get(metric)!.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  /** Adds one finished request (successful ones only, as the summary counts them). */
  add(o: RequestOutcome): void {
    if (!o.ok) return;
    if (o.ttftMs !== null) this.record('ttft', o.ttftMs);
    if (o.tpotMs !== null && o.outputTokens > 1) this.record('tpot', o.tpotMs);
    if (o.e2eMs !== null) this.record('e2el', o.e2eMs);
    if (o.queueMs !== null) this.record('client_queue_time', o.queueMs);
    // Tokenscope's ITL, as the summary's stats: coalesced gaps left out where known.
    for (const g of o.itlChunkMeasuredMs ?? o.itlChunkMs) this.record('itl', g);
    const perToken = o.itlTokenMeasuredMs ?? o.itlTokenMs ?? [];
    for (const g of perToken) this.record('itl_per_token', g);
    if (perToken.length > 0 && o.tokenSource !== null && o.tokenSource !== 'per-event')
      this.perTokenEstimated = true;
    if (o.coalescedGaps !== undefined) {
      this.coalescedKnown = true;
      this.coalescedGaps += o.coalescedGaps;
      this.knownGaps += o.itlChunkMs.length;
    }
  }

  stat(metric: LiveMetric): LiveStat | null {
    const h = this.h.get(metric)!;
    if (h.totalCount === 0) return null;
    const cached = this.cache.get(metric);
    if (cached && cached.count === h.totalCount) return cached.stat;
    const r = valuesAtPercentiles(h, ALL_POINTS);
    const v = r.values.map((x) => x / 1000);
    const stat: LiveStat = {
      count: h.totalCount,
      mean: r.mean / 1000,
      p50: v[0]!,
      p90: v[1]!,
      p99: v[2]!,
      max: h.maxValue / 1000,
      cdf: CDF_POINTS.map((p, i) => [p, v[3 + i]!]),
    };
    this.cache.set(metric, { count: h.totalCount, stat });
    return stat;
  }

  snapshot(): LiveSnapshot {
    const out = {} as LiveSnapshot;
    for (const m of METRICS) out[m] = this.stat(m);
    if (this.coalescedKnown) out.coalesced = coalescedOf(this.coalescedGaps, this.knownGaps);
    if (this.perTokenEstimated) out.itlPerTokenEstimated = true;
    return out;
  }

  destroy(): void {
    for (const h of this.h.values()) h.destroy();
  }
}
