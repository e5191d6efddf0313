/**
 * A comparison's speculative-decoding rows, from each run's `server.specDecode` (the server's own
 * counters over the run: docs/metrics.md "Speculative decoding"). A run whose server exposes none
 * has no value (shown as absent, never 0); with none on any side the rows are left out.
 */
import type { CompareRowDef } from './rows.ts';

const num = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

export const SPEC_DECODE_ROWS: readonly CompareRowDef[] = [
  {
    id: 'spec-accept-rate',
    label: 'Draft acceptance rate',
    unit: '%',
    change: 'absolute',
    better: 'higher',
    group: 'Speculative decoding',
    get: (s) => {
      const v = num(s.server?.specDecode?.acceptanceRate);
      return v === null ? null : v * 100;
    },
  },
  {
    id: 'spec-accept-length',
    label: 'Mean acceptance length (tokens/step)',
    unit: 'count',
    better: 'higher',
    get: (s) => num(s.server?.specDecode?.meanAcceptanceLength),
  },
];
