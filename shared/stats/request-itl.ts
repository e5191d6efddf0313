/**
 * One request's ITL as every surface shows it — the stream debugger's statistics and side-by-side
 * comparison, `tokenscope probe` (text, `--json`, the two-URL table): Tokenscope's ITL, coalesced
 * gaps left out (request-stats.ts, docs/numbers.md), with vLLM's every-gap
 * figures beside it for whoever shows them too, labelled as such. One function, so the app and the
 * terminal cannot drift apart again (a probe of llama.cpp printed p50 0.00 ms from coalesced gaps
 * while the debugger showed 0.31 ms).
 */
import type { RequestStats } from './request-stats.ts';
import { summarize, type Summary } from './summary.ts';

export interface RequestItl {
  /** Tokenscope's ITL per chunk: one measured gap per read carrying content. */
  chunk: Summary | null;
  /** Tokenscope's ITL per token: each read's tokens as one arrival. */
  token: Summary | null;
  /** vLLM's ITL per chunk: every gap, coalesced ones (~0 ms by construction) included. */
  everyGapChunk: Summary | null;
  /** vLLM's ITL per token, from every gap. */
  everyGapToken: Summary | null;
  /** Gaps left out of Tokenscope's ITL, of all chunk gaps. */
  coalescedGaps: number;
  totalGaps: number;
}

const cache = new WeakMap<RequestStats, RequestItl>();

export function requestItl(s: RequestStats): RequestItl {
  let r = cache.get(s);
  if (r) return r;
  r = {
    chunk: summarize(s.itlChunkMeasuredMs),
    token: summarize(s.itlTokenMeasuredMs),
    everyGapChunk: summarize(s.itlChunkMs),
    everyGapToken: summarize(s.itlTokenMs),
    coalescedGaps: s.coalescedGaps,
    totalGaps: s.itlChunkMs.length,
  };
  cache.set(s, r);
  return r;
}

/** "0.9 %", "0.04 %", "0 %", "100 %": enough digits that a small share does not read as zero. @internal exported for its tests */
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
