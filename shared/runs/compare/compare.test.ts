import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../summary/schema.ts';
import { outcomesFromCounts } from './bootstrap.ts';
import { compareRows, failureBanner, workloadDifferences } from './compare.ts';
import { compareIntervals } from './intervals.ts';
import { Rng } from '../../prng.ts';
import { computeRunSummary } from '../summary/summary.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import { summary } from '../../testing/test-summary.ts';

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
    // A baseline of 0 has no relative change. The counts carry no verdict: the failure rate, with
    // its interval, is the row that says whether requests failed more.
    expect(by.get('failed')!.rel).toEqual([null, null, null]);
    expect(by.get('completed')!.verdict).toEqual([null, null, null]);
    expect(by.get('failed')!.verdict).toEqual([null, null, null]);
    // The failure rate is compared in percentage points; where it differs (run C: 2 of 12 failed),
    // C's throughput and latency changes are marked unreliable, B's are not.
    expect(by.get('fail-rate')!.values[2]).toBeCloseTo((100 * 2) / 12, 12);
    expect(by.get('fail-rate')!.rel[2]).toBeCloseTo((100 * 2) / 12, 12);
    expect(by.get('fail-rate')!.verdict).toEqual([null, 'same', 'worse']);
    expect(by.get('out-tput')!.unreliable).toEqual([false, false, true]);
    expect(by.get('ttft-p99')!.unreliable).toEqual([false, false, true]);
    expect(by.get('fail-rate')!.unreliable).toEqual([false, false, false]);
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

describe('prefix-cache rows', () => {
  const stats = (median: number) => ({ mean: median, median, p90: median, p99: median, std: 0 }) as never;
  const cached = (ratio: number, hit: number, miss: number, serverRate: number | null): RunSummary =>
    ({
      ...summary({ tput: 1, ttft: [1, 2] }),
      prefixCache: {
        reported: 10,
        hitRequests: 8,
        cachedTokens: ratio * 1000,
        promptTokens: 1000,
        ratio,
        perRequestRatio: null,
        ttftHit: stats(hit),
        ttftMiss: stats(miss),
      },
      ...(serverRate === null
        ? {}
        : {
            server: {
              ttft: null,
              queueTime: null,
              peak: { running: 4, waiting: 0, kvCacheUsage: 0.5 },
              delta: { generationTokens: 100, promptTokens: 10, preemptions: 0 },
              prefixCache: { hitTokens: null, queryTokens: null, hitRate: serverRate, source: 'gauge' },
            },
          }),
    }) as unknown as RunSummary;

  it('compare the cached share, TTFT of hits and misses, the server rate, with no verdict (no interval for them)', () => {
    const rows = compareRows([cached(0.7, 40, 90, 0.68), cached(0.1, 45, 88, null)]);
    const by = new Map(rows.map((r) => [r.def.id, r]));
    expect(by.get('prefix-cached')!.values).toEqual([70, 10]);
    expect(by.get('prefix-cached')!.rel[1]).toBeCloseTo(-60, 9); // percentage points
    expect(by.get('prefix-cached')!.verdict).toEqual([null, null]);
    expect(by.get('prefix-ttft-hit')!.values).toEqual([40, 45]);
    expect(by.get('prefix-ttft-hit')!.rel[1]).toBeCloseTo(0.125, 12);
    expect(by.get('prefix-ttft-hit')!.verdict).toEqual([null, null]); // a subset: no interval, no verdict
    expect(by.get('prefix-ttft-miss')!.values).toEqual([90, 88]);
    // A side without the server's counters is absent, not 0.
    expect(by.get('srv-prefix-hit')!.values).toEqual([68, null]);
  });

  it('are left out when no run reported cached tokens', () => {
    const ids = compareRows([summary({ tput: 1, ttft: [1, 2] }), summary({ tput: 2, ttft: [1, 2] })]).map(
      (r) => r.def.id,
    );
    for (const id of [
      'prefix-cached',
      'prefix-hit-requests',
      'prefix-ttft-hit',
      'prefix-ttft-miss',
      'srv-prefix-hit',
    ])
      expect(ids).not.toContain(id);
  });
});

describe('server-side rows', () => {
  it('appear for runs that watched the server, with their own direction', () => {
    const withServer = (p99: number, kv: number) =>
      ({
        ...summary({ tput: 1, ttft: [1, 2] }),
        server: {
          ttft: { count: 10, mean: 5, p50: 5, p90: 8, p99 },
          queueTime: null,
          peak: { running: 4, waiting: 0, kvCacheUsage: kv },
          delta: { generationTokens: 100, promptTokens: 10, preemptions: 0 },
        },
      }) as unknown as RunSummary;
    const rows = compareRows([withServer(10, 0.2), withServer(20, 0.5)]);
    const by = new Map(rows.map((r) => [r.def.id, r]));
    expect(by.get('srv-ttft-p99')).toMatchObject({ values: [10, 20], verdict: [null, 'worse'] });
    expect(by.get('srv-kv-peak')).toMatchObject({ values: [20, 50], verdict: [null, null] });
    expect(by.get('srv-preempt')?.values).toEqual([0, 0]);
    expect(by.has('srv-queue-p99')).toBe(false); // neither run had it
    expect(
      compareRows([summary({ tput: 1, ttft: [1, 2] }), summary({ tput: 1, ttft: [1, 2] })]).some((r) =>
        r.def.id.startsWith('srv-'),
      ),
    ).toBe(false);
  });
});

