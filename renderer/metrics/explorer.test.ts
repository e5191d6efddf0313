import { describe, expect, it } from 'vitest';
import { explorerPlot, fmtSeriesValue, plotKind, searchSeries, unitOf } from './explorer.ts';
import { SeriesStore } from './series-store.ts';

function store(): SeriesStore {
  const s = new SeriesStore(100, 100);
  for (let i = 0; i < 3; i++) {
    s.ingest(1000 * (i + 1), [
      {
        key: 'vllm:generation_tokens_total{engine="0"}',
        family: 'vllm:generation_tokens',
        type: 'counter',
        labels: '{engine="0"}',
        value: 100 * i,
      },
      {
        key: 'vllm:num_requests_running{engine="0"}',
        family: 'vllm:num_requests_running',
        type: 'gauge',
        labels: '{engine="0"}',
        value: i,
      },
      {
        key: 'vllm:time_to_first_token_seconds{engine="0"}',
        family: 'vllm:time_to_first_token_seconds',
        type: 'histogram',
        labels: '{engine="0"}',
        value: 2 * i,
        sum: 0,
        buckets: [
          { le: 0.1, count: i },
          { le: 1, count: 2 * i },
          { le: Infinity, count: 2 * i },
        ],
      },
    ]);
  }
  return s;
}

const help = {
  'vllm:generation_tokens': 'Number of generation tokens processed.',
  'vllm:num_requests_running': 'Number of requests in model execution batches.',
};

describe('searchSeries', () => {
  it('matches every word against name, labels and help', () => {
    const s = store();
    expect(searchSeries(s.list(), help, 'engine tokens').rows.map((r) => r.family)).toEqual([
      'vllm:generation_tokens',
    ]);
    expect(searchSeries(s.list(), help, 'BATCHES').rows[0]!.help).toMatch(/model execution/);
    expect(searchSeries(s.list(), help, '').total).toBe(3);
    expect(searchSeries(s.list(), help, 'nothing-like-this').total).toBe(0);
  });

  it('caps the rows but counts every match', () => {
    const r = searchSeries(store().list(), help, 'vllm', 2);
    expect(r.rows).toHaveLength(2);
    expect(r.total).toBe(3);
  });
});

describe('plotKind', () => {
  const m = (key: string, type: 'counter' | 'gauge' | 'summary', labels = '') => ({
    key,
    family: key,
    type,
    labels,
  });
  it('plots counters as rates, gauges as values, summary sums/counts as rates', () => {
    expect(plotKind(m('x_total', 'counter'), false)).toBe('rate');
    expect(plotKind(m('x_created', 'counter'), false)).toBe('value');
    expect(plotKind(m('x', 'gauge'), false)).toBe('value');
    expect(plotKind(m('x_count{a="1"}', 'summary', '{a="1"}'), false)).toBe('rate');
    expect(plotKind(m('x{quantile="0.5"}', 'summary', '{quantile="0.5"}'), false)).toBe('value');
    expect(plotKind(m('h', 'gauge'), true)).toBe('histogram');
  });

  it('shows seconds in ms', () => {
    expect(unitOf('vllm:e2e_request_latency_seconds')).toEqual({ scale: 1000, unit: 'ms' });
    expect(unitOf('vllm:request_prompt_tokens')).toEqual({ scale: 1, unit: '' });
  });
});

describe('explorerPlot', () => {
  const opts = { startMs: 0, endMs: 10_000 };
  it('rates a counter per second', () => {
    const p = explorerPlot(store().get('vllm:generation_tokens_total{engine="0"}')!, opts);
    expect(p.kind).toBe('rate');
    expect(p.lines[0]!.data).toEqual([
      { t: 2000, v: 100 },
      { t: 3000, v: 100 },
    ]);
  });

  it('plots a histogram as p50/p90/p99 of each interval, in ms', () => {
    const p = explorerPlot(store().get('vllm:time_to_first_token_seconds{engine="0"}')!, opts);
    expect(p.lines.map((l) => l.name)).toEqual(['p50', 'p90', 'p99']);
    expect(p.unit).toBe('ms');
    // Each interval: 1 obs ≤ 100 ms, 1 in (100 ms, 1 s]. p50: rank 1 → 100 ms. p90: rank 1.8 →
    // 100 + 900 × 0.8 = 820 ms.
    expect(p.lines[0]!.data[0]!.v).toBeCloseTo(100, 9);
    expect(p.lines[1]!.data[0]!.v).toBeCloseTo(820, 9);
  });

  it('plots a gauge as is', () => {
    const p = explorerPlot(store().get('vllm:num_requests_running{engine="0"}')!, opts);
    expect(p.lines[0]!.data.map((x) => x.v)).toEqual([0, 1, 2]);
  });
});

describe('fmtSeriesValue', () => {
  it('shows timestamps as dates and the rest compactly', () => {
    const sec = new Date(2025, 4, 6, 7, 8, 9).getTime() / 1000;
    expect(fmtSeriesValue('process_start_time_seconds', '', sec)).toBe('2025-05-06 07:08:09');
    expect(fmtSeriesValue('x_created{a="1"}', '{a="1"}', sec)).toBe('2025-05-06 07:08:09');
    expect(fmtSeriesValue('process_resident_memory_bytes', '', 117_000_000)).toBe('117M');
  });
});
