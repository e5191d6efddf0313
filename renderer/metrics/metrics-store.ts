/**
 * Server metrics of the session, outside React (like request/live-store.ts for requests): per target
 * a ring of the last `capacity` scrapes (900 = 15 min at 1 s) with their concepts, the explorer's
 * per-series rings, and running totals since watching started (for "all since watching").
 * Subscribers are told which target changed; React sees summaries only (summary-store.ts).
 */
import type { MetricsScrape } from '../../shared/metrics-api.ts';
import type { Concepts } from '../../shared/metrics/concepts.ts';
import { histogramDelta, mergeHistograms, type HistogramData } from '../../shared/metrics/prom-math.ts';
import type { ProfileId } from '../../shared/metrics/profile-types.ts';
import type { GpuReading } from '../../shared/metrics/telemetry.ts';
import type { SpecDecodeReading } from '../../shared/metrics/spec-decode.ts';
import { Ring } from './ring.ts';
import { SeriesStore } from './series-store.ts';
import { Listeners } from '../../shared/listeners.ts';

const SCRAPE_CAPACITY = 900;
const MAX_SERIES = 2000;

export interface ScrapePoint {
  /** Epoch ms on the core's clock (same axis as RequestSummary.startedAtWall). */
  t: number;
  concepts: Concepts;
  /** Speculative decoding's families at this scrape; null or absent: none. */
  spec?: SpecDecodeReading | null;
}

export interface ScrapeMeta {
  profile: ProfileId;
  profileName: string;
  families: number;
  series: number;
  bytes: number;
  durationMs: number;
  parseErrors: { line: number; message: string }[];
  explorerTruncated: boolean;
}

/** The GPUs of a target's telemetry endpoints at one scrape tick (same time as its ScrapePoint). */
export interface GpuPoint {
  t: number;
  gpus: GpuReading[];
}

/** Accumulated since the first scrape of the session: every consecutive delta, reset-aware. @internal exported for its tests */
export interface Totals {
  ttft: HistogramData | null;
  generationTokens: number | null;
}

/** @internal exported for its tests */
export class TargetMetrics {
  readonly scrapes: Ring<ScrapePoint>;
  /** Telemetry ticks with GPUs (dcgm-exporter endpoints of the target), same capacity. */
  readonly gpus: Ring<GpuPoint>;
  /** Telemetry endpoints that failed at the last tick, with why. */
  telemetryErrors: { url: string; error: string }[] = [];
  readonly series: SeriesStore;
  help: Record<string, string> = {};
  first: ScrapePoint | null = null;
  totals: Totals = { ttft: null, generationTokens: null };
  meta: ScrapeMeta | null = null;
  version = 0;

  constructor(
    readonly targetId: string,
    capacity = SCRAPE_CAPACITY,
    maxSeries = MAX_SERIES,
  ) {
    this.scrapes = new Ring(capacity);
    this.gpus = new Ring(capacity);
    this.series = new SeriesStore(capacity, maxSeries);
  }

  ingest(s: MetricsScrape): void {
    const point: ScrapePoint = { t: s.wallMs, concepts: s.concepts, spec: s.specDecode ?? null };
    const prev = this.scrapes.last();
    if (prev && point.t <= prev.t) return; // a duplicate or out-of-order scrape: times must ascend
    if (prev) this.accumulate(prev.concepts, point.concepts);
    this.first ??= point;
    this.scrapes.push(point);
    if (s.telemetry) {
      const gpus = s.telemetry.flatMap((x) => x.gpus);
      if (gpus.length > 0) this.gpus.push({ t: s.wallMs, gpus });
      this.telemetryErrors = s.telemetry.flatMap((x) => (x.error ? [{ url: x.url, error: x.error }] : []));
    }
    // Only what the explorer needs is copied into typed arrays; the scrape object is not kept.
    this.series.ingest(s.wallMs, s.explorer);
    this.help = s.help;
    this.meta = {
      profile: s.profile,
      profileName: s.profileName,
      families: s.families,
      series: s.series,
      bytes: s.bytes,
      durationMs: s.durationMs,
      parseErrors: s.parseErrors,
      explorerTruncated: s.explorerTruncated,
    };
    this.version++;
  }

  private accumulate(a: Concepts, b: Concepts): void {
    if (a.ttftHistogram && b.ttftHistogram) {
      const d = histogramDelta(a.ttftHistogram, b.ttftHistogram);
      this.totals.ttft = this.totals.ttft ? mergeHistograms([this.totals.ttft, d]) : mergeHistograms([d]);
    }
    const x = a.generationTokensTotal;
    const y = b.generationTokensTotal;
    if (x !== null && y !== null)
      this.totals.generationTokens = (this.totals.generationTokens ?? 0) + (y < x ? y : y - x);
  }
}

/** @internal exported for its tests */
export type MetricsListener = (targetId: string) => void;

/** @internal exported for its tests */
export class MetricsStore {
  private readonly targets = new Map<string, TargetMetrics>();
  private readonly listeners = new Listeners<string>();
  /** Core clock − renderer clock (ms), from the latest scrape; see coreNow(). */
  private offsetMs = 0;

  constructor(
    private readonly capacity = SCRAPE_CAPACITY,
    private readonly maxSeries = MAX_SERIES,
  ) {}

  get(id: string | null | undefined): TargetMetrics | undefined {
    return id ? this.targets.get(id) : undefined;
  }

  ensure(id: string): TargetMetrics {
    let t = this.targets.get(id);
    if (!t) this.targets.set(id, (t = new TargetMetrics(id, this.capacity, this.maxSeries)));
    return t;
  }

  subscribe(fn: MetricsListener): () => void {
    return this.listeners.add(fn);
  }

  ingest(s: MetricsScrape, receivedAt = Date.now()): void {
    // Scrape times are on the core's clock; the delivery delay only makes this estimate late.
    this.offsetMs = s.wallMs - receivedAt;
    this.ensure(s.targetId).ingest(s);
    this.listeners.emit(s.targetId);
  }

  /** Now on the core's clock: the right edge of the charts' time axis. */
  coreNow(rendererNow = Date.now()): number {
    return rendererNow + this.offsetMs;
  }

  clear(): void {
    this.targets.clear();
  }
}

export const metricsStore = new MetricsStore();