describe('bucketed server quantiles', () => {
  type B = [number, number | null];
  const run = (queueP99: number, bucket: B, ttftP99 = 70, ttftBucket: B = [60, 80]) =>
    ({
      ...summary({ tput: 1, ttft: [1, 2] }),
      server: {
        ttft: {
          count: 10,
          mean: 60,
          p50: 60,
          p90: 65,
          p99: ttftP99,
          p50Bucket: [40, 60],
          p99Bucket: ttftBucket,
        },
        queueTime: {
          count: 10,
          mean: 1,
          p50: 150,
          p90: 270,
          p99: queueP99,
          p50Bucket: [0, 300],
          p99Bucket: bucket,
        },
        peak: { running: 4, waiting: 0, kvCacheUsage: 0.1 },
        delta: { generationTokens: 100, promptTokens: 10, preemptions: 0 },
      },
    }) as unknown as RunSummary;

  it('a factor-2 bucket is wide: a p99 of 4583 ms in 2.5–5 s is compared as that bucket, not as +36 %', () => {
    const e2e = (p99: number, b: B) =>
      ({
        ...summary({ tput: 1, ttft: [1, 2] }),
        server: {
          e2e: { count: 50, mean: 2000, p50: 1800, p90: 2400, p99, p50Bucket: [1500, 2000], p99Bucket: b },
          peak: { running: 4, waiting: 0, kvCacheUsage: null },
          delta: { generationTokens: null, promptTokens: null, preemptions: null },
        },
      }) as unknown as RunSummary;
    const rows = compareRows([e2e(3360, [2500, 5000]), e2e(4583, [2500, 5000])]);
    const r = rows.find((x) => x.def.id === 'srv-e2e-p99')!;
    expect(r.ranges).toEqual([
      [2500, 5000],
      [2500, 5000],
    ]);
    expect(r.rel).toEqual([null, null]);
    expect(r.verdict).toEqual([null, 'same']);
  });

  it('compares a value only known to a wide bucket as that bucket: no percentage, a verdict only when the buckets differ', () => {
    const rows = compareRows([
      run(297, [0, 300]),
      run(290, [0, 300]), // same bucket: "−2.4 %" would be invented precision
      run(450, [400, 500]), // narrow itself, but A is only known as (0, 300]: higher, by an unknown amount
      run(12_000, [10_000, null]),
    ]);
    const q = rows.find((r) => r.def.id === 'srv-queue-p99')!;
    expect(q.ranges).toEqual([[0, 300], [0, 300], null, [10_000, null]]);
    expect(q.rel).toEqual([null, null, null, null]);
    expect(q.verdict).toEqual([null, 'same', 'worse', 'worse']);
    // The p50 (0, 300] in every run: the same bucket each time.
    expect(rows.find((r) => r.def.id === 'srv-queue-p50')!.verdict).toEqual([null, 'same', 'same', 'same']);
  });

  it('keeps percentages between different narrow buckets; the same bucket is the same, whatever the interpolation', () => {
    // Narrow: each bucket is at most a quarter of the value in it.
    const rows = compareRows([run(297, [0, 300], 90, [80, 100]), run(297, [0, 300], 110, [100, 125])]);
    const ttft = rows.find((r) => r.def.id === 'srv-ttft-p99')!;
    expect(ttft.ranges).toEqual([null, null]);
    expect(ttft.byBucket).toEqual([false, false]);
    expect(ttft.rel[1]).toBeCloseTo(20 / 90, 12);
    expect(ttft.verdict).toEqual([null, 'worse']);
    expect(ttft.buckets).toEqual([
      [80, 100],
      [100, 125],
    ]);
    // Two p99s interpolated in the same (80, 100] bucket: not "+7.8 %", the same bucket.
    const same = compareRows([run(297, [0, 300], 90, [80, 100]), run(297, [0, 300], 97, [80, 100])]);
    expect(same.find((r) => r.def.id === 'srv-ttft-p99')).toMatchObject({
      byBucket: [false, true],
      rel: [null, null],
      verdict: [null, 'same'],
    });
    // Narrow (80, 100] against wide (0, 300]: they overlap, so neither is known to be lower.
    const mixed = compareRows([run(297, [0, 300], 90, [80, 100]), run(297, [0, 300], 150, [0, 300])]);
    expect(mixed.find((r) => r.def.id === 'srv-ttft-p99')).toMatchObject({
      ranges: [null, [0, 300]],
      rel: [null, null],
      verdict: [null, null],
    });
  });
});

