/**
 * Everything the metrics panel's charts plot for one window, computed from the target's scrapes
 * (series.ts does the Prometheus math) and the session's requests (client overlays). Pure.
 */
import type { RequestSummary } from '../../shared/api.ts';
import type { HistogramConcept } from '../../shared/metrics/profile-types.ts';
import { counterIncrease, histogramQuantile, quantileBucket } from '../../shared/metrics/prom-math.ts';
import { wideBucket } from '../../shared/runs/summary/server-quantile.ts';
import { bracketWindow } from './histogram-window.ts';
import { specDecodeWindow, type SpecDecodeWindow } from '../../shared/metrics/spec-decode.ts';
import type { ScrapePoint } from './metrics-store.ts';
import {
  gapFor,
  gaugeSeries,
  quantileSeries,
  rangeDelta,
  rateSeries,
  ratioSeries,
  resolutionFor,
  splitBands,
  splitQuantiles,
  type BandPoint,
  type SeriesPoint,
  type StepOptions,
} from './series.ts';

export type LatencyKey = 'ttft' | 'itl' | 'e2e' | 'queue';

const LATENCY_CONCEPTS: Record<LatencyKey, HistogramConcept> = {
  ttft: 'ttftHistogram',
  itl: 'itlHistogram',
  e2e: 'e2eHistogram',
  queue: 'queueTimeHistogram',
};

export interface LatencyChart {
  /** The server exposes this histogram at all. */
  exposed: boolean;
  p50: SeriesPoint[];
  p99: SeriesPoint[];
  /** Where a step's quantile is only known to a wide bucket: that bucket, ms (drawn as a band). */
  p50Band: BandPoint[];
  p99Band: BandPoint[];
  /**
   * Over the whole window (ms); count 0 = no observations. Null without two scrapes. The buckets
   * are set where they are wide next to the value (show the bucket, not the number).
   */
  window: {
    count: number;
    p50: number | null;
    p99: number | null;
    p50Wide: [number, number | null] | null;
    p99Wide: [number, number | null] | null;
  } | null;
}

export interface PanelData {
  running: SeriesPoint[];
  waiting: SeriesPoint[];
  /** KV-cache usage, %. */
  kv: SeriesPoint[];
  promptTps: SeriesPoint[];
  generationTps: SeriesPoint[];
  /** Prefix-cache hit rate per step, % (from hit/query counters when the server has them, else its gauge). */
  prefixHit: SeriesPoint[];
  /** Preemptions in the window (counter increase); null when not exposed or fewer than 2 scrapes. */
  preemptions: number | null;
  exposed: {
    running: boolean;
    waiting: boolean;
    kv: boolean;
    prompt: boolean;
    generation: boolean;
    prefixHit: boolean;
  };
  latency: Record<LatencyKey, LatencyChart>;
  /** Speculative decoding over the window (the scrapes bracketing it); null: not exposed. */
  specDecode: SpecDecodeWindow | null;
  /** Step width used (ms; 0 = every scrape). */
  resolutionMs: number;
}

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

