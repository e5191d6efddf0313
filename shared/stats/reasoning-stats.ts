/**
 * A request's reasoning phase apart from its answer: when each began and how many tokens each
 * took. Part of the per-request definitions (request-stats.ts), kept here so that file stays one
 * concern.
 *
 * - First reasoning token: the first content event flagged EV_REASONING (reasoning, no answer).
 * - First answer token (TTFAT): the first content event not flagged EV_REASONING — answer text or
 *   a tool call. AIPerf calls it TTFO (time to first output token), guidellm TTFOT
 *   (test-corpus/METRIC-DEFINITIONS.md §4.1). TTFT stays the first generated token of any kind,
 *   reasoning included, as vLLM's client and AIPerf count it; without reasoning TTFAT = TTFT.
 * - Token counts, in this order of trust:
 *   1. the server's `reasoning_tokens` in usage (part of completion tokens): exact when the output
 *      total is the server's;
 *   2. per-event counts the server gave for every content event (vLLM continuous usage): exact;
 *   3. else estimated: the output total split in the ratio of the shared tokenizer's counts of the
 *      reasoning and answer texts (shared/tokenizer.ts) — of the events' counts where the text was
 *      not kept (a run-file line keeps its split instead: record-line.ts). The two always add up to
 *      the output tokens.
 */
import { EV_CONTENT, EV_REASONING, EV_TOKENS_EXACT } from '../request.ts';
import type { RequestRecord } from '../record.ts';
import { countTextTokens } from '../tokenizer.ts';

export interface ReasoningSplit {
  /** First content event that carried reasoning and no answer; null without reasoning. */
  firstReasoningMs: number | null;
  /** First content event of the answer (TTFAT); null when the answer never began. */
  firstAnswerMs: number | null;
  /** Reasoning tokens; null when the request had no reasoning. */
  reasoningTokens: number | null;
  /** Output tokens − reasoning tokens; null when the request had no reasoning. */
  answerTokens: number | null;
  /** The split came from the server (usage or per-event counts), not the tokenizer. */
  reasoningTokensExact: boolean;
}

/** A split known already (a run-file line keeps the one computed from the live record's text). */
export interface KnownReasoningTokens {
  reasoningTokens: number;
  exact: boolean;
}

export function reasoningSplit(
  r: RequestRecord,
  outputTokens: number,
  outputExact: boolean,
  known?: KnownReasoningTokens,
): ReasoningSplit {
  const ev = r.events;
  let firstReasoningMs: number | null = null;
  let firstAnswerMs: number | null = null;
  let rTok = 0;
  let aTok = 0;
  let allExact = true;
  for (let i = 0; i < ev.n; i++) {
    const f = ev.flags[i]!;
    if ((f & EV_CONTENT) === 0) continue;
    if ((f & EV_TOKENS_EXACT) === 0) allExact = false;
    if ((f & EV_REASONING) !== 0) {
      firstReasoningMs ??= ev.t[i]!;
      rTok += ev.tokens[i]!;
    } else {
      firstAnswerMs ??= ev.t[i]!;
      aTok += ev.tokens[i]!;
    }
  }
  const usageReasoning = r.usage?.reasoningTokens ?? null;
  const had = firstReasoningMs !== null || (usageReasoning ?? 0) > 0 || (known?.reasoningTokens ?? 0) > 0;
  const none = { firstReasoningMs, firstAnswerMs, reasoningTokens: null, answerTokens: null };
  if (!had) return { ...none, reasoningTokensExact: false };
  let reasoning: number;
  let exact: boolean;
  if (known) {
    reasoning = known.reasoningTokens;
    exact = known.exact;
  } else if (usageReasoning !== null) {
    reasoning = usageReasoning;
    exact = outputExact;
  } else if (allExact && outputExact) {
    reasoning = rTok;
    exact = true;
  } else {
    const rEst = r.reasoning ? countTextTokens(r.reasoning) : rTok;
    // A tool-call answer has no text: its events stand for it.
    const aEst = r.reasoning ? countTextTokens(r.text) || aTok : aTok;
    reasoning = rEst + aEst > 0 ? Math.round((outputTokens * rEst) / (rEst + aEst)) : 0;
    exact = false;
  }
  reasoning = Math.min(Math.max(0, reasoning), outputTokens);
  return {
    firstReasoningMs,
    firstAnswerMs,
    reasoningTokens: reasoning,
    answerTokens: outputTokens - reasoning,
    reasoningTokensExact: exact,
  };
}
