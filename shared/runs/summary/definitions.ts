/**
 * Definition presets: the per-request rules of a benchmark client, applied to the raw events a
 * run file keeps (times, token counts, flags), so one run can be read as vLLM's `bench serve`,
 * SGLang's `bench_serving` or AIPerf would have measured it — no re-run. The aggregation (means,
 * numpy percentiles, throughputs) is the one in summary.ts for all of them; what differs is which
 * event is the first token, which gaps are inter-token latencies, where a request ends, which
 * requests succeeded, and what the peak throughput counts.
 *
 * Sources (read from the projects' public repositories):
 * - vllm: vllm/benchmarks/lib/endpoint_request_func.py, async_request_openai_completions and
 *   async_request_openai_chat_completions (commit 02cfb534).
 * - sglang: python/sglang/bench_serving.py, async_request_openai_completions and
 *   async_request_openai_chat_completions (chat reads `delta.content` only).
 * - aiperf: ai-dynamo/aiperf src/aiperf — transports/sse_utils.py and aiohttp_client.py (reading
 *   the stream, `inspect_message_for_error`), endpoints/openai_chat.py (`parse_response`: what a
 *   content response is), metrics/types/ttft_metric.py, request_latency_metric.py,
 *   inter_token_latency_metric.py ((request latency − TTFT) / (output tokens − 1) per request).
 */
import type { DialectId } from '../../dialects.ts';
import type { RequestStats } from '../../stats/request-stats.ts';
import type { ErrorCode, ErrorKind } from '../../errors.ts';
import {
  EV_CHOICES,
  EV_CONTENT,
  EV_ERROR,
  EV_FINISH,
  EV_REASONING,
  EV_TERMINAL,
  EV_USAGE,
} from '../../request.ts';
import { blankOutcome, outcomeOfLine, requestOriginMs } from './outcome.ts';
import type { RequestOutcome } from './outcome.ts';
import type { RunRequestLine } from '../file/line-schema.ts';

/** The definition presets: whose per-request rules made a summary (RunSummary.definitions). */
export const DEFINITION_IDS = ['tokenscope', 'vllm', 'sglang', 'aiperf'] as const;
export type DefinitionsId = (typeof DEFINITION_IDS)[number];

export interface DefinitionsInfo {
  id: DefinitionsId;
  name: string;
  /** Where the rules come from. */
  source: string;
  /** The rules, one line each (README, tooltips, `--definitions` help). */
  rules: string[];
  /** What "peak output token throughput" counts per 1-s bucket. */
  peak: 'chunks' | 'tokens';
}

