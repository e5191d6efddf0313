/**
 * From a run file's request line to what it contributes to the summary. The per-request numbers
 * always come from the one definition, shared/stats/request-stats.ts `computeRequestStats`, run on
 * the line's event columns — live, at the end of a run and when a file is reopened alike, so a
 * reopened run gives the same summary to the last digit.
 */
import type { ErrorKind } from '../../errors.ts';
import type { RequestRecord } from '../../record.ts';
import { EV_CONTENT, type TokenSource } from '../../request.ts';
import { computeRequestStats, type RequestStats } from '../../stats/request-stats.ts';
import type { RunRequestLine } from '../file/line-schema.ts';

/** A request's list of numbers: as computed (an array), or kept compactly (summary-accumulator.ts). */
export type Values = readonly number[] | Float64Array;

/** What one request contributes to a summary, whatever it came from (run line or imported arrays). */
export interface RequestOutcome {
  ok: boolean;
  /** Sent (the zero of its event times: outcome.ts requestOriginMs), ms since run start. null: imports. */
  startMs: number | null;
  queueMs: number | null;
  firstEventMs: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
  /** (E2E − TTFT)/(N − 1); 0 when N ≤ 1 (vLLM). */
  tpotMs: number | null;
  itlChunkMs: Values;
  /** null when unknown (imports have only chunk gaps). */
  itlTokenMs: Values | null;
  /**
   * Tokenscope's own ITL lists, coalesced gaps left out (shared/stats/request-stats.ts): what
   * `stats.itl` / `stats.itl_per_token` pool. Absent when unknown (imports): itlChunkMs / itlTokenMs
   * are used instead.
   */
  itlChunkMeasuredMs?: Values;
  itlTokenMeasuredMs?: Values | null;
  /** Chunk gaps whose later event shared the earlier one's socket read (in itlChunkMs only). Absent when unknown. */
  coalescedGaps?: number;
  /**
   * Content events as (ms since the request's start, tokens): a peak throughput in tokens
   * (Tokenscope's and AIPerf's definitions). The tokens add up to `outputTokens`; `exact` false when
   * they were spread over the events (no per-event counts from the server: outcome.ts
   * contentEventsOf). Absent for imports: their peak counts chunks.
   */
  contentEvents?: { t: Values; tok: Values | TokenSpread; exact?: boolean };
  outputTokens: number;
  /** outputTokens is the server's tokenizer count of the text (`tokenizedOutputTokens`), not its usage. */
  tokenizedByServer?: boolean;
  /**
   * Time to first answer token (shared/stats/reasoning-stats.ts), and the reasoning/answer split:
   * present only for requests that reasoned (absent: no reasoning, or unknown — imports).
   */
  ttfatMs?: number | null;
  reasoningTokens?: number;
  answerTokens?: number;
  reasoningTokensExact?: boolean;
  inputTokens: number | null;
  /** Prompt tokens the server said it took from its prefix cache (absent/null: it did not say). */
  cachedTokens?: number | null;
  tokenSource: TokenSource | null;
  /** Why the server's usage total was not believed (request-stats.ts `tokenDoubt`); absent: it was. */
  tokenDoubt?: string;
  inputTokensSource: 'usage' | 'estimated' | null;
  errorKind: ErrorKind | null;
  /** Any string: a file may come from a build with codes this one lacks. */
  errorCode: string | null;
  /** The error's message (a sample is kept per kind in the summary). */
  errorMessage?: string | null;
  /** Non-streaming dialects: the request's inputs and the vectors' length (batch.ts). Absent for streams. */
  batch?: { inputs: number; dimension: number | null };
  /** The model the request asked for (model-mix runs: the line's `model`); absent when it named none. */
  model?: string;
}

/** A RequestRecord view of a run line (what computeRequestStats reads: events, usage, phases). */
function recordOfLine(line: RunRequestLine): RequestRecord {
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
    usage: usageOfLine(line),
    tokenSource: line.tokenSource,
    maxTokens: line.expectedOutputTokens,
    bytes: line.bytes,
    reads: 0,
    terminated: line.terminated,
    // computeRequestStats reads no error, and a file's code may be one this build lacks (ErrorCode).
    error: null,
  };
}

/**
 * The usage the line's numbers count with: the stream's, or — where it gave no output count — the
 * server's tokenizer count of the text after the run (`tokenizedOutputTokens`): an exact total.
 * Not for a request that reasoned: the counted text is the answer's only (vLLM's generated_text).
 */
