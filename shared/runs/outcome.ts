/**
 * From a run file's request line to what it contributes to the summary. The per-request numbers
 * always come from the one definition, shared/stats/request-stats.ts `computeRequestStats`, run on
 * the line's event columns — live, at the end of a run and when a file is reopened alike, so a
 * reopened run gives the same summary to the last digit.
 */
import type { RequestRecord } from '../record.ts';
import { EV_CONTENT } from '../request.ts';
import { computeRequestStats, type RequestStats } from '../stats/request-stats.ts';
import type { RequestOutcome, RunRequestLine } from './run-types.ts';

/** A RequestRecord view of a run line (what computeRequestStats reads: events, usage, phases). */
export function recordOfLine(line: RunRequestLine): RequestRecord {
  const n = line.events.t.length;
  return {
    id: line.id,
    url: '',
    dialect: 'openai-chat',
    model: '',
    startedAtWall: 0,
    phases: line.phases,
    status: line.httpStatus,
    contentType: null,
    serverRequestId: line.serverRequestId,
    events: {
      n,
      t: Float64Array.from(line.events.t),
      tokens: Uint32Array.from(line.events.tok),
      read: new Uint32Array(n),
      flags: Uint16Array.from(line.events.f),
      text: new Array<string>(n).fill(''),
      size: new Uint32Array(n),
    },
    raw: null,
    text: '',
    reasoning: '',
    finishReason: line.finishReason,
    usage: line.usage,
    tokenSource: line.tokenSource,
    maxTokens: line.expectedOutputTokens,
    bytes: line.bytes,
    reads: 0,
    terminated: line.terminated,
    error: line.error ? { ...line.error } : null,
  };
}

/** The line's stats; its reasoning/answer split as the line kept it (the text is not in the line). */
export function statsOfLine(line: RunRequestLine): RequestStats {
  const known =
    line.reasoningTokens !== undefined
      ? { reasoningTokens: line.reasoningTokens, exact: line.reasoningTokensExact ?? false }
      : undefined;
  return computeRequestStats(recordOfLine(line), known);
}

/**
 * `stats`: the line's stats when the caller already has them (record-line.ts
 * `recordToLineWithStats` computes them on the same rounded columns), so they are not computed twice.
 */
export function outcomeOfLine(line: RunRequestLine, stats: RequestStats = statsOfLine(line)): RequestOutcome {
  return {
    ok: line.status === 'ok',
    startMs: line.startedMs,
    queueMs: line.queueMs,
    firstEventMs: stats.firstEventMs,
    ttftMs: stats.ttftMs,
    e2eMs: stats.e2eMs,
    tpotMs: stats.tpotMs,
    itlChunkMs: stats.itlChunkMs,
    itlTokenMs: stats.itlTokenMs,
    itlChunkMeasuredMs: stats.itlChunkMeasuredMs,
    itlTokenMeasuredMs: stats.itlTokenMeasuredMs,
    coalescedGaps: stats.coalescedGaps,
    contentEvents: contentEventsOf(line),
    outputTokens: stats.outputTokens,
    ...(stats.reasoningTokens !== null
      ? {
          ttfatMs: stats.firstAnswerMs,
          reasoningTokens: stats.reasoningTokens,
          answerTokens: stats.answerTokens ?? 0,
          reasoningTokensExact: stats.reasoningTokensExact,
        }
      : {}),
    inputTokens: line.inputTokens,
    tokenSource: stats.tokenSource,
    ...(stats.tokenDoubt !== null ? { tokenDoubt: stats.tokenDoubt } : {}),
    inputTokensSource: line.inputTokensSource,
    errorKind: line.error?.kind ?? null,
    errorCode: line.error?.code ?? null,
    errorMessage: line.error?.message ?? null,
  };
}

/** The line's content events as (time, tokens), for a peak counted in tokens. */
function contentEventsOf(line: RunRequestLine): { t: number[]; tok: number[] } {
  const { t, tok, f } = line.events;
  const ct: number[] = [];
  const ck: number[] = [];
  for (let i = 0; i < t.length; i++)
    if ((f[i]! & EV_CONTENT) !== 0) {
      ct.push(t[i]!);
      ck.push(tok[i]!);
    }
  return { t: ct, tok: ck };
}

/** A request that contributes nothing but its success or failure: no times, no tokens. */
export function blankOutcome(ok: boolean): RequestOutcome {
  return {
    ok,
    startMs: null,
    queueMs: null,
    firstEventMs: null,
    ttftMs: null,
    e2eMs: null,
    tpotMs: null,
    itlChunkMs: [],
    itlTokenMs: null,
    outputTokens: 0,
    inputTokens: null,
    tokenSource: null,
    inputTokensSource: null,
    errorKind: null,
    errorCode: null,
  };
}

/** The user's cancel stopped it: not a server failure, left out of the numbers. */
export function isCancelledLine(line: RunRequestLine): boolean {
  return line.error?.kind === 'client' && line.error.code === 'cancelled';
}

/** When the request finished, ms since run start. */
export function finishedMs(line: RunRequestLine): number {
  return line.startedMs + (line.phases.endMs ?? 0);
}