export const DEFINITIONS: Record<DefinitionsId, DefinitionsInfo> = {
  tokenscope: {
    id: 'tokenscope',
    name: 'Tokenscope (strict)',
    source: 'shared/stats/request-stats.ts',
    rules: [
      'TTFT: the first event carrying a generated token (a role-only or empty first chunk does not count)',
      'ITL: gaps between content events, coalesced gaps (events of one socket read) left out; ITL per token spreads a gap over the tokens of its event',
      'E2E: start (before connecting) to the end of the stream',
      'Failures: any error — HTTP, network, timeouts, malformed events, an in-band error, a stream cut before its end marker',
      'Peak output throughput: tokens per 1-s bucket',
    ],
    peak: 'tokens',
  },
  vllm: {
    id: 'vllm',
    name: 'vLLM bench serve',
    source: 'vllm/benchmarks/lib/endpoint_request_func.py (vLLM)',
    rules: [
      'TTFT: the first chunk with a non-empty `choices` array — for chat, the role-only first chunk',
      'ITL: every gap between `choices` chunks (empty ones, the finish chunk and same-read chunks included)',
      'Latency: start to the last `choices` chunk (the trailing usage chunk and [DONE] do not count)',
      'Success: HTTP 200 and at least one `choices` chunk; an in-band error event and a stream without [DONE] still succeed; a broken connection, a timeout or unparseable JSON fail',
      'Output tokens: `usage.completion_tokens` from a chunk without `choices` (usage on a `choices` chunk, as llama.cpp completions send it, is never read); else the server’s tokenizer count of the text (POST /tokenize after the run, as vLLM re-tokenizes it), else Tokenscope’s count, labelled estimated',
      'Peak output throughput: `choices` chunks per 1-s bucket (not tokens)',
    ],
    peak: 'chunks',
  },
  sglang: {
    id: 'sglang',
    name: 'SGLang bench_serving',
    source: 'python/sglang/bench_serving.py (SGLang)',
    rules: [
      'TTFT: the first chunk with non-empty `delta.content` (chat) or `text` (completions): a reasoning-only chunk is no token to it',
      'ITL: gaps between those chunks',
      'Latency: start to the last line of the stream ([DONE] included)',
      'Success: HTTP 200 and no broken connection, timeout or unparseable JSON — even with no text at all; completions: an in-band error event fails (it has no `choices`)',
      'Output tokens: the usage when sent, else the requested output length (SGLang assumes it)',
      'Peak output throughput: chunks per 1-s bucket',
    ],
    peak: 'chunks',
  },
  aiperf: {
    id: 'aiperf',
    name: 'AIPerf / genai-perf',
    source: 'ai-dynamo/aiperf src/aiperf (transports/sse_utils.py, endpoints/openai_chat.py, metrics/types/)',
    rules: [
      'TTFT: the first content response (text, reasoning or a tool call)',
      'ITL: per request, (request latency − TTFT) / (output tokens − 1) — one value per request; ITL per chunk: gaps between content responses',
      'Request latency: start to the last content response (usage-only and finish-only chunks and [DONE] excluded)',
      'Failures: HTTP errors, a broken connection, an in-band error event; a data line that is not JSON is skipped, and no [DONE] is needed',
      'Peak output throughput: tokens per 1-s bucket',
    ],
    peak: 'tokens',
  },
};

/**
 * Errors after which vLLM's and SGLang's clients still call the request a success: an in-band
 * error event (no `choices`, skipped), a stream that ended without [DONE], or one Tokenscope
 * stopped itself for running past max_tokens (their clients have no such limit).
 */
const SOFT: ReadonlySet<`${ErrorKind}/${ErrorCode}`> = new Set([
  'server/error-event',
  'protocol/truncated',
  'protocol/over-max-tokens',
]);

const isOpenAi = (d: DialectId) => d === 'openai-chat' || d === 'openai-completions';

/**
 * Whether event i is a `choices` chunk. Files written before EV_CHOICES: any event that is not
 * only usage, an error or the end marker (a role-only chunk has no flag at all).
 */
function choicesOf(f: readonly number[], dialect: DialectId): (i: number) => boolean {
  const known = f.some((x) => (x & EV_CHOICES) !== 0);
  if (known || !isOpenAi(dialect)) {
    // Other dialects have no `choices`: their generation events (content or finish) stand in.
    return known ? (i) => (f[i]! & EV_CHOICES) !== 0 : (i) => (f[i]! & (EV_CONTENT | EV_FINISH)) !== 0;
  }
  return (i) => {
    const x = f[i]!;
    if (x & (EV_CONTENT | EV_FINISH)) return true;
    return (x & (EV_ERROR | EV_TERMINAL | EV_USAGE)) === 0;
  };
}

function base(line: RunRequestLine, ok: boolean): RequestOutcome {
  return {
    ...blankOutcome(ok),
    startMs: requestOriginMs(line),
    queueMs: line.queueMs,
    firstEventMs: line.events.t.length ? line.events.t[0]! : null,
    inputTokens: line.inputTokens,
    tokenSource: line.tokenSource,
    inputTokensSource: line.inputTokensSource,
    errorKind: ok ? null : (line.error?.kind ?? null),
    errorCode: ok ? null : (line.error?.code ?? null),
    ...(line.model !== undefined ? { model: line.model } : {}),
  };
}

