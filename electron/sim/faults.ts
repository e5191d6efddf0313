/**
 * Fault injection: what can go wrong between an inference server and a client, on demand.
 * Syntax `kind[:param][@rate]`, per request (header `x-sim-fault` or body field `sim_fault`) or
 * global (options.fault, applied to a seeded fraction options.faultRate of requests). `@rate`
 * (0–1) applies the fault to that seeded fraction of the requests that carry it, so one workload
 * can run with, say, 10 % of its streams reset mid-way: `"sim_fault": "reset:20@0.1"`.
 *
 * | kind                         | effect                                                            |
 * |------------------------------|-------------------------------------------------------------------|
 * | http-400/404/429/500/503     | that status before the stream, with the dialect's error body      |
 * | error-midstream[:afterTokens]| in-band error event in the dialect's shape (then [DONE] where the |
 * |                              | dialect does so, test-corpus/FORMATS.md §6.2); request ends as 'error'        |
 * | reset[:afterTokens]          | TCP reset mid-stream (socket.resetAndDestroy); request aborted    |
 * | stall[:ms]                   | the sequence pauses once for ms (default 2000) after 5 tokens     |
 * | malformed-json[:afterTokens] | one truncated JSON event mid-stream, then the stream continues    |
 * | no-done                      | the terminator is omitted ([DONE], TGI's final event, llama.cpp   |
 * |                              | stop:true event, Ollama done:true line, response.completed,       |
 * |                              | Anthropic message_stop)                                           |
 * | slow-first-byte[:ms]         | headers and first byte held back ms (default 2000)                |
 * | empty-first-chunk            | accepted, no effect: vLLM's role chunk already is one             |
 * | close-after-stream[:ms]      | llama.cpp's keep-alive: `Keep-Alive: timeout=5, max=100` sent,    |
 * |                              | the connection closed ms (default 5) after the stream's last byte |
 * |                              | (close-after-stream.ts)                                           |
 * | no-stream                    | stream: true ignored: one JSON body (application/json), as a      |
 * |                              | server or proxy that does not stream                              |
 * | json-error-200               | 200 with an error object as application/json instead of a stream |
 * | gzip                         | the stream sent with Content-Encoding: gzip (a compressing proxy) |
 * | redirect                     | 307 with a Location header (a moved endpoint)                     |
 * | ignore-max-tokens[:tokens]   | the request's max_tokens is ignored: generation runs to tokens    |
 * |                              | (default: as far as the KV cache holds), EOS ignored too          |
 * | bad-tool-json                | a tool-call answer's arguments lose their closing brace: streamed |
 * |                              | whole and well framed, but not JSON (tool-calls.ts)               |
 *
 * afterTokens defaults to 5: at most that many tokens are delivered before the fault fires. A
 * stream shorter than that still gets its fault, just before its last token.
 */
import type { Rng } from '../../shared/prng.ts';

const FAULT_KINDS = [
  'http-400',
  'http-404',
  'http-429',
  'http-500',
  'http-503',
  'error-midstream',
  'reset',
  'stall',
  'malformed-json',
  'no-done',
  'slow-first-byte',
  'empty-first-chunk',
  'close-after-stream',
  'ignore-max-tokens',
  'no-stream',
  'json-error-200',
  'gzip',
  'redirect',
  'bad-tool-json',
] as const;

/** How far `ignore-max-tokens` generates without its parameter: endless, for a client. */
export const DEFAULT_RUNAWAY_TOKENS = 1_000_000;

type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /**
   * afterTokens for mid-stream kinds, milliseconds for stall, slow-first-byte and
   * close-after-stream, tokens for ignore-max-tokens.
   */
  param?: number;
  /** The fraction (0–1) of requests it applies to (`@rate`); absent: every one. */
  rate?: number;
}

const DEFAULT_AFTER_TOKENS = 5;
const DEFAULT_STALL_MS = 2000;
const DEFAULT_SLOW_FIRST_BYTE_MS = 2000;

