/** Comparison rows of speculative decoding: values from each run's server, absent (not 0) without. */
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../summary/schema.ts';
import type { SpecDecodeSummary } from '../summary/spec-decode-schema.ts';
import { compareRows } from './compare.ts';
import { compareCell } from './export.ts';
import { summary } from '../../testing/test-summary.ts';

const withSpec = (specDecode: SpecDecodeSummary | null) =>
  ({
    ...summary({ tput: 1, ttft: [1, 2] }),
    server: {
      ttft: null,
      queueTime: null,
      peak: { running: 4, waiting: 0, kvCacheUsage: 0.1 },
      delta: { generationTokens: 100, promptTokens: 10, preemptions: 0 },
      specDecode,
    },
  }) as unknown as RunSummary;

const sd = (rate: number, length: number): SpecDecodeSummary => ({
  source: 'counters',
  drafts: 100,
  draftTokens: 300,
  acceptedTokens: rate * 300,
  acceptanceRate: rate,
  meanAcceptanceLength: length,
  perPosition: [0.7, 0.5, 0.3],
  scrapes: 5,
});

describe('speculative-decoding comparison rows', () => {
  it('compare acceptance rate (points) and mean acceptance length, higher being better', () => {
    const rows = compareRows([withSpec(sd(0.5, 2.5)), withSpec(sd(0.6, 2.8))]);
    const by = new Map(rows.map((r) => [r.def.id, r]));
    expect(by.get('spec-accept-rate')?.values).toEqual([50, 60]);
    expect(by.get('spec-accept-rate')?.verdict[1]).toBe('better');
    expect(by.get('spec-accept-length')?.values).toEqual([2.5, 2.8]);
    expect(by.get('spec-accept-rate')?.def.group).toBe('Speculative decoding');
  });

  it('a side whose server exposes none has no value, not 0; none on any side: no rows', () => {
    const rows = compareRows([withSpec(sd(0.5, 2.5)), withSpec(null)]);
    const rate = rows.find((r) => r.def.id === 'spec-accept-rate')!;
    expect(rate.values).toEqual([50, null]);
    expect(compareCell(rate, 1)).not.toMatch(/^0/);
    expect(compareRows([withSpec(null), withSpec(null)]).some((r) => r.def.id.startsWith('spec-'))).toBe(
      false,
    );
  });
});
