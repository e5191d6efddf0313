/**
 * Watches the server's own metrics through a load run (its /metrics, or a Prometheus that scrapes
 * it; the same Scraper as the metrics panel) and sums them up over the measured run: a baseline
 * scrape right before the clock starts, one a second during the run, a last one once every
 * request has ended. From those: peaks of the running / waiting / KV-cache gauges, the counter
 * increases (generation and prompt tokens, preemptions), and the server's TTFT, queue-time, E2E
 * and inter-token histograms over the window, as quantiles. Counters and histograms are summed
 * scrape to scrape with reset handling (Prometheus' increase()), so a server that restarts
 * mid-run loses nothing counted before the restart. A server without metrics costs the run
 * nothing: its failure is kept and said.
 */
import type {
  ServerHistogramStats,
  ServerSample,
  ServerSideSummary,
} from '../../shared/runs/summary/server-side-schema.ts';
import { extractConcepts, type Concepts } from '../../shared/metrics/concepts.ts';
import {
  counterIncrease,
  histogramIncrease,
  histogramQuantile,
  quantileBucket,
  type HistogramData,
  type Point,
} from '../../shared/metrics/prom-math.ts';
import { energyOverWindow, perToken, type GpuTick } from '../../shared/runs/summary/energy.ts';
import { Scraper, type ScrapeResult, type ScrapeTarget } from '../metrics/scraper.ts';
import { TelemetrySet } from '../metrics/telemetry-set.ts';
import { redactUrlString } from '../../shared/redact.ts';
import {
  readSpecDecode,
  specDecodeWindow,
  type SpecDecodeReading,
} from '../../shared/metrics/spec-decode.ts';

const MAX_SERIES = 2000;

interface Snap {
  monoMs: number;
  concepts: Concepts;
  /** Speculative decoding's families (shared/metrics/spec-decode.ts); null: none. */
  spec: SpecDecodeReading | null;
}

/** The histogram's observations over every scrape of the window (reset-aware at each step). */
function histStats(
  snaps: readonly Snap[],
  get: (c: Concepts) => HistogramData | null,
): ServerHistogramStats | null {
  const d = histogramIncrease(snaps.map((s) => get(s.concepts)));
  if (d === null) return null;
  if (!(d.count > 0)) return { count: 0, mean: null, p50: null, p90: null, p99: null };
  const q = (x: number): number | null => {
    const v = histogramQuantile(x, d.buckets) * 1000;
    return Number.isFinite(v) ? v : null;
  };
  const mean = (d.sum / d.count) * 1000;
  const bucket = (x: number): [number, number | null] | null => {
    const b = quantileBucket(x, d.buckets);
    return b === null ? null : [b.lower * 1000, Number.isFinite(b.upper) ? b.upper * 1000 : null];
  };
  return {
    count: d.count,
    mean: Number.isFinite(mean) ? mean : null,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    p50Bucket: bucket(0.5),
    p99Bucket: bucket(0.99),
  };
}

function increase(snaps: readonly Snap[], get: (c: Concepts) => number | null): number | null {
  const pts: Point[] = [];
  for (const s of snaps) {
    const v = get(s.concepts);
    if (v !== null && Number.isFinite(v)) pts.push({ t: s.monoMs, v });
  }
  return pts.length >= 2 ? counterIncrease(pts) : null;
}

/**
 * The server's own prefix-cache hit rate over the run: its hit and query counters' increases
 * (vLLM V1 `prefix_cache_hits_total`/`_queries_total`, SGLang `cached_tokens_total` over
 * `prompt_tokens_total`: tokens); where it has only a gauge (vLLM V0, SGLang's `cache_hit_rate`),
 * the gauge's last value in the window, marked so (it is not over the run alone).
 */
function serverPrefixCache(snaps: readonly Snap[]): ServerSideSummary['prefixCache'] {
  const hits = increase(snaps, (c) => c.prefixCacheHitsTotal);
  const queries = increase(snaps, (c) => c.prefixCacheQueriesTotal);
  if (hits !== null && queries !== null && queries > 0)
    return {
      hitTokens: hits,
      queryTokens: queries,
      hitRate: Math.min(1, hits / queries),
      source: 'counters',
    };
  let gauge: number | null = null;
  for (const s of snaps) {
    const v = s.concepts.prefixCacheHitRate;
    if (v !== null && Number.isFinite(v)) gauge = v;
  }
  return gauge === null ? null : { hitTokens: null, queryTokens: null, hitRate: gauge, source: 'gauge' };
}

function peak(snaps: readonly Snap[], get: (c: Concepts) => number | null): number | null {
  let m: number | null = null;
  for (const s of snaps) {
    const v = get(s.concepts);
    if (v !== null && Number.isFinite(v) && (m === null || v > m)) m = v;
  }
  return m;
}

export class ServerWatch {
  private readonly scraper: Scraper;
  private readonly snaps: Snap[] = [];
  private profile = { id: 'unknown', label: 'Unknown server' };
  private lastError: string | null = null;
  /** Telemetry endpoints (GPU energy), read on each server scrape's tick. */
  private readonly telemetry: TelemetrySet | null;
  private readonly telemetryUrls: readonly string[];
  private readonly telemetryErrors = new Map<string, string>();
  private readonly ticks: GpuTick[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly target: ScrapeTarget,
    /** Filter concepts on this model (servers that label series by model). */
    private readonly model: string | null,
    telemetryUrls: readonly string[] = [],
  ) {
    this.telemetryUrls = [...telemetryUrls];
    this.telemetry = telemetryUrls.length
      ? new TelemetrySet(telemetryUrls, { insecureTls: target.insecureTls, timeoutMs: target.timeoutMs })
      : null;
    this.scraper = new Scraper(
      { intervalMs: 1000, ...target },
      {
        onScrape: (r) => this.keep(r),
        onState: (s) => {
          if (s.lastError) this.lastError = s.lastError.message;
        },
        onListenerError: () => undefined,
      },
    );
  }