function usageOfLine(line: RunRequestLine): RunRequestLine['usage'] {
  const tk = line.tokenizedOutputTokens;
  if (tk === undefined || tk === 0 || line.reasoningLength > 0) return line.usage;
  if ((line.usage?.completionTokens ?? null) !== null) return line.usage;
  return { promptTokens: null, totalTokens: null, ...line.usage, completionTokens: tk };
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
    startMs: requestOriginMs(line),
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
    contentEvents: contentEventsOf(line, stats.outputTokens, stats.tokenSource === 'per-event'),
    outputTokens: stats.outputTokens,
    ...(stats.tokenSource === 'usage-total' && usageOfLine(line) !== line.usage
      ? { tokenizedByServer: true }
      : {}),
    ...(stats.reasoningTokens !== null
      ? {
          ttfatMs: stats.firstAnswerMs,
          reasoningTokens: stats.reasoningTokens,
          answerTokens: stats.answerTokens ?? 0,
          reasoningTokensExact: stats.reasoningTokensExact,
        }
      : {}),
    inputTokens: line.inputTokens,
    ...(line.usage?.cachedTokens !== undefined ? { cachedTokens: line.usage.cachedTokens } : {}),
    tokenSource: stats.tokenSource,
    ...(stats.tokenDoubt !== null ? { tokenDoubt: stats.tokenDoubt } : {}),
    inputTokensSource: line.inputTokensSource,
    errorKind: line.error?.kind ?? null,
    errorCode: line.error?.code ?? null,
    errorMessage: line.error?.message ?? null,
    ...(line.batch ? { batch: { inputs: line.batch.inputs, dimension: line.batch.dimension ?? null } } : {}),
    ...(line.model !== undefined ? { model: line.model } : {}),
  };
}

/**
 * The zero of a request's event and phase times on the run clock: when the stream-I/O thread began
 * sending it (`sentMs`). Files written before `sentMs` existed have only `startedMs` (when it got
 * its slot, up to a few ms earlier). Every number that puts a request on the run clock — peaks,
 * `start_times`, its end, its lane — takes this one origin.
 */
export function requestOriginMs(line: Pick<RunRequestLine, 'sentMs' | 'startedMs'>): number {
  return line.sentMs ?? line.startedMs;
}

/**
 * Content events' tokens spread evenly: `first` on the first event, `w` on each later one (a list
 * of them would be one more value per token, the same but for its first).
 */
export interface TokenSpread {
  first: number;
  w: number;
}

/** The tokens of content event `i`. */
export function tokensAt(tok: Values | TokenSpread, i: number): number {
  return 'w' in tok ? (i === 0 ? tok.first : tok.w) : tok[i]!;
}

/**
 * The line's content events as (time, tokens), for a peak counted in tokens. The tokens are spread
 * as ITL per token spreads them (shared/stats/request-stats.ts), so that they add up to the
 * request's output tokens and a peak is never below the mean: with the server's per-event counts,
 * each event's own (at least 1), and tokens only the final usage knew of on the last event; without
 * them (a usage total, or estimated), 1 on the first event and the rest evenly over the later ones.
 */
function contentEventsOf(
  line: RunRequestLine,
  outputTokens: number,
  perEvent: boolean,
): { t: number[]; tok: number[] | TokenSpread; exact: boolean } {
  const { t, tok, f } = line.events;
  const ct: number[] = [];
  const ck: number[] = [];
  for (let i = 0; i < t.length; i++)
    if ((f[i]! & EV_CONTENT) !== 0) {
      ct.push(t[i]!);
      ck.push(Math.max(1, tok[i]!));
    }
  const m = ct.length;
  if (m === 0) return { t: ct, tok: ck, exact: perEvent };
  if (perEvent) {
    let sum = 0;
    for (const k of ck) sum += k;
    if (outputTokens > sum) ck[m - 1]! += outputTokens - sum;
    return { t: ct, tok: ck, exact: true };
  }
  const first = m === 1 ? outputTokens : Math.min(1, outputTokens);
  const w = m > 1 ? (outputTokens - first) / (m - 1) : 0;
  return { t: ct, tok: { first, w }, exact: false };
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
  return requestOriginMs(line) + (line.phases.endMs ?? 0);
}
