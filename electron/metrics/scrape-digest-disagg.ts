/**
 * The disaggregated-serving concepts of a scrape digest (prefill/decode queues, KV-transfer
 * counters and histogram; shared/metrics/profiles-disagg.ts), in one block beside the others.
 */
import type { Concepts } from '../../shared/metrics/concepts.ts';
import type { HistogramData } from '../../shared/metrics/prom-math.ts';
import type { DisaggHistogramConcept, DisaggScalarConcept } from '../../shared/metrics/profile-types.ts';

export type DisaggDigest<H> = { [K in DisaggScalarConcept]: number | null } & {
  [K in DisaggHistogramConcept]: H | null;
};

export function disaggDigest<H>(
  c: Concepts,
  fin: (v: number | null) => number | null,
  h: (d: HistogramData | null) => H | null,
): DisaggDigest<H> {
  return {
    prefillPreallocQueue: fin(c.prefillPreallocQueue),
    prefillInflightQueue: fin(c.prefillInflightQueue),
    decodePreallocQueue: fin(c.decodePreallocQueue),
    decodeTransferQueue: fin(c.decodeTransferQueue),
    kvTransferSecondsTotal: fin(c.kvTransferSecondsTotal),
    kvTransfersTotal: fin(c.kvTransfersTotal),
    kvTransferHistogram: h(c.kvTransferHistogram),
  };
}