/** TTFT, gaps and the last time over the events `pick` selects. */
function over(t: readonly number[], pick: (i: number) => boolean) {
  let first: number | null = null;
  let last: number | null = null;
  const gaps: number[] = [];
  let tokenTimes = 0;
  for (let i = 0; i < t.length; i++) {
    if (!pick(i)) continue;
    if (first === null) first = t[i]!;
    else gaps.push(t[i]! - last!);
    last = t[i]!;
    tokenTimes++;
  }
  return { first, last, gaps, chunks: tokenTimes };
}

const tpot = (e2e: number, ttft: number, n: number) => (n > 1 ? (e2e - ttft) / (n - 1) : 0);

/** One request line as the preset's client would have measured it. */
export function outcomeUnder(
  line: RunRequestLine,
  defs: DefinitionsId,
  dialect: DialectId,
  /** The line's stats when the caller has them (outcome.ts `outcomeOfLine`). */
  stats?: RequestStats,
): RequestOutcome {
  const own = outcomeOfLine(line, stats);
  if (defs === 'tokenscope') return own;
  const err = line.error;
  const httpOk = line.httpStatus === 200 || (line.httpStatus === null && err === null);
  if (defs === 'vllm') return vllmOutcome(line, httpOk, own, dialect);
  if (defs === 'sglang') return sglangOutcome(line, httpOk, own, dialect);
  return aiperfOutcome(line, httpOk, own);
}

const softError = (line: RunRequestLine, soft: ReadonlySet<string>): boolean =>
  line.error !== null && soft.has(`${line.error.kind}/${line.error.code}`);

/**
 * vLLM's client (endpoint_request_func.py): every `choices` chunk is a token chunk, the latency ends
 * at the last one. Its output count is `usage.completion_tokens` read only from a chunk WITHOUT
 * `choices` (`elif usage := data.get("usage")`) — llama.cpp's completions put usage on the last
 * `choices` chunk, which vLLM never reads. Without it (or with 0), vllm/benchmarks/serve.py
 * `calculate_metrics` re-tokenizes the generated text (`add_special_tokens=False`): here the server's
 * own tokenizer count of the text when the run could ask for one (`tokenizedOutputTokens`,
 * POST /tokenize after the run), else Tokenscope's count, labelled estimated unless the server gave
 * per-event counts.
 */
function vllmOutcome(
  line: RunRequestLine,
  httpOk: boolean,
  own: RequestOutcome,
  dialect: DialectId,
): RequestOutcome {
  const { t, f } = line.events;
  const choices = choicesOf(f, dialect);
  const ev = over(t, choices);
  const ok = httpOk && (line.error === null || softError(line, SOFT)) && ev.first !== null;
  const o = base(line, ok);
  if (!ok) return o;
  const usageTokens = vllmUsageTokens(line, dialect);
  let n: number;
  if (usageTokens > 0) {
    n = usageTokens;
    o.tokenSource = 'usage-total';
  } else if (line.tokenizedOutputTokens !== undefined) {
    n = line.tokenizedOutputTokens;
    o.tokenSource = 'usage-total';
    o.tokenizedByServer = true;
  } else {
    n = own.outputTokens;
    o.tokenSource = own.tokenSource === 'per-event' ? 'per-event' : 'estimated';
  }
  o.ttftMs = ev.first;
  o.e2eMs = ev.last;
  o.itlChunkMs = ev.gaps;
  o.outputTokens = n;
  o.tpotMs = tpot(ev.last!, ev.first!, n);
  return o;
}

/**
 * The output count vLLM's client reads: `usage.completion_tokens` of a chunk without `choices`;
 * 0 when there is none (vLLM then re-tokenizes the text: `if not output_len`).
 */
export function vllmUsageTokens(line: RunRequestLine, dialect: DialectId): number {
  const f = line.events.f;
  const choices = choicesOf(f, dialect);
  for (let i = 0; i < f.length; i++)
    if ((f[i]! & EV_USAGE) !== 0 && !choices(i)) return line.usage?.completionTokens ?? 0;
  return 0;
}

