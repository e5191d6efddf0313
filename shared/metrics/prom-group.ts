/**
 * Gathers the `_bucket`/`_sum`/`_count`/`_created` (and summary quantile) lines of one family into
 * one record per label set, whatever order the emitter used: prometheus_client single-process
 * writes buckets, `_count`, `_sum`; multiprocess writes `_sum` first; prometheus-cpp writes
 * `_count`, `_sum`, buckets (test-corpus/FORMATS.md §3.3).
 */
import type { HistogramSeries, Labels, SummarySeries } from './prom-types.ts';

/** A stable key for a label set, ignoring one label (`le` or `quantile`) and label order. */
function labelKey(labels: Labels, skip: string): string {
  const keys = Object.keys(labels);
  if (keys.length > 1) keys.sort();
  let k = '';
  for (const name of keys) if (name !== skip) k += name + '\u0000' + labels[name] + '\u0001';
  return k;
}

/** `a` minus its `skip` label has exactly the labels of `b` (which has no `skip`). */
function sameExcept(a: Labels, b: Labels, skip: string): boolean {
  let n = 0;
  for (const name in a) {
    if (name === skip) continue;
    if (a[name] !== b[name]) return false;
    n++;
  }
  for (const _name in b) n--;
  return n === 0;
}

function without(labels: Labels, skip: string): Labels {
  const out: Labels = {};
  for (const name of Object.keys(labels)) {
    if (name === skip) continue;
    if (name === '__proto__')
      Object.defineProperty(out, name, { value: labels[name], enumerable: true, writable: true });
    else out[name] = labels[name] as string;
  }
  return out;
}

export type GroupRole = 'bucket' | 'quantile' | 'sum' | 'count' | 'created';

/** Per-family accumulator of histogram or summary series, in first-appearance order. */
export class SeriesGrouper {
  private readonly hist = new Map<string, HistogramSeries>();
  private readonly summ = new Map<string, SummarySeries>();
  private last: HistogramSeries | SummarySeries | null = null;

  constructor(readonly kind: 'histogram' | 'summary') {}

  /** `bound` is the parsed `le` or `quantile` for bucket/quantile roles. */
  add(role: GroupRole, labels: Labels, value: number, bound: number): void {
    const skip = this.kind === 'histogram' ? 'le' : 'quantile';
    // Lines of one series are usually adjacent: compare with the last series before building a key.
    const last = this.last;
    const hit = last !== null && sameExcept(labels, last.labels, skip) ? last : undefined;
    if (this.kind === 'histogram') {
      let h = hit as HistogramSeries | undefined;
      if (h === undefined) {
        const key = labelKey(labels, skip);
        h = this.hist.get(key);
        if (h === undefined) {
          h = { labels: without(labels, skip), buckets: [], sum: NaN, count: NaN };
          this.hist.set(key, h);
        }
        this.last = h;
      }
      if (role === 'bucket') h.buckets.push({ le: bound, count: value });
      else if (role === 'sum') h.sum = value;
      else if (role === 'count') h.count = value;
      else if (role === 'created') h.createdSec = value;
      return;
    }
    let q = hit as SummarySeries | undefined;
    if (q === undefined) {
      const key = labelKey(labels, skip);
      q = this.summ.get(key);
      if (q === undefined) {
        q = { labels: without(labels, skip), quantiles: [], sum: NaN, count: NaN };
        this.summ.set(key, q);
      }
      this.last = q;
    }
    if (role === 'quantile') q.quantiles.push({ quantile: bound, value });
    else if (role === 'sum') q.sum = value;
    else if (role === 'count') q.count = value;
    else if (role === 'created') q.createdSec = value;
  }

  histograms(): HistogramSeries[] {
    const out = [...this.hist.values()];
    for (const h of out) {
      h.buckets.sort((a, b) => a.le - b.le);
      if (Number.isNaN(h.count)) {
        const top = h.buckets[h.buckets.length - 1];
        if (top !== undefined && top.le === Infinity) h.count = top.count;
      }
    }
    return out;
  }

  summaries(): SummarySeries[] {
    const out = [...this.summ.values()];
    for (const s of out) s.quantiles.sort((a, b) => a.quantile - b.quantile);
    return out;
  }
}
