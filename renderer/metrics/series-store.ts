/**
 * The metric explorer's data: one bounded ring per series (columnar typed arrays: times, values,
 * and for histograms a row of bucket counts per scrape), at most `maxSeries` series. Memory is
 * bounded by maxSeries × capacity × (2 + buckets) numbers, however long the app watches.
 */
import type { ExplorerSeries } from '../../shared/metrics-api.ts';
import type { HistogramData } from '../../shared/metrics/prom-math.ts';
import type { MetricType } from '../../shared/metrics/prom-types.ts';
import type { HistPoint, MaybePoint } from './series.ts';

export interface SeriesMeta {
  key: string;
  family: string;
  type: MetricType;
  labels: string;
}

export class SeriesBuffer {
  private t: Float64Array;
  private v: Float64Array;
  /** Histograms: bucket bounds, and one row of cumulative counts per point. */
  les: number[] | null = null;
  private counts: Float64Array | null = null;
  private sums: Float64Array | null = null;
  private head = 0;
  private n = 0;
  /** Ingest sequence number of the last scrape that had this series. */
  lastSeen = 0;
  latest: number;

  constructor(
    readonly meta: SeriesMeta,
    readonly capacity: number,
  ) {
    this.t = new Float64Array(capacity);
    this.v = new Float64Array(capacity);
    this.latest = NaN;
  }

  get size(): number {
    return this.n;
  }

  get isHistogram(): boolean {
    return this.les !== null;
  }

  push(t: number, s: ExplorerSeries): void {
    if (s.buckets && s.buckets.length > 0) {
      const les = s.buckets.map((b) => b.le);
      if (!this.les || les.length !== this.les.length || les.some((le, i) => le !== this.les![i])) {
        // A new bucket layout (first scrape, or the server restarted with other bounds): the old
        // rows cannot be subtracted from the new ones, so the ring starts over.
        this.les = les;
        this.counts = new Float64Array(this.capacity * les.length);
        this.sums = new Float64Array(this.capacity);
        this.head = 0;
        this.n = 0;
      }
    }
    const slot = (this.head + this.n) % this.capacity;
    if (this.n < this.capacity) this.n++;
    else this.head = (this.head + 1) % this.capacity;
    this.t[slot] = t;
    this.v[slot] = s.value;
    this.latest = s.value;
    if (this.les && this.counts && this.sums && s.buckets) {
      const w = this.les.length;
      for (let i = 0; i < w; i++) this.counts[slot * w + i] = s.buckets[i]?.count ?? NaN;
      this.sums[slot] = s.sum ?? NaN;
    }
  }

  private slot(i: number): number {
    return (this.head + i) % this.capacity;
  }

  /** Values (histograms: counts), oldest first. */
  points(): MaybePoint[] {
    const out: MaybePoint[] = [];
    for (let i = 0; i < this.n; i++) {
      const k = this.slot(i);
      const v = this.v[k]!;
      out.push({ t: this.t[k]!, v: Number.isFinite(v) ? v : null });
    }
    return out;
  }

  /** Cumulative histograms, oldest first (empty for other types). */
  histograms(): HistPoint[] {
    const les = this.les;
    const counts = this.counts;
    if (!les || !counts || !this.sums) return [];
    const w = les.length;
    const out: HistPoint[] = [];
    for (let i = 0; i < this.n; i++) {
      const k = this.slot(i);
      const h: HistogramData = {
        buckets: les.map((le, j) => ({ le, count: counts[k * w + j]! })),
        sum: this.sums[k]!,
        count: this.v[k]!,
      };
      out.push({ t: this.t[k]!, h });
    }
    return out;
  }
}

export class SeriesStore {
  private readonly map = new Map<string, SeriesBuffer>();
  private seq = 0;
  /** Series seen but not kept because the store was full. */
  dropped = 0;

  constructor(
    readonly capacity = 900,
    readonly maxSeries = 2000,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string): SeriesBuffer | undefined {
    return this.map.get(key);
  }

  /** Every kept series, in first-seen order. */
  list(): SeriesBuffer[] {
    return [...this.map.values()];
  }

  ingest(t: number, series: readonly ExplorerSeries[]): void {
    this.seq++;
    // Series gone for a whole window have nothing left to plot: make room for new ones.
    if (this.seq % 60 === 0) {
      for (const [k, b] of this.map) if (this.seq - b.lastSeen > this.capacity) this.map.delete(k);
    }
    let dropped = 0;
    for (const s of series) {
      let b = this.map.get(s.key);
      if (!b) {
        if (this.map.size >= this.maxSeries) {
          dropped++;
          continue;
        }
        b = new SeriesBuffer({ key: s.key, family: s.family, type: s.type, labels: s.labels }, this.capacity);
        this.map.set(s.key, b);
      }
      b.lastSeen = this.seq;
      b.push(t, s);
    }
    this.dropped = dropped;
  }
}