export function panelData(points: readonly ScrapePoint[], startMs: number, endMs: number): PanelData {
  const resolutionMs = resolutionFor(endMs - startMs);
  const opts: StepOptions = { startMs, endMs, resolutionMs };
  const scalar = (f: (p: ScrapePoint) => number | null) => points.map((p) => ({ t: p.t, v: f(p) }));
  const has = (f: (p: ScrapePoint) => unknown) => points.some((p) => f(p) !== null);
  const times = points.map((p) => p.t);
  const bracket = bracketWindow(times, startMs, endMs, gapFor(times));
  const hitCounters =
    has((p) => p.concepts.prefixCacheQueriesTotal) && has((p) => p.concepts.prefixCacheHitsTotal);
  const latency = {} as Record<LatencyKey, LatencyChart>;
  for (const key of Object.keys(LATENCY_CONCEPTS) as LatencyKey[]) {
    const c = LATENCY_CONCEPTS[key];
    const hp = points.map((p) => ({ t: p.t, h: p.concepts[c] }));
    const qs = quantileSeries(hp, [0.5, 0.99], { ...opts, scale: 1000 });
    const split = splitQuantiles(qs, ['p50', 'p99']);
    const bands = splitBands(qs, ['p50', 'p99']);
    const d = bracket ? rangeDelta(hp, bracket.from, bracket.to) : null;
    const wideOf = (q: number, v: number | null): [number, number | null] | null => {
      const b = d ? quantileBucket(q, d.buckets) : null;
      return b ? wideBucket([b.lower * 1000, Number.isFinite(b.upper) ? b.upper * 1000 : null], v) : null;
    };
    const p50 = d ? finite(histogramQuantile(0.5, d.buckets) * 1000) : null;
    const p99 = d ? finite(histogramQuantile(0.99, d.buckets) * 1000) : null;
    latency[key] = {
      exposed: hp.some((p) => p.h !== null),
      p50: split.p50!,
      p99: split.p99!,
      p50Band: bands.p50!,
      p99Band: bands.p99!,
      window: d
        ? {
            count: d.count,
            p50,
            p99,
            p50Wide: p50 === null ? null : wideOf(0.5, p50),
            p99Wide: p99 === null ? null : wideOf(0.99, p99),
          }
        : null,
    };
  }
  return {
    running: gaugeSeries(
      scalar((p) => p.concepts.requestsRunning),
      opts,
    ),
    waiting: gaugeSeries(
      scalar((p) => p.concepts.requestsWaiting),
      opts,
    ),
    kv: gaugeSeries(
      scalar((p) => (p.concepts.kvCacheUsage === null ? null : p.concepts.kvCacheUsage * 100)),
      opts,
    ),
    promptTps: rateSeries(
      scalar((p) => p.concepts.promptTokensTotal),
      opts,
    ),
    generationTps: rateSeries(
      scalar((p) => p.concepts.generationTokensTotal),
      opts,
    ),
    prefixHit: hitCounters
      ? ratioSeries(
          scalar((p) => p.concepts.prefixCacheHitsTotal),
          scalar((p) => p.concepts.prefixCacheQueriesTotal),
          { ...opts, scale: 100 },
        )
      : gaugeSeries(
          scalar((p) =>
            p.concepts.prefixCacheHitRate === null ? null : p.concepts.prefixCacheHitRate * 100,
          ),
          opts,
        ),
    preemptions: preemptionsIn(points, bracket),
    exposed: {
      running: has((p) => p.concepts.requestsRunning),
      waiting: has((p) => p.concepts.requestsWaiting),
      kv: has((p) => p.concepts.kvCacheUsage),
      prompt: has((p) => p.concepts.promptTokensTotal),
      generation: has((p) => p.concepts.generationTokensTotal),
      prefixHit: hitCounters || has((p) => p.concepts.prefixCacheHitRate),
    },
    latency,
    specDecode: bracket
      ? specDecodeWindow(
          points.slice(bracket.from, bracket.to + 1).map((p) => ({ t: p.t, spec: p.spec ?? null })),
        )
      : null,
    resolutionMs,
  };
}

function preemptionsIn(
  points: readonly ScrapePoint[],
  b: { from: number; to: number } | null,
): number | null {
  if (!b) return null;
  const pts: { t: number; v: number }[] = [];
  for (let i = b.from; i <= b.to; i++) {
    const v = points[i]!.concepts.preemptionsTotal;
    if (v !== null) pts.push({ t: points[i]!.t, v });
  }
  const inc = counterIncrease(pts);
  return Number.isFinite(inc) ? inc : null;
}

type ClientReq = Pick<RequestSummary, 'targetId' | 'startedAtWall' | 'state' | 'ttftMs' | 'e2eMs'>;

/**
 * How many of this client's requests to the target were in flight, as a step series over the
 * window (a point at each start and end, holding until the next): comparable with the server's
 * "running + waiting". A running request is in flight until now; one that ended without an E2E
 * (failed before its first byte) is left out.
 */
