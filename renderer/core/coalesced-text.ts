/**
 * Coalesced gaps in words, for the run summary, the live percentiles and the debugger's statistics:
 * gaps between content events one socket read carried together (~0 ms by construction,
 * shared/stats/request-stats.ts), left out of Tokenscope's ITL and kept in vLLM's.
 */

/** "0.9 %", "0.04 %", "0 %", "100 %": enough digits that a small share does not read as zero. */
export function sharePct(gaps: number, total: number): string {
  if (total <= 0 || gaps <= 0) return '0 %';
  const pct = (gaps / total) * 100;
  if (pct >= 99.95 && gaps < total) return '99.9 %';
  if (pct >= 0.1) return `${Number(pct.toFixed(1))} %`;
  return `${Number(pct.toPrecision(1))} %`;
}

/** "0.9 % (232 of 25,600)". */
export function coalescedShareText(gaps: number, total: number): string {
  return `${sharePct(gaps, total)} (${gaps.toLocaleString('en-US')} of ${total.toLocaleString('en-US')})`;
}

export const COALESCED_DEF =
  "Gaps between two content events that arrived in one socket read (the client read late, so both got the read's time and the gap is ~0 ms by construction: not a measurement of the server). Left out of Tokenscope's ITL per chunk and per token; vLLM's ITL keeps them, as vLLM's client records them too.";
