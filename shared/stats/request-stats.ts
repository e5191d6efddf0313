/**
 * Per-request measurements, one source of truth (docs/ARCHITECTURE.md "Measurement definitions").
 *
 * - TTFT: arrival of the first event carrying at least one generated token — of any kind, reasoning
 *   included: reasoning tokens are generated tokens, and vLLM's client (the first chunk with
 *   `choices`, whatever its delta carries) and AIPerf (first content response, text or reasoning)
 *   count them so (test-corpus/METRIC-DEFINITIONS.md §4.1). An event with only a role or empty text
 *   does not count; its time is kept as `firstEventMs`, so a server that sends an early empty chunk
 *   is visible rather than hidden. The answer's first token (TTFAT) and the reasoning/answer token
 *   split are in reasoning-stats.ts.
 * - ITL per chunk: gaps between consecutive content events — vLLM `bench serve`'s definition
 *   (benchmarks/backend_request_func.py appends `timestamp - most_recent_timestamp` per chunk).
 * - ITL per token: each gap divided by the tokens of the later event, counted once per token —
 *   stays right when a server sends several tokens per event (stream interval, speculative decoding).
 * - TPOT: (E2E − TTFT) / (output tokens − 1); 0 for single-token outputs (vLLM's definition).
 * - E2E: end of stream − start.
 *
 * Coalesced gaps. When the client reads late, several events arrive in one socket read and all get
 * that read's timestamp (EV_COALESCED). A gap between two content events of the same read is then
 * ~0 ms by construction: it says nothing about the server. `itlChunkMs` / `itlTokenMs` keep them
 * (vLLM's client records them too, and vLLM's keys are computed from them); `coalescedGaps` counts
 * them, and the `…MeasuredMs` lists leave them out — Tokenscope's own ITL:
 * - Same read: both content events are flagged EV_COALESCED and carry the same time. (Only flags
 *   and times are used, not the `read` column, so a run file's line — which keeps t, tok and f —
 *   gives the same numbers as the live record.)
 * - `itlChunkMeasuredMs`: the chunk gaps minus the coalesced ones, i.e. one gap per read that
 *   carries content: from the previous read's last content event to this read.
 * - `itlTokenMeasuredMs`: the events of one read are one measured arrival. A read carrying content
 *   events with K tokens in all (each event counted as at least 1, as above), after a measured gap
 *   g, contributes K values of g / K — the gap spread over every token of the read. Without
 *   per-event counts (usage total or estimated) every later content event stands for w tokens (as
 *   above), and a read of m such events contributes m values of g / (m·w): weighted per event,
 *   i.e. per token up to the constant w, as `itlTokenMs` is. The content events that share the read
 *   of the first token have no measured gap behind them (their time is inside TTFT) and contribute
 *   nothing. With no coalesced gap both lists equal `itlChunkMs` / `itlTokenMs`.
 */
import { EV_CONTENT, EV_COALESCED, EV_TOKENS_EXACT, type TokenSource } from '../request.ts';
import type { RequestRecord } from '../record.ts';
import { reasoningSplit, type KnownReasoningTokens } from './reasoning-stats.ts';
import { usageTokensDoubt } from './token-bounds.ts';

/**
 * The per-token lists hold one value per token of each gap's event, up to this many values in a
 * request: past it (counts no real stream reaches) each gap keeps a share of copies in proportion
 * to its tokens, at least one, so no count from a server or a file sizes an allocation.
 * @internal exported for its tests
 */
export const MAX_PER_TOKEN_VALUES = 1 << 20;

export interface RequestStats {
  /** First event of any kind (TTFB-like, includes role-only/empty chunks). */
  firstEventMs: number | null;
  ttftMs: number | null;
  /** First reasoning token (reasoning-stats.ts); null without reasoning. */
  firstReasoningMs: number | null;
  /** Time to first answer token, TTFAT (reasoning-stats.ts): = TTFT without reasoning. */
  firstAnswerMs: number | null;
  e2eMs: number | null;
  outputTokens: number;
  /** Of outputTokens, the reasoning ones and the answer's; null when the request had no reasoning. */
  reasoningTokens: number | null;
  answerTokens: number | null;
  /** The reasoning/answer split is the server's (else estimated with the shared tokenizer). */
  reasoningTokensExact: boolean;
  tokenSource: TokenSource;
  /**
   * Why the server's total (usage) was not believed — more than max_tokens allows or than what
   * arrived could carry (token-bounds.ts) — and the events' count was taken instead; null: believed
   * or none given.
   */
  tokenDoubt: string | null;
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
  /** Gaps between consecutive content events, every one (vLLM's definition). */
  itlChunkMs: number[];
  /** Per token, from every gap (see the header). */
  itlTokenMs: number[];
  /** Chunk gaps whose later event came in the same socket read as the earlier one (≈0 ms by construction). */
  coalescedGaps: number;
  /** `itlChunkMs` without the coalesced gaps: one measured gap per read carrying content (header). */
  itlChunkMeasuredMs: number[];
  /** Per token, the events of one read taken as one arrival (header): no coalesced gap in it. */
  itlTokenMeasuredMs: number[];
  tpotMs: number | null;
  /** Output tokens / E2E seconds. */
  tokensPerSecond: number | null;
  /** (Output tokens − 1) / (E2E − TTFT) seconds: the decode rate the user sees after the first token. */
  decodeTokensPerSecond: number | null;
  /** Longest gap between consecutive content events. */
  maxGapMs: number | null;
}

