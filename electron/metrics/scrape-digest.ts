/**
 * One scrape as a digest (not the HTML report of runs, shared/report/): the detected profile, the mapped concepts (gauges, counter totals,
 * histogram count/mean/quantiles), rates and window quantiles against the previous scrape, and
 * the size of what parsed. The CLI prints it as text or JSON; JSON has no NaN, so anything not
 * computable is null.
 */
import {
  conceptRates,
  extractConcepts,
  type ConceptSnapshot,
  type ExtractOptions,
} from '../../shared/metrics/concepts.ts';
import {
  histogramQuantile,
  type HistogramData,
  type HistogramDelta,
} from '../../shared/metrics/prom-math.ts';
import type { ParseError } from '../../shared/metrics/prom-types.ts';
import { wideQuantileBucket, type QuantileBucket } from '../../shared/runs/summary/server-quantile.ts';
import type { HistogramConcept, ProfileId, ScalarConcept } from '../../shared/metrics/profiles.ts';
import type { ScrapeResult } from './scraper.ts';
import {
  readSpecDecode,
  specDecodeWindow,
  type SpecDecodeReading,
  type SpecDecodeWindow,
} from '../../shared/metrics/spec-decode.ts';

/** Speculative decoding (shared/metrics/spec-decode.ts); the digest's `specDecode` is null where not exposed. */
interface SpecDecodeDigest {
  /** Since the server started (its counters against zero); SGLang: its gauges now. */
  sinceStart: SpecDecodeWindow | null;
  /** Since the previous scrape (null on the first). */
  window: SpecDecodeWindow | null;
}

function specDigest(prev: SpecDecodeReading | null, cur: SpecDecodeReading | null, first: boolean) {
  if (cur === null) return null;
  // Since start: the counters against zeros (a window from the server's start).
  const zero: SpecDecodeReading | null = cur.counters
    ? {
        counters: {
          drafts: 0,
          draftTokens: 0,
          accepted: 0,
          perPosition: cur.counters.perPosition?.map(() => 0) ?? null,
        },
        gauges: null,
      }
    : null;
  return {
    sinceStart: specDecodeWindow([
      { t: 0, spec: zero },
      { t: 1, spec: cur },
    ]),
    window: first
      ? null
      : specDecodeWindow([
          { t: 0, spec: prev },
          { t: 1, spec: cur },
        ]),
  };
}
import { disaggDigest } from './scrape-digest-disagg.ts';

export interface HistogramSummary {
  count: number;
  /** Seconds. */
  sum: number | null;
  mean: number | null;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  /**
   * Seconds: the server's bucket each quantile lies in when that bucket is wide next to the value
   * interpolated in it (shared/runs/summary/server-quantile.ts, as the app and run summaries show it) —
   * the true quantile is anywhere inside, so it is the answer, not the interpolation; null when
   * the value is precise. An upper bound of null is +Inf.
   */
  p50Range: QuantileBucket | null;
  p90Range: QuantileBucket | null;
  p99Range: QuantileBucket | null;
}

export interface WindowSummary extends HistogramSummary {
  /** The server restarted between the scrapes: the window is everything since the restart. */
  reset: boolean;
}

interface ScrapeRates {
  /** Seconds between the two scrapes (response-header arrival times, monotonic). */
  intervalSec: number;
  promptTokensPerSec: number | null;
  generationTokensPerSec: number | null;
  preemptionsPerSec: number | null;
  prefixCacheHitRate: number | null;
  ttft: WindowSummary | null;
  itl: WindowSummary | null;
  e2e: WindowSummary | null;
  queueTime: WindowSummary | null;
}

type DigestConcepts = { [K in ScalarConcept]: number | null } & {
  [K in HistogramConcept]: HistogramSummary | null;
};

export interface ScrapeDigest {
  url: string;
  /** Wall-clock time of the scrape (a label, not a duration). */
  time: string;
  profile: { id: ProfileId; label: string };
  concepts: DigestConcepts;
  /** Null on the first scrape. */
  rates: ScrapeRates | null;
  /** Speculative decoding; null: this server exposes none (not zeros). */
  specDecode: SpecDecodeDigest | null;
  families: number;
  series: number;
  errors: ParseError[];
  scrape: { status: number; contentType: string | null; bytes: number; durationMs: number };
}

