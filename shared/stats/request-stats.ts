/**
 * Per-request measurements, one source of truth (DESIGN.md "Measurement definitions").
 *
 * - TTFT: arrival of the first event carrying at least one generated token. An event with only a
 *   role or empty text does not count; its time is kept as `firstEventMs`, so a server that
 *   sends an early empty chunk is visible rather than hidden.
 * - ITL per chunk: gaps between consecutive content events — vLLM `bench serve`'s definition
 *   (benchmarks/backend_request_func.py appends `timestamp - most_recent_timestamp` per chunk).
 * - ITL per token: each gap divided by the tokens of the later event, counted once per token —
 *   stays right when a server sends several tokens per event (stream interval, speculative decoding).
 * - TPOT: (E2E − TTFT) / (output tokens − 1); 0 for single-token outputs (vLLM's definition).
 * - E2E: end of stream − start.
 */
import { EV_CONTENT, EV_COALESCED, EV_TOKENS_EXACT, type TokenSource } from '../request.ts';
import type { RequestRecord } from '../record.ts';

export interface RequestStats {
  /** First event of any kind (TTFB-like, includes role-only/empty chunks). */
  firstEventMs: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
  outputTokens: number;
  tokenSource: TokenSource;
  /** True when the output token count came from the server (per event or final usage). */
  tokensExact: boolean;
  /** Events that carried generated output. */
  contentEvents: number;
  /** All dispatched events. */
  events: number;
  /** Content events whose read carried other events too (their time is the read's). */
  coalescedEvents: number;
  /** Content events carrying more than one token. */
  multiTokenEvents: number;
  itlChunkMs: number[];
  itlTokenMs: number[];
  tpotMs: number | null;
  /** Output tokens / E2E seconds. */
  tokensPerSecond: number | null;
  /** (Output tokens − 1) / (E2E − TTFT) seconds: the decode rate the user sees after the first token. */
  decodeTokensPerSecond: number | null;
  /** Longest gap between consecutive content events. */
  maxGapMs: number | null;
}

export function computeRequestStats(r: RequestRecord): RequestStats {
  const ev = r.events;
  let firstEventMs: number | null = null;
  let ttftMs: number | null = null;
  let contentEvents = 0;
  let coalesced = 0;
  let multi = 0;
  let eventTokens = 0;
  let allExact = true;
  const itlChunk: number[] = [];
  const itlToken: number[] = [];
  const contentTokens: number[] = [];
  let prevT = -1;
  for (let i = 0; i < ev.n; i++) {
    const t = ev.t[i]!;
    const f = ev.flags[i]!;
    if (firstEventMs === null) firstEventMs = t;
    if ((f & EV_CONTENT) === 0) continue;
    const k = ev.tokens[i]!;
    contentEvents++;
    eventTokens += k;
    if ((f & EV_TOKENS_EXACT) === 0) allExact = false;
    if ((f & EV_COALESCED) !== 0) coalesced++;
    if (k > 1) multi++;
    if (ttftMs === null) ttftMs = t;
    else {
      const gap = t - prevT;
      itlChunk.push(gap);
      contentTokens.push(k);
    }
    prevT = t;
  }

  // Token source: never mix silently. Per-event only if every content event was exact.
  let tokenSource: TokenSource;
  let outputTokens: number;
  const usageTokens = r.usage?.completionTokens ?? null;
  if (contentEvents > 0 && allExact) {
    tokenSource = 'per-event';
    outputTokens = eventTokens;
  } else if (usageTokens !== null) {
    tokenSource = 'usage-total';
    outputTokens = usageTokens;
  } else {
    tokenSource = 'estimated';
    outputTokens = eventTokens;
  }
  if (tokenSource === 'per-event' && usageTokens !== null && usageTokens > outputTokens) {
    // The final usage knows of tokens no event carried (e.g. a last token sent with no text):
    // the total is the server's, per-event counts stay as they came.
    outputTokens = usageTokens;
  }

  if (tokenSource === 'per-event') {
    for (let j = 0; j < itlChunk.length; j++) {
      const k = Math.max(1, contentTokens[j]!);
      const per = itlChunk[j]! / k;
      for (let m = 0; m < k; m++) itlToken.push(per);
    }
  } else if (contentEvents > 1) {
    // Per-event counts unknown: spread the tokens after the first event evenly over the later
    // events (w tokens each). With equal weights the per-token distribution is gap / w.
    const w = Math.max(1, outputTokens - 1) / (contentEvents - 1);
    for (const g of itlChunk) itlToken.push(g / w);
  }

  const endMs = r.phases.endMs;
  const e2eMs = endMs;
  let tpotMs: number | null = null;
  if (ttftMs !== null && e2eMs !== null)
    tpotMs = outputTokens > 1 ? (e2eMs - ttftMs) / (outputTokens - 1) : 0;
  let maxGap: number | null = null;
  for (const g of itlChunk) if (maxGap === null || g > maxGap) maxGap = g;

  return {
    firstEventMs,
    ttftMs,
    e2eMs,
    outputTokens,
    tokenSource,
    tokensExact: tokenSource !== 'estimated',
    contentEvents,
    events: ev.n,
    coalescedEvents: coalesced,
    multiTokenEvents: multi,
    itlChunkMs: itlChunk,
    itlTokenMs: itlToken,
    tpotMs,
    tokensPerSecond: e2eMs !== null && e2eMs > 0 && outputTokens > 0 ? outputTokens / (e2eMs / 1000) : null,
    decodeTokensPerSecond:
      ttftMs !== null && e2eMs !== null && e2eMs > ttftMs && outputTokens > 1
        ? (outputTokens - 1) / ((e2eMs - ttftMs) / 1000)
        : null,
    maxGapMs: maxGap,
  };
}