export function inFlightSeries(
  requests: readonly ClientReq[],
  targetId: string,
  startMs: number,
  endMs: number,
): SeriesPoint[] {
  const ev: { t: number; d: number }[] = [];
  for (const r of requests) {
    if (r.targetId !== targetId) continue;
    const end = r.state === 'running' ? Infinity : r.e2eMs === null ? null : r.startedAtWall + r.e2eMs;
    if (end === null || end < startMs || r.startedAtWall > endMs) continue;
    ev.push({ t: Math.max(startMs, r.startedAtWall), d: 1 });
    if (end <= endMs) ev.push({ t: end, d: -1 });
  }
  // Ends before starts at the same instant, so back-to-back requests do not count twice.
  ev.sort((a, b) => a.t - b.t || a.d - b.d);
  const out: SeriesPoint[] = [{ t: startMs, v: 0 }];
  let n = 0;
  for (const e of ev) {
    n += e.d;
    const last = out[out.length - 1]!;
    if (last.t === e.t) last.v = n;
    else out.push({ t: e.t, v: n });
  }
  out.push({ t: endMs, v: n });
  return out;
}

/** Each finished request's TTFT (ms), placed where its first token arrived (start + TTFT). */
export function clientTtftPoints(
  requests: readonly ClientReq[],
  targetId: string,
  startMs: number,
  endMs: number,
): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  for (const r of requests) {
    if (r.targetId !== targetId || r.ttftMs === null || r.state === 'running') continue;
    const t = r.startedAtWall + r.ttftMs;
    if (t >= startMs && t <= endMs) out.push({ t, v: r.ttftMs });
  }
  return out.sort((a, b) => a.t - b.t);
}

/** Each completed request's E2E (ms), placed where it ended (start + E2E). */
export function clientE2ePoints(
  requests: readonly ClientReq[],
  targetId: string,
  startMs: number,
  endMs: number,
): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  for (const r of requests) {
    if (r.targetId !== targetId || r.state !== 'done' || r.e2eMs === null) continue;
    const t = r.startedAtWall + r.e2eMs;
    if (t >= startMs && t <= endMs) out.push({ t, v: r.e2eMs });
  }
  return out.sort((a, b) => a.t - b.t);
}

/** The charts of the metrics panel whose y axis follows the data (the others have a fixed top). */
type PeakKey = 'running' | 'throughput' | 'kv' | LatencyKey;
export type ChartPeaks = Record<PeakKey, number>;

const peak = (...series: readonly (readonly SeriesPoint[])[]): number => {
  let m = 0;
  for (const s of series) for (const p of s) if (p.v !== null && Number.isFinite(p.v) && p.v > m) m = p.v;
  return m;
};

/**
 * The highest value each chart of one target draws (ms for latencies), its client's series
 * included: the larger of two targets' peaks is the shared scale of their side-by-side charts.
 */
export function chartPeaks(
  data: PanelData,
  requests: readonly ClientReq[],
  targetId: string,
  startMs: number,
  endMs: number,
): ChartPeaks {
  const l = data.latency;
  return {
    running: peak(data.running, data.waiting, inFlightSeries(requests, targetId, startMs, endMs)),
    throughput: peak(data.promptTps, data.generationTps),
    kv: peak(data.kv),
    ttft: peak(l.ttft.p50, l.ttft.p99, clientTtftPoints(requests, targetId, startMs, endMs)),
    itl: peak(l.itl.p50, l.itl.p99),
    e2e: peak(l.e2e.p50, l.e2e.p99, clientE2ePoints(requests, targetId, startMs, endMs)),
    queue: peak(l.queue.p50, l.queue.p99),
  };
}

export function maxPeaks(all: readonly ChartPeaks[]): ChartPeaks | undefined {
  if (all.length < 2) return undefined;
  const out = { ...all[0]! };
  for (const p of all.slice(1))
    for (const k of Object.keys(out) as PeakKey[]) out[k] = Math.max(out[k], p[k]);
  return out;
}