/** Finite numbers pass; NaN/±Inf become null (JSON cannot carry them, and they mean "n/a"). */
const fin = (v: number | null | undefined): number | null =>
  v === null || v === undefined || !Number.isFinite(v) ? null : v;

function summarizeHistogram(h: HistogramData): HistogramSummary {
  const q = (x: number) => fin(histogramQuantile(x, h.buckets));
  const [p50, p90, p99] = [q(0.5), q(0.9), q(0.99)];
  return {
    count: h.count,
    sum: fin(h.sum),
    mean: h.count > 0 ? fin(h.sum / h.count) : null,
    p50,
    p90,
    p99,
    p50Range: wideQuantileBucket(0.5, h.buckets, p50),
    p90Range: wideQuantileBucket(0.9, h.buckets, p90),
    p99Range: wideQuantileBucket(0.99, h.buckets, p99),
  };
}

const windowSummary = (d: HistogramDelta | null): WindowSummary | null =>
  d === null ? null : { ...summarizeHistogram(d), reset: d.reset };

/**
 * Builds digests scrape after scrape for one target: each digest's rates compare it with the
 * previous successful scrape.
 */
export class ScrapeDigestBuilder {
  private prev: ConceptSnapshot | null = null;
  private prevSpec: SpecDecodeReading | null = null;

  constructor(private readonly opts: ExtractOptions = {}) {}

  next(r: ScrapeResult): ScrapeDigest {
    const c = extractConcepts(r.parsed, r.profile, this.opts);
    const snap: ConceptSnapshot = { tMs: r.monoMs, concepts: c };
    let rates: ScrapeRates | null = null;
    if (this.prev !== null) {
      const x = conceptRates(this.prev, snap);
      rates = {
        intervalSec: (snap.tMs - this.prev.tMs) / 1000,
        promptTokensPerSec: fin(x.promptTokensPerSec),
        generationTokensPerSec: fin(x.generationTokensPerSec),
        preemptionsPerSec: fin(x.preemptionsPerSec),
        prefixCacheHitRate: fin(x.prefixCacheHitRate),
        ttft: windowSummary(x.ttft),
        itl: windowSummary(x.itl),
        e2e: windowSummary(x.e2e),
        queueTime: windowSummary(x.queueTime),
      };
    }
    const first = this.prev === null;
    this.prev = snap;
    const model =
      this.opts.model !== undefined ? { [r.profile.modelLabel ?? 'model_name']: this.opts.model } : undefined;
    const spec = readSpecDecode(r.parsed, { ...this.opts.labels, ...model });
    const specDecode = specDigest(this.prevSpec, spec, first);
    this.prevSpec = spec;
    const h = (d: HistogramData | null): HistogramSummary | null =>
      d === null ? null : summarizeHistogram(d);
    let series = 0;
    for (const f of r.parsed.families) series += f.samples.length;
    return {
      url: r.url,
      time: new Date(r.wallMs).toISOString(),
      profile: { id: r.profile.id, label: r.profile.label },
      concepts: {
        requestsRunning: fin(c.requestsRunning),
        requestsWaiting: fin(c.requestsWaiting),
        kvCacheUsage: fin(c.kvCacheUsage),
        promptTokensTotal: fin(c.promptTokensTotal),
        generationTokensTotal: fin(c.generationTokensTotal),
        preemptionsTotal: fin(c.preemptionsTotal),
        // Counter-based servers (vLLM V1) have no gauge: since-start ratio of their counters.
        prefixCacheHitRate: fin(
          c.prefixCacheHitRate ??
            (c.prefixCacheHitsTotal !== null && c.prefixCacheQueriesTotal
              ? c.prefixCacheHitsTotal / c.prefixCacheQueriesTotal
              : null),
        ),
        prefixCacheHitsTotal: fin(c.prefixCacheHitsTotal),
        prefixCacheQueriesTotal: fin(c.prefixCacheQueriesTotal),
        ttftHistogram: h(c.ttftHistogram),
        itlHistogram: h(c.itlHistogram),
        e2eHistogram: h(c.e2eHistogram),
        queueTimeHistogram: h(c.queueTimeHistogram),
        ...disaggDigest(c, fin, h),
      },
      rates,
      specDecode,
      families: r.parsed.families.length,
      series,
      errors: r.parsed.errors,
      scrape: {
        status: r.status,
        contentType: r.contentType,
        bytes: r.bytes,
        durationMs: Math.round(r.durationMs * 100) / 100,
      },
    };
  }
}