/**
 * SGLang's bench_serving: chat reads only `delta.content` (`delta.get("content", "")`) and
 * completions `choices[0].text` — a reasoning-only chunk is no token to it, so TTFT starts at the
 * answer's first text and ITL is the gaps between text chunks. Latency: the last line read
 * ([DONE] included). Output tokens: the usage when sent, else the requested length.
 */
function sglangOutcome(
  line: RunRequestLine,
  httpOk: boolean,
  own: RequestOutcome,
  dialect: DialectId,
): RequestOutcome {
  const { t, f } = line.events;
  const err = line.error;
  // Completions index data["choices"] directly: an in-band error event (no choices) raises.
  const errorEventFails = dialect === 'openai-completions' && err?.kind === 'server';
  const ok = httpOk && (err === null || softError(line, SOFT)) && !errorEventFails;
  const o = base(line, ok);
  if (!ok) return o;
  const ev = over(t, (i) => (f[i]! & EV_CONTENT) !== 0 && (f[i]! & EV_REASONING) === 0);
  const usageTokens = line.usage?.completionTokens ?? null;
  const n = usageTokens ?? line.expectedOutputTokens ?? own.outputTokens;
  o.outputTokens = n;
  o.tokenSource = usageTokens !== null ? 'usage-total' : 'estimated';
  o.itlChunkMs = ev.gaps;
  const end = t.length ? t[t.length - 1]! : null;
  o.e2eMs = end;
  // A success without any text has no TTFT (SGLang keeps its 0.0, which its own statistics
  // then include; here it is left out rather than counted as an instant first token).
  o.ttftMs = ev.first;
  o.tpotMs = ev.first !== null && end !== null ? tpot(end, ev.first, n) : null;
  return o;
}

/**
 * Errors after which AIPerf still has a record without error: a data line that is not JSON
 * (`get_json()` returns None and `parse_response` skips it: common/models/record_models.py,
 * endpoints/openai_chat.py), a stream that ended without [DONE] (the SSE reader reads to the end
 * of the body and needs no marker: transports/sse_utils.py), and Tokenscope's own max_tokens stop.
 */
const AIPERF_SOFT: ReadonlySet<`${ErrorKind}/${ErrorCode}`> = new Set([
  'protocol/bad-json',
  'protocol/truncated',
  'protocol/over-max-tokens',
]);

/**
 * AIPerf: TTFT at the first content response (text, reasoning or tool call: endpoints/openai_chat.py
 * `extract_chat_response_data`); request latency at the LAST content response — usage-only and
 * finish-only chunks carry no data and do not count (metrics/types/request_latency_metric.py,
 * ttft_metric.py); ITL one value per request, (latency − TTFT) / (tokens − 1). An in-band error
 * (an `event: error` or a data line with an `error` object) fails the request (sse_utils.py
 * `inspect_message_for_error`).
 */
function aiperfOutcome(line: RunRequestLine, httpOk: boolean, own: RequestOutcome): RequestOutcome {
  const { t, f } = line.events;
  const ok = httpOk && (line.error === null || softError(line, AIPERF_SOFT)) && own.ttftMs !== null;
  const o = base(line, ok);
  if (!ok) return o;
  const ev = over(t, (i) => (f[i]! & EV_CONTENT) !== 0);
  const end = ev.last;
  const n = own.outputTokens;
  o.ttftMs = ev.first;
  o.e2eMs = end;
  o.itlChunkMs = ev.gaps;
  o.outputTokens = n;
  o.tokenSource = own.tokenSource;
  if (own.contentEvents) o.contentEvents = own.contentEvents;
  if (own.tokenizedByServer) o.tokenizedByServer = true;
  const perRequest = end !== null && ev.first !== null && n > 1 ? (end - ev.first) / (n - 1) : null;
  o.itlTokenMs = perRequest === null ? [] : [perRequest];
  o.tpotMs = end !== null && ev.first !== null ? tpot(end, ev.first, n) : null;
  return o;
}