/** `known`: a reasoning/answer split kept already (a run-file line's; reasoning-stats.ts). */
export function computeRequestStats(r: RequestRecord, known?: KnownReasoningTokens): RequestStats {
  const scan = scanEvents(r.events);
  const { firstEventMs, ttftMs, contentEvents, itlChunk, coalescedGaps } = scan;
  const { tokenSource, outputTokens, tokenDoubt } = outputTokensOf(scan, r);

  // Per-event counts unknown: spread the tokens after the first event evenly over the later
  // events (w tokens each). With equal weights the per-token distribution is gap / w.
  const w = contentEvents > 1 ? Math.max(1, outputTokens - 1) / (contentEvents - 1) : 1;
  const perEvent = tokenSource === 'per-event';
  const itlToken = perTokenGaps(scan, perEvent, w);
  const measured = measuredGaps(scan, itlToken, perEvent, w);

  const e2eMs = r.phases.endMs;
  let tpotMs: number | null = null;
  if (ttftMs !== null && e2eMs !== null)
    tpotMs = outputTokens > 1 ? (e2eMs - ttftMs) / (outputTokens - 1) : 0;
  let maxGap: number | null = null;
  for (const g of itlChunk) if (maxGap === null || g > maxGap) maxGap = g;
  // A usage not believed is not believed for its reasoning part either.
  const view = tokenDoubt === null ? r : { ...r, usage: null };
  const split = reasoningSplit(view, outputTokens, tokenSource !== 'estimated', known);

  return {
    firstEventMs,
    ttftMs,
    firstReasoningMs: split.firstReasoningMs,
    firstAnswerMs: split.firstAnswerMs,
    e2eMs,
    outputTokens,
    reasoningTokens: split.reasoningTokens,
    answerTokens: split.answerTokens,
    reasoningTokensExact: split.reasoningTokensExact,
    tokenSource,
    tokenDoubt,
    tokensExact: tokenSource !== 'estimated',
    contentEvents,
    events: r.events.n,
    coalescedEvents: scan.coalesced,
    multiTokenEvents: scan.multi,
    itlChunkMs: itlChunk,
    itlTokenMs: itlToken,
    coalescedGaps,
    itlChunkMeasuredMs: measured.chunk,
    itlTokenMeasuredMs: measured.token,
    tpotMs,
    tokensPerSecond: e2eMs !== null && e2eMs > 0 && outputTokens > 0 ? outputTokens / (e2eMs / 1000) : null,
    decodeTokensPerSecond:
      ttftMs !== null && e2eMs !== null && e2eMs > ttftMs && outputTokens > 1
        ? (outputTokens - 1) / ((e2eMs - ttftMs) / 1000)
        : null,
    maxGapMs: maxGap,
  };
}

/** One pass over a request's events: first event, TTFT, content events and the gaps between them. */
interface EventScan {
  firstEventMs: number | null;
  ttftMs: number | null;
  contentEvents: number;
  /** Content events flagged EV_COALESCED. */
  coalesced: number;
  /** Content events carrying more than one token. */
  multi: number;
  /** Tokens the content events carried, and whether every count was the server's. */
  eventTokens: number;
  allExact: boolean;
  /** Gaps between consecutive content events, and the tokens of each gap's later event. */
  itlChunk: number[];
  contentTokens: number[];
  /** Per chunk gap: whether its later event shares the earlier one's read. */
  sameRead: boolean[];
  coalescedGaps: number;
}

function scanEvents(ev: RequestRecord['events']): EventScan {
  let firstEventMs: number | null = null;
  let ttftMs: number | null = null;
  let contentEvents = 0;
  let coalesced = 0;
  let multi = 0;
  let eventTokens = 0;
  let allExact = true;
  const itlChunk: number[] = [];
  const contentTokens: number[] = [];
  const sameRead: boolean[] = [];
  let coalescedGaps = 0;
  let prevT = -1;
  let prevF = 0;
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
      const same = (f & prevF & EV_COALESCED) !== 0 && t === prevT;
      sameRead.push(same);
      if (same) coalescedGaps++;
    }
    prevT = t;
    prevF = f;
  }
  return {
    firstEventMs,
    ttftMs,
    contentEvents,
    coalesced,
    multi,
    eventTokens,
    allExact,
    itlChunk,
    contentTokens,
    sameRead,
    coalescedGaps,
  };
}

