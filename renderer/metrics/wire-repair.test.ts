import { describe, expect, it } from 'vitest';
import { encodeWire, decodeWire } from '../../shared/wire.ts';
import { histogramQuantile } from '../../shared/metrics/prom-math.ts';
import type { MetricsScrape } from '../../shared/metrics-api.ts';
import { scrape, ttftHist } from './test-fixtures.ts';
import { repairScrape } from './wire-repair.ts';

describe('repairScrape', () => {
  const original = scrape({
    t: 1,
    concepts: { ttftHistogram: ttftHist([0, 1, 3, 3, 3], 0.4), requestsRunning: null },
    explorer: [
      {
        key: 'h',
        family: 'h',
        type: 'histogram',
        labels: '',
        value: 3,
        sum: NaN,
        buckets: [
          { le: 0.1, count: 1 },
          { le: Infinity, count: 3 },
        ],
      },
      { key: 'g', family: 'g', type: 'gauge', labels: '', value: NaN },
    ],
  });

  it('gives back the +Inf bound and NaN values that a JSON round trip turned into null', () => {
    const sent = decodeWire(encodeWire(original)) as MetricsScrape;
    // What arrives over the socket: +Inf is gone, so no quantile can be computed.
    expect(sent.concepts.ttftHistogram!.buckets[4]!.le).toBeNull();
    expect(histogramQuantile(0.5, sent.concepts.ttftHistogram!.buckets)).toBeNaN();
    const fixed = repairScrape(sent);
    expect(fixed.concepts.ttftHistogram).toEqual(original.concepts.ttftHistogram);
    expect(histogramQuantile(0.5, fixed.concepts.ttftHistogram!.buckets)).toBeCloseTo(0.1375, 12);
    expect(fixed.concepts.requestsRunning).toBeNull();
    expect(fixed.explorer[0]!.buckets![1]!.le).toBe(Infinity);
    expect(fixed.explorer[0]!.sum).toBeNaN();
    expect(fixed.explorer[1]!.value).toBeNaN();
  });

  it('leaves intact data (Electron IPC) as it is', () => {
    const fixed = repairScrape(original);
    expect(fixed.concepts.ttftHistogram).toBe(original.concepts.ttftHistogram);
    expect(fixed.explorer[1]).toBe(original.explorer[1]);
  });
});
