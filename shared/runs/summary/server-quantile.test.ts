import { describe, expect, it } from 'vitest';
import type { ServerHistogramStats } from './server-side-schema.ts';
import { bucketText, compareBuckets, serverQuantileRange, wideBucket } from './server-quantile.ts';

describe('server quantile buckets', () => {
  it('calls a bucket wide when it spans more than half its upper bound, or is open', () => {
    expect(wideBucket([0, 300], 150)).toEqual([0, 300]);
    // vLLM's factor-2 E2E bucket: a p99 of 4583 ms there may truly be 2.61 s (the case).
    expect(wideBucket([2500, 5000], 4583)).toEqual([2500, 5000]);
    expect(wideBucket([5000, 10_000], 9950)).toEqual([5000, 10_000]);
    expect(wideBucket([80, 100], 90)).toBeNull(); // 20 ms wide at 90 ms: under a quarter
    expect(wideBucket([100, 125], 100)).toBeNull(); // exactly a quarter: the value is kept
    expect(wideBucket([100, 126], 100)).toEqual([100, 126]);
    expect(wideBucket([10_000, null], 20_000)).toEqual([10_000, null]);
    expect(wideBucket(null, 5)).toBeNull();
    expect(wideBucket(undefined, 5)).toBeNull();
  });

  it('reads the wide bucket of a quantile, none when the quantile is missing', () => {
    const h: ServerHistogramStats = {
      count: 3,
      mean: 1,
      p50: 150,
      p90: 200,
      p99: 90,
      p50Bucket: [0, 300],
      p99Bucket: [80, 100],
    };
    expect(serverQuantileRange(h, 'p50')).toEqual([0, 300]);
    expect(serverQuantileRange(h, 'p99')).toBeNull();
    // The same bucket is wide next to a smaller value interpolated in it.
    expect(serverQuantileRange({ ...h, p99: 81 }, 'p99')).toBeNull();
    expect(serverQuantileRange({ ...h, p99Bucket: [60, 80], p99: 70 }, 'p99')).toEqual([60, 80]);
    expect(serverQuantileRange({ ...h, p50: null, p50Bucket: [0, 300], p99Bucket: null }, 'p50')).toBeNull();
    expect(serverQuantileRange(null, 'p99')).toBeNull();
  });

  it('writes buckets in ms without noise digits', () => {
    expect(bucketText([0, 300])).toBe('0–300');
    expect(bucketText([2.5, 5])).toBe('2.5–5');
    expect(bucketText([10_000, null])).toBe('> 10000');
  });

  it('orders buckets only when they do not overlap', () => {
    expect(compareBuckets([0, 300], [0, 300])).toBe('same');
    expect(compareBuckets([300, 600], [0, 300])).toBe('lower');
    expect(compareBuckets([0, 300], [300, 600])).toBe('higher');
    expect(compareBuckets([0, 300], [60, 80])).toBeNull();
    expect(compareBuckets([10_000, null], [10_000, null])).toBe('same');
    expect(compareBuckets([300, 600], [10_000, null])).toBe('higher');
    expect(compareBuckets([70, 70], [0, 300])).toBeNull(); // a point inside a bucket
  });
});