describe('workloadDifferences', () => {
  it('names what differs between the workloads, nothing when they are the same', () => {
    const run = (outputLen: number, requests: number, maxConcurrency: number) =>
      ({
        header: {
          workload: {
            requests,
            prompts: {
              type: 'synthetic',
              inputLen: { type: 'fixed', value: 128 },
              outputLen: { type: 'uniform', min: outputLen, max: 2 * outputLen },
            },
          },
        },
        summary: { config: { maxConcurrency, requestRate: 'inf', numPrompts: requests } },
      }) as never;
    expect(workloadDifferences([run(64, 100, 8), run(64, 100, 8)])).toEqual([]);
    expect(workloadDifferences([run(64, 100, 8), run(128, 100, 16)])).toEqual([
      'output tokens 64–128 vs 128–256',
      'max concurrency 8 vs 16',
    ]);
    // An import without a workload: unknown is not a difference; a known one still is.
    const imported = {
      header: null,
      summary: { config: { maxConcurrency: 4, requestRate: 'inf', numPrompts: 100 } },
    } as never;
    expect(workloadDifferences([run(64, 100, 8), imported])).toEqual(['max concurrency 8 vs 4']);
  });
});

describe('confidence intervals', () => {
  /** A run of n requests whose latencies are `scale` times a common distribution; `failed` of them failed. */
  function simRun(seed: number, n: number, scale: number, failed = 0) {
    const rng = new Rng(seed, 'run');
    const outcomes: RequestOutcome[] = [];
    for (let i = 0; i < n; i++) {
      const level = 20 * scale * Math.exp(0.3 * rng.normal());
      const itl = Array.from({ length: 10 }, () => level * Math.exp(0.2 * rng.normal()));
      const ttft = 80 * scale * Math.exp(0.4 * rng.normal());
      const e2e = ttft + itl.reduce((a, b) => a + b, 0);
      outcomes.push({
        ...outcomesFromCounts(1, 0)[0]!,
        ok: i >= failed,
        ttftMs: ttft,
        e2eMs: e2e,
        tpotMs: (e2e - ttft) / 10,
        outputTokens: 11,
        itlChunkMs: itl,
      });
    }
    const summary = computeRunSummary({ outcomes, durationS: 10, config: {} as never });
    return { summary, outcomes };
  }

  it('a clear slowdown is worse with an interval around it; the same server again is not distinguishable', () => {
    const a = simRun(1, 400, 1);
    const again = simRun(2, 400, 1);
    const slower = simRun(3, 400, 1.25);
    const runs = [a, again, slower];
    const intervals = compareIntervals(runs, { replicates: 400 });
    const rows = compareRows(
      runs.map((r) => r.summary),
      intervals,
    );
    const by = new Map(rows.map((r) => [r.def.id, r]));
    for (const id of ['ttft-mean', 'tpot-p50', 'itl-p90', 'e2el-p99']) {
      const r = by.get(id)!;
      const [lo, hi] = r.ci[2]!;
      expect(lo, id).toBeLessThanOrEqual(r.rel[2]!);
      expect(hi, id).toBeGreaterThanOrEqual(r.rel[2]!);
      expect(lo, id).toBeGreaterThan(0.1);
      expect(r.verdict[2], id).toBe('worse');
    }
    // Another draw from the same population: not distinguishable on most rows (a 95 % interval
    // misses now and then, so not all), never the large changes of the slower run.
    const latency = rows.filter((r) => r.def.sample && r.def.id !== 'fail-rate');
    const unclear = latency.filter((r) => r.verdict[1] === 'unclear' || r.verdict[1] === 'same').length;
    expect(unclear / latency.length).toBeGreaterThan(0.7);
    // Throughputs have no per-request resample: no interval, the value decides.
    expect(by.get('out-tput')!.ci).toEqual([null, null, null]);
    // Seeded: the same runs give the same intervals.
    const again2 = compareIntervals(runs, { replicates: 400 });
    expect(again2.get('itl-p99')).toEqual(intervals.get('itl-p99'));
  });

  it('failure rates get an interval in percentage points, even for a run known only by its counts', () => {
    const a = simRun(1, 200, 1);
    const b = simRun(2, 200, 1, 82);
    const countsOnly = { summary: b.summary, outcomes: null };
    for (const other of [b, countsOnly]) {
      const intervals = compareIntervals([a, other], { replicates: 400 });
      const rows = compareRows([a.summary, other.summary], intervals);
      const fail = rows.find((r) => r.def.id === 'fail-rate')!;
      expect(fail.values).toEqual([0, 41]);
      expect(fail.rel[1]).toBe(41);
      expect(fail.ci[1]![0]).toBeGreaterThan(30);
      expect(fail.ci[1]![1]).toBeLessThan(50);
      expect(fail.verdict[1]).toBe('worse');
      expect(rows.find((r) => r.def.id === 'out-tput')!.unreliable[1]).toBe(true);
      expect(failureBanner([a.summary, other.summary], rows)).toBe(
        'Failure rates: A 0.0 % (0 of 200) · B 41.0 % (82 of 200) — B differs clearly from A: throughput and latency changes are unreliable (failed requests end early and unload the server).',
      );
    }
    // No failures anywhere: no banner.
    const rows = compareRows([a.summary, a.summary]);
    expect(failureBanner([a.summary, a.summary], rows)).toBeNull();
  });
});
