import { describe, expect, it } from 'vitest';
import type { RunSummary } from './run-types.ts';
import { compareRows, workloadDifferences } from './compare.ts';
import { summary } from './test-summary.ts';

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

  it('compares a value only known to a wide bucket as that bucket: no percentage, a verdict only when the buckets differ', () => {
    const rows = compareRows([
      run(297, [0, 300]),
      run(290, [0, 300]), // same bucket: "−2.4 %" would be invented precision
      run(450, [300, 500]), // narrow itself, but A is only known as (0, 300]: higher, by an unknown amount
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
    const rows = compareRows([run(297, [0, 300], 70, [60, 80]), run(297, [0, 300], 88, [80, 100])]);
    const ttft = rows.find((r) => r.def.id === 'srv-ttft-p99')!;
    expect(ttft.ranges).toEqual([null, null]);
    expect(ttft.byBucket).toEqual([false, false]);
    expect(ttft.rel[1]).toBeCloseTo(18 / 70, 12);
    expect(ttft.verdict).toEqual([null, 'worse']);
    expect(ttft.buckets).toEqual([
      [60, 80],
      [80, 100],
    ]);
    // Two p99s interpolated in the same (60, 80] bucket: not "+10 %", the same bucket.
    const same = compareRows([run(297, [0, 300], 70, [60, 80]), run(297, [0, 300], 77, [60, 80])]);
    expect(same.find((r) => r.def.id === 'srv-ttft-p99')).toMatchObject({
      byBucket: [false, true],
      rel: [null, null],
      verdict: [null, 'same'],
    });
    // Narrow (60, 80] against wide (0, 300]: they overlap, so neither is known to be lower.
    const mixed = compareRows([run(297, [0, 300], 70, [60, 80]), run(297, [0, 300], 150, [0, 300])]);
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
