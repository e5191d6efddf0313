import { describe, expect, it } from 'vitest';
import { bucketText, compareBuckets, serverQuantileRange, wideBucket } from './server-quantile.ts';

describe('server quantile buckets', () => {
  it('calls a bucket wide when it spans more than half its upper bound, or is open', () => {
    expect(wideBucket([0, 300])).toEqual([0, 300]);
    expect(wideBucket([60, 80])).toBeNull();
    expect(wideBucket([100, 200])).toBeNull(); // exactly half: the interpolated value is kept
    expect(wideBucket([99, 200])).toEqual([99, 200]);
    expect(wideBucket([10_000, null])).toEqual([10_000, null]);
    expect(wideBucket(null)).toBeNull();
    expect(wideBucket(undefined)).toBeNull();
  });

  it('reads the wide bucket of a quantile, none when the quantile is missing', () => {
    const h = {
      count: 3,
      mean: 1,
      p50: 150,
      p90: 200,
      p99: 70,
      p50Bucket: [0, 300],
      p99Bucket: [60, 80],
    } as const;
    expect(serverQuantileRange({ ...h, p50Bucket: [0, 300], p99Bucket: [60, 80] }, 'p50')).toEqual([0, 300]);
    expect(serverQuantileRange({ ...h, p50Bucket: [0, 300], p99Bucket: [60, 80] }, 'p99')).toBeNull();
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
