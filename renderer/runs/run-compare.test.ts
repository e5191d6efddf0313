import { describe, expect, it } from 'vitest';
import type { MetricStats, RunSummary } from '../../shared/runs/run-types.ts';
import { cdfDomain, cdfFromValues, compareRows } from './run-compare.ts';

const stats = (median: number, p99: number): MetricStats => ({
  count: 10,
  mean: median,
  median,
  std: 1,
  min: 1,
  max: p99,
  p90: p99,
  p95: p99,
  p99,
  p999: p99,
});

function summary(p: {
  tput: number;
  ttft: [number, number];
  failed?: number;
  goodput?: number | null;
}): RunSummary {
  return {
    vllm: {
      completed: 10,
      failed: p.failed ?? 0,
      duration: 5,
      total_input_tokens: 100,
      total_output_tokens: 200,
      request_throughput: 2,
      request_goodput: p.goodput ?? null,
      output_throughput: p.tput,
      total_token_throughput: p.tput + 20,
      max_output_tokens_per_s: null,
      max_concurrent_requests: 4,
    },
    stats: {
      ttft: stats(...p.ttft),
      tpot: null,
      itl: null,
      e2el: null,
      itl_per_token: null,
      client_queue_time: null,
      first_event: null,
    },
  } as unknown as RunSummary;
}

describe('compareRows', () => {
  it('each run against the first: relative change and whether that is better, by the metric’s direction', () => {
    const rows = compareRows([
      summary({ tput: 100, ttft: [50, 80] }),
      summary({ tput: 150, ttft: [40, 120] }),
      summary({ tput: 100.5, ttft: [50.2, 80], failed: 2 }),
    ]);
    const by = new Map(rows.map((r) => [r.def.id, r]));
    expect(by.get('out-tput')).toMatchObject({ values: [100, 150, 100.5], rel: [null, 0.5, 0.005] });
    expect(by.get('out-tput')!.verdict).toEqual([null, 'better', 'same']); // higher is better; 0.5 % is noise
    expect(by.get('ttft-p50')!.verdict).toEqual([null, 'better', 'same']); // lower is better
    expect(by.get('ttft-p99')!.verdict).toEqual([null, 'worse', 'same']);
    expect(by.get('ttft-p99')!.rel[1]).toBeCloseTo(0.5, 12);
    // A baseline of 0 has no relative change; a count without a direction gets no verdict.
    expect(by.get('failed')!.rel).toEqual([null, null, null]);
    expect(by.get('completed')!.verdict).toEqual([null, null, null]);
  });

  it('leaves out rows no run has (goodput without SLOs, metrics an import did not report)', () => {
    const ids = compareRows([summary({ tput: 1, ttft: [1, 2] }), summary({ tput: 2, ttft: [1, 2] })]).map(
      (r) => r.def.id,
    );
    expect(ids).not.toContain('goodput');
    expect(ids).not.toContain('tpot-p50');
    expect(ids).toContain('ttft-p99');
    const withGoodput = compareRows([
      summary({ tput: 1, ttft: [1, 2], goodput: 3 }),
      summary({ tput: 1, ttft: [1, 2] }),
    ]);
    expect(withGoodput.find((r) => r.def.id === 'goodput')?.values).toEqual([3, null]);
  });
});

describe('cdfFromValues', () => {
  it('is the empirical CDF: sorted values against their percentile, min and max kept', () => {
    expect(cdfFromValues([30, 10, 20, 40])).toEqual([
      { v: 10, p: 25 },
      { v: 20, p: 50 },
      { v: 30, p: 75 },
      { v: 40, p: 100 },
    ]);
    expect(cdfFromValues([])).toEqual([]);
    expect(cdfFromValues([NaN, 5])).toEqual([{ v: 5, p: 100 }]);
  });

  it('thins a large sample to about maxPoints, monotone, ending at the maximum', () => {
    const xs = Array.from({ length: 10_001 }, (_, i) => (i * 7919) % 10_001);
    const c = cdfFromValues(xs, 100);
    expect(c.length).toBeLessThanOrEqual(103);
    expect(c[0]).toEqual({ v: 0, p: 100 / 10_001 });
    expect(c[c.length - 1]).toEqual({ v: 10_000, p: 100 });
    for (let i = 1; i < c.length; i++) {
      expect(c[i]!.v).toBeGreaterThanOrEqual(c[i - 1]!.v);
      expect(c[i]!.p).toBeGreaterThan(c[i - 1]!.p);
    }
    // Each point is exact: its percentile is the share of values at or below it.
    const mid = c[Math.floor(c.length / 2)]!;
    expect((xs.filter((x) => x <= mid.v).length / xs.length) * 100).toBeCloseTo(mid.p, 9);
  });
});

describe('cdfDomain', () => {
  it('spans the data in whole nice steps, not from 0', () => {
    const d = cdfDomain([{ points: [{ v: 20.31 }, { v: 21.1 }] }, { points: [{ v: 20.05 }, { v: 20.6 }] }]);
    expect(d.lo).toBeLessThanOrEqual(20.05);
    expect(d.hi).toBeGreaterThanOrEqual(21.1);
    expect(d.hi - d.lo).toBeLessThan(2);
    expect(d.ticks[0]).toBe(d.lo);
    expect(d.ticks[d.ticks.length - 1]).toBe(d.hi);
    expect(d.ticks.length).toBeGreaterThanOrEqual(3);
    expect(cdfDomain([{ points: [{ v: 1320 }, { v: 1430 }] }])).toMatchObject({ lo: 1300, hi: 1450 });
  });

  it('copes with no data and with a single value', () => {
    expect(cdfDomain([])).toEqual({ lo: 0, hi: 1, ticks: [0, 1] });
    const one = cdfDomain([{ points: [{ v: 50 }] }]);
    expect(one.lo).toBeLessThan(50);
    expect(one.hi).toBeGreaterThan(50);
  });
});
