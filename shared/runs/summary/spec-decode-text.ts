/**
 * Speculative decoding in words and numbers, shared by the run summary's text (`run`, `summary`,
 * `report`'s text) and `tokenscope metrics`: acceptance rate, mean acceptance length (bonus token
 * included, as vLLM's), the per-position rates, and where the numbers come from.
 */
import type { SpecDecodeSummary } from './spec-decode-schema.ts';

export const SPEC_NOT_EXPOSED = 'not exposed by this server';

const pct = (v: number | null): string => (v === null ? '-' : (v * 100).toFixed(1));

/** Where the numbers come from, in a few words. */
function specDecodeSource(sd: SpecDecodeSummary): string {
  return sd.source === 'counters'
    ? `counters over ${sd.scrapes} scrapes`
    : `SGLang's gauges, mean of ${sd.scrapes} scrape${sd.scrapes === 1 ? '' : 's'}`;
}

/** Label/value pairs (a `row` function lays them out). */
export function specDecodeRows(sd: SpecDecodeSummary | null): [string, string][] {
  if (sd === null) return [['Speculative decoding:', SPEC_NOT_EXPOSED]];
  const out: [string, string][] = [
    ['Spec decode source:', specDecodeSource(sd)],
    ['Acceptance rate (%):', pct(sd.acceptanceRate)],
    [
      'Mean acceptance length:',
      sd.meanAcceptanceLength === null ? '- (no drafts in the window)' : sd.meanAcceptanceLength.toFixed(2),
    ],
  ];
  if (sd.perPosition) out.push(['Accepted by position (%):', sd.perPosition.map(pct).join(' / ')]);
  if (sd.drafts !== null)
    out.push([
      'Drafts / draft / accepted tokens:',
      `${sd.drafts} / ${sd.draftTokens ?? '-'} / ${sd.acceptedTokens ?? '-'}`,
    ]);
  return out;
}
