import { describe, expect, it } from 'vitest';
import type { ExplorerSeries } from '../../shared/metrics-api.ts';
import { MetricsStore } from './metrics-store.ts';
import { SeriesStore } from './series-store.ts';
import { scrape, ttftHist } from '../testing/metrics-fixture.ts';

const counter = (key: string, value: number): ExplorerSeries => ({
  key,
  family: key,
  type: 'counter',
  labels: '',
  value,
});

describe('MetricsStore', () => {
  it('keeps a bounded ring of scrapes per target, oldest dropped', () => {
    const store = new MetricsStore(5);
    for (let i = 1; i <= 12; i++) store.ingest(scrape({ t: i * 1000 }), i * 1000);
    const t = store.get('sim')!;
    expect(t.scrapes.size).toBe(5);
    expect(t.scrapes.toArray().map((p) => p.t)).toEqual([8000, 9000, 10_000, 11_000, 12_000]);
    expect(t.first!.t).toBe(1000);
    expect(t.version).toBe(12);
    expect(t.meta!.profileName).toBe('vLLM v1');
  });

  it('ignores a scrape that does not move time forward', () => {
    const store = new MetricsStore();
    store.ingest(scrape({ t: 2000 }));
    store.ingest(scrape({ t: 2000 }));
    store.ingest(scrape({ t: 1000 }));
    expect(store.get('sim')!.scrapes.size).toBe(1);
  });

  it('accumulates TTFT and generation tokens since watching, across a restart', () => {
    const store = new MetricsStore(2);
    store.ingest(
      scrape({ t: 1000, concepts: { ttftHistogram: ttftHist([0, 1, 1, 1, 1]), generationTokensTotal: 100 } }),
    );
    store.ingest(
      scrape({ t: 2000, concepts: { ttftHistogram: ttftHist([0, 1, 3, 3, 3]), generationTokensTotal: 150 } }),
    );
    store.ingest(
      scrape({ t: 3000, concepts: { ttftHistogram: ttftHist([1, 1, 1, 1, 1]), generationTokensTotal: 20 } }),
    );
    const t = store.get('sim')!;
    // The ring has only the last 2 scrapes; the totals still cover everything since the first.
    // (0,0,2,2,2) + restart (1,1,1,1,1) = (1,1,3,3,3); tokens 50 + 20.
    expect(t.totals.ttft!.buckets.map((b) => b.count)).toEqual([1, 1, 3, 3, 3]);
    expect(t.totals.generationTokens).toBe(70);
  });

  it('tells subscribers which target changed and estimates the core clock', () => {
    const store = new MetricsStore();
    const seen: string[] = [];
    store.subscribe((id) => seen.push(id));
    store.ingest(scrape({ t: 10_500, targetId: 'a' }), 10_000);
    expect(seen).toEqual(['a']);
    expect(store.coreNow(11_000)).toBe(11_500);
  });
});

describe('SeriesStore', () => {
  it('keeps at most maxSeries series and capacity points each', () => {
    const s = new SeriesStore(3, 2);
    for (let i = 1; i <= 5; i++) s.ingest(i * 1000, [counter('a', i), counter('b', i * 2), counter('c', 0)]);
    expect(s.size).toBe(2);
    expect(s.dropped).toBe(1);
    expect(s.get('a')!.points()).toEqual([
      { t: 3000, v: 3 },
      { t: 4000, v: 4 },
      { t: 5000, v: 5 },
    ]);
    expect(s.get('b')!.latest).toBe(10);
  });

  it('stores histogram rows and starts over when the bucket layout changes', () => {
    const s = new SeriesStore(10, 10);
    const hist = (t: number, les: number[], counts: number[]): void =>
      s.ingest(t, [
        {
          key: 'h',
          family: 'h',
          type: 'histogram',
          labels: '',
          value: counts[counts.length - 1]!,
          sum: t / 1000,
          buckets: les.map((le, i) => ({ le, count: counts[i]! })),
        },
      ]);
    hist(1000, [0.1, Infinity], [1, 2]);
    hist(2000, [0.1, Infinity], [3, 5]);
    const b = s.get('h')!;
    expect(b.histograms()).toEqual([
      {
        t: 1000,
        h: {
          buckets: [
            { le: 0.1, count: 1 },
            { le: Infinity, count: 2 },
          ],
          sum: 1,
          count: 2,
        },
      },
      {
        t: 2000,
        h: {
          buckets: [
            { le: 0.1, count: 3 },
            { le: Infinity, count: 5 },
          ],
          sum: 2,
          count: 5,
        },
      },
    ]);
    hist(3000, [0.5, Infinity], [1, 1]);
    expect(b.histograms().map((p) => p.t)).toEqual([3000]);
    expect(b.les).toEqual([0.5, Infinity]);
  });

  it('forgets series that vanished for a whole window', () => {
    const s = new SeriesStore(10, 100);
    s.ingest(0, [counter('gone', 1)]);
    for (let i = 1; i <= 60; i++) s.ingest(i, [counter('kept', i)]);
    expect(s.get('gone')).toBeUndefined();
    expect(s.get('kept')).toBeDefined();
  });
});