  private keep(r: ScrapeResult): void {
    this.profile = { id: r.profile.id, label: r.profile.label };
    const concepts = extractConcepts(r.parsed, r.profile, this.model ? { model: this.model } : {});
    const model = this.model ? { [r.profile.modelLabel ?? 'model_name']: this.model } : undefined;
    this.snaps.push({ monoMs: r.monoMs, concepts, spec: readSpecDecode(r.parsed, model) });
    if (this.telemetry === null) return;
    const p = this.telemetry.scrapeAll().then((rs) => {
      for (const t of rs) {
        if (t.error !== null) this.telemetryErrors.set(t.url, t.error);
        if (t.gpus.length > 0) this.ticks.push({ t: t.monoMs, gpus: t.gpus });
      }
    });
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** GPU energy over the window: from the last telemetry tick at or before t0 to the last one. */
  private energy(t0: number, outputTokens: number | undefined) {
    if (this.telemetry === null) return {};
    const ticks = [...this.ticks].sort((a, b) => a.t - b.t);
    let from = 0;
    for (let i = 0; i < ticks.length; i++) if (ticks[i]!.t <= t0) from = i;
    const e = energyOverWindow(ticks.slice(from), t0);
    return {
      // Joules per output token: every GPU's energy over the window / the run's output tokens.
      energy: e !== null && outputTokens !== undefined ? perToken(e, outputTokens) : e,
      telemetry: this.telemetryUrls.map((url) => ({ url, error: this.telemetryErrors.get(url) ?? null })),
    };
  }

  /** One scrape now (the baseline before the clock starts, and the last after the run). */
  async scrapeNow(): Promise<void> {
    const r = await this.scraper.scrapeOnce();
    if (r !== null && !('parsed' in r)) this.lastError = r.message;
    // Its telemetry too (started on the scrape's tick): the baseline is taken before the clock starts.
    await Promise.all([...this.pending]);
  }

  start(): void {
    this.scraper.start();
  }

  /** Stops the periodic scrapes, takes the last one, and sums up against the run's clock (t0). */
  async finish(t0: number, outputTokens?: number): Promise<ServerSideSummary> {
    this.scraper.stop();
    await this.scrapeNow();
    this.telemetry?.stop();
    const snaps = [...this.snaps].sort((a, b) => a.monoMs - b.monoMs);
    // The window: the last scrape at or before the clock started (else the first), to the last.
    let from = 0;
    for (let i = 0; i < snaps.length; i++) if (snaps[i]!.monoMs <= t0) from = i;
    const inWindow = snaps.slice(from);
    const first = inWindow[0] ?? null;
    const last = inWindow[inWindow.length - 1] ?? null;
    const two = first !== null && last !== null && last !== first;
    let series: ServerSample[] = snaps.map((s) => ({
      t: Math.round((s.monoMs - t0) * 1000) / 1000,
      running: s.concepts.requestsRunning,
      waiting: s.concepts.requestsWaiting,
      kvCacheUsage: s.concepts.kvCacheUsage,
    }));
    if (series.length > MAX_SERIES) {
      const step = Math.ceil(series.length / MAX_SERIES);
      series = series.filter((_, i) => i % step === 0 || i === series.length - 1);
    }
    const st = this.scraper.state;
    return {
      source: this.target.prometheus ? 'prometheus' : 'scrape',
      url: redactUrlString(this.scraper.url.href.replace(/\/\/[^@/]*@/, '//')),
      selector: this.scraper.selector,
      profile: this.profile.id,
      profileName: this.profile.label,
      model: this.model,
      scrapes: snaps.length,
      failures: st.failures,
      lastError:
        snaps.length === 0
          ? (this.lastError ?? 'no scrape succeeded')
          : st.failures > 0
            ? this.lastError
            : null,
      window: two ? { fromMs: first.monoMs - t0, toMs: last.monoMs - t0 } : null,
      peak: {
        running: peak(inWindow, (c) => c.requestsRunning),
        waiting: peak(inWindow, (c) => c.requestsWaiting),
        kvCacheUsage: peak(inWindow, (c) => c.kvCacheUsage),
      },
      delta: {
        generationTokens: two ? increase(inWindow, (c) => c.generationTokensTotal) : null,
        promptTokens: two ? increase(inWindow, (c) => c.promptTokensTotal) : null,
        preemptions: two ? increase(inWindow, (c) => c.preemptionsTotal) : null,
      },
      prefixCache: two ? serverPrefixCache(inWindow) : null,
      // Over every scrape, not first-to-last: a server restart mid-run keeps what came before it.
      ttft: two ? histStats(inWindow, (c) => c.ttftHistogram) : null,
      queueTime: two ? histStats(inWindow, (c) => c.queueTimeHistogram) : null,
      e2e: two ? histStats(inWindow, (c) => c.e2eHistogram) : null,
      itl: two ? histStats(inWindow, (c) => c.itlHistogram) : null,
      series,
      specDecode: specDecodeWindow(inWindow.map((s) => ({ t: s.monoMs, spec: s.spec }))),
      ...this.energy(t0, outputTokens),
    };
  }

  /** Stops everything without a summary (the run failed before it began). */
  stop(): void {
    this.scraper.stop();
    this.telemetry?.stop();
  }
}