/** The output token count, where it came from, and why the server's total was not taken. */
function outputTokensOf(
  scan: EventScan,
  r: RequestRecord,
): { tokenSource: TokenSource; outputTokens: number; tokenDoubt: string | null } {
  const usage = r.usage?.completionTokens ?? null;
  const tokenDoubt =
    usage === null
      ? null
      : usageTokensDoubt(usage, {
          maxTokens: r.maxTokens,
          bytes: r.bytes,
          hiddenTokens: r.usage?.reasoningTokens ?? null,
        });
  const usageTokens = tokenDoubt === null ? usage : null;
  // Token source: never mix silently. Per-event only if every content event was exact.
  let tokenSource: TokenSource;
  let outputTokens: number;
  if (scan.contentEvents > 0 && scan.allExact) {
    tokenSource = 'per-event';
    outputTokens = scan.eventTokens;
  } else if (usageTokens !== null) {
    tokenSource = 'usage-total';
    outputTokens = usageTokens;
  } else {
    tokenSource = 'estimated';
    outputTokens = scan.eventTokens;
  }
  if (tokenSource === 'per-event' && usageTokens !== null && usageTokens > outputTokens) {
    // The final usage knows of tokens no event carried (e.g. a last token sent with no text):
    // the total is the server's, per-event counts stay as they came.
    outputTokens = usageTokens;
  }
  return { tokenSource, outputTokens, tokenDoubt };
}

/**
 * How many copies of a gap's per-token value go into a per-token list: its tokens, scaled down
 * when the request's tokens exceed MAX_PER_TOKEN_VALUES (at least one copy per gap).
 */
function copiesOf(k: number, scale: number): number {
  return scale >= 1 ? k : Math.max(1, Math.round(k * scale));
}

function scaleFor(totalTokens: number): number {
  return totalTokens > MAX_PER_TOKEN_VALUES ? MAX_PER_TOKEN_VALUES / totalTokens : 1;
}

/** ITL per token from every chunk gap: each gap over its event's tokens, or over w tokens (header). */
function perTokenGaps(scan: EventScan, perEvent: boolean, w: number): number[] {
  const { itlChunk, contentTokens } = scan;
  const itlToken: number[] = [];
  if (perEvent) {
    let total = 0;
    for (let j = 0; j < itlChunk.length; j++) total += Math.max(1, contentTokens[j]!);
    const scale = scaleFor(total);
    for (let j = 0; j < itlChunk.length; j++) {
      const k = Math.max(1, contentTokens[j]!);
      const per = itlChunk[j]! / k;
      const c = copiesOf(k, scale);
      for (let m = 0; m < c; m++) itlToken.push(per);
    }
  } else if (scan.contentEvents > 1) {
    for (const g of itlChunk) itlToken.push(g / w);
  }
  return itlToken;
}

/**
 * Tokenscope's own lists: one measured arrival per read (header). Gap j's later event opens a
 * read when it does not share the earlier one's; the read's events are j and the same-read gaps
 * right after it.
 */
function measuredGaps(
  scan: EventScan,
  itlToken: number[],
  perEvent: boolean,
  w: number,
): { chunk: number[]; token: number[] } {
  const { itlChunk, contentTokens, sameRead } = scan;
  if (scan.coalescedGaps === 0) return { chunk: itlChunk.slice(), token: itlToken.slice() };
  const chunk: number[] = [];
  const token: number[] = [];
  let total = 0;
  if (perEvent) for (let j = 0; j < itlChunk.length; j++) total += Math.max(1, contentTokens[j]!);
  const scale = scaleFor(total);
  for (let j = 0; j < itlChunk.length;) {
    let e = j + 1;
    while (e < itlChunk.length && sameRead[e]) e++;
    if (sameRead[j]) {
      j = e; // events sharing the first token's read: no measured gap behind them
      continue;
    }
    const g = itlChunk[j]!;
    chunk.push(g);
    if (perEvent) {
      let k = 0;
      for (let m = j; m < e; m++) k += Math.max(1, contentTokens[m]!);
      const c = copiesOf(k, scale);
      for (let m = 0; m < c; m++) token.push(g / k);
    } else {
      const per = g / ((e - j) * w);
      for (let m = j; m < e; m++) token.push(per);
    }
    j = e;
  }
  return { chunk, token };
}