/** @internal exported for its tests */
export class FaultParseError extends Error {}

function isFaultKind(s: string): s is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(s);
}

/** Parse `kind[:param][@rate]`; throws FaultParseError with a message meant for the person testing. */
export function parseFault(text: string): FaultSpec {
  const [specRaw = '', rateRaw, extraAt] = text.trim().split('@');
  const [kindRaw = '', paramRaw, extra] = specRaw.split(':');
  const kind = kindRaw.toLowerCase();
  if (!isFaultKind(kind) || extra !== undefined || extraAt !== undefined) {
    throw new FaultParseError(
      `unknown fault '${text}'; expected kind[:param][@rate] with kind one of ${FAULT_KINDS.join(', ')}`,
    );
  }
  const spec: FaultSpec = { kind };
  if (rateRaw !== undefined) {
    const rate = rateRaw.trim() === '' ? NaN : Number(rateRaw);
    if (!(rate >= 0 && rate <= 1))
      throw new FaultParseError(`bad rate in fault '${text}': expected @ a fraction from 0 to 1`);
    spec.rate = rate;
  }
  if (paramRaw === undefined || paramRaw === '') return spec;
  const param = Number(paramRaw);
  if (
    !Number.isFinite(param) ||
    param < 0 ||
    kind.startsWith('http-') ||
    kind === 'no-done' ||
    kind === 'empty-first-chunk' ||
    kind === 'no-stream' ||
    kind === 'json-error-200' ||
    kind === 'gzip' ||
    kind === 'redirect'
  ) {
    throw new FaultParseError(`bad parameter in fault '${text}'`);
  }
  spec.param = Math.floor(param);
  return spec;
}

export function toFaultSpec(f: FaultSpec | string | null | undefined): FaultSpec | null {
  if (f == null) return null;
  return parseFault(typeof f === 'string' ? f : formatFault(f));
}

export function formatFault(f: FaultSpec): string {
  return `${f.kind}${f.param === undefined ? '' : `:${f.param}`}${f.rate === undefined ? '' : `@${f.rate}`}`;
}

/**
 * The fault for one request: the per-request one if given (with probability its `@rate`, if it
 * has one), else the global one with probability `rate` (or its own `@rate`). The draw is made for every request so the sequence of decisions depends only on the seed
 * and the order of requests.
 */
export function chooseFault(
  perRequest: FaultSpec | null,
  global: FaultSpec | null,
  rate: number,
  rng: Rng,
): FaultSpec | null {
  const draw = rng.next();
  if (perRequest) return perRequest.rate === undefined || draw < perRequest.rate ? perRequest : null;
  return global && draw < (global.rate ?? rate) ? global : null;
}

/** HTTP status of a pre-stream fault, or null for the others. */
export function faultStatus(f: FaultSpec | null): number | null {
  if (!f || !f.kind.startsWith('http-')) return null;
  return Number(f.kind.slice(5));
}

/**
 * 1-based index of the token before which a mid-stream fault fires, given the request's planned
 * output length; null for faults that do not act at a token.
 */
export function faultTokenIndex(f: FaultSpec | null, plannedTokens: number): number | null {
  if (!f) return null;
  switch (f.kind) {
    case 'error-midstream':
    case 'reset':
    case 'malformed-json':
      return Math.max(1, Math.min((f.param ?? DEFAULT_AFTER_TOKENS) + 1, plannedTokens));
    case 'stall':
      return Math.max(1, Math.min(DEFAULT_AFTER_TOKENS + 1, plannedTokens));
    default:
      return null;
  }
}

export function stallMs(f: FaultSpec): number {
  return f.param ?? DEFAULT_STALL_MS;
}

export function slowFirstByteMs(f: FaultSpec | null): number {
  return f?.kind === 'slow-first-byte' ? (f.param ?? DEFAULT_SLOW_FIRST_BYTE_MS) : 0;
}
