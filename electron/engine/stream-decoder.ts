/**
 * Turns stamped socket reads into the request record: framing (SSE or NDJSON), the dialect's
 * decoder, and the columnar event rows. The first error found is kept in `rec.error`; later
 * data is still recorded (a malformed chunk mid-stream does not hide what came after it).
 */
import {
  EV_COALESCED,
  EV_CONTENT,
  EV_ERROR,
  EV_FINISH,
  EV_TERMINAL,
  EV_CHOICES,
  EV_REASONING,
  EV_TOKENS_EXACT,
  EV_USAGE,
} from '../../shared/request.ts';
import type { RequestRecord } from '../../shared/record.ts';
import type { RequestError } from '../../shared/errors.ts';
import type { EventColumns } from '../../shared/event-columns.ts';
import { SseParser, type SseEvent } from './framing/sse.ts';
import { NdjsonFramer, type NdjsonLine } from './framing/ndjson.ts';
import type { Dialect, EventDecoder, Frame } from './dialects/types.ts';
import { computeTokenSource } from './token-source.ts';
import { eventTokensDoubt, overMaxTokensLimit } from '../../shared/stats/token-bounds.ts';

/**
 * An event (or NDJSON line) that grows past this without ending fails its request as
 * protocol/event-too-large: memory stays bounded whatever a server sends (a real event is a few KB;
 * TOKENSCOPE_MAX_EVENT_MB raises it).
 */
export const MAX_EVENT_CHARS = (Number(process.env.TOKENSCOPE_MAX_EVENT_MB) || 8) * 1024 * 1024;

/**
 * A request's record is bounded whatever a server sends (an endless fast stream grew ~33 MB/s):
 * - text kept (raw event data, output text, each event's text) stops at MAX_RECORD_TEXT_CHARS
 *   (64 Mi characters; TOKENSCOPE_MAX_RECORD_MB): `rec.textCapped`, timing of every event still kept;
 * - events stop at MAX_RECORD_EVENTS (2 M; TOKENSCOPE_MAX_EVENTS): the request is stopped as
 *   client/record-limit, what arrived kept (~40 bytes an event: 80 MB at most).
 */
export const MAX_RECORD_TEXT_CHARS = (Number(process.env.TOKENSCOPE_MAX_RECORD_MB) || 64) * 1024 * 1024;
export const MAX_RECORD_EVENTS = Number(process.env.TOKENSCOPE_MAX_EVENTS) || 2_000_000;

/** Past max_tokens by this margin the request is stopped as protocol/over-max-tokens. */
export { overMaxTokensLimit };

export class StreamDecoder {
  private readonly sse: SseParser | null;
  private readonly nd: NdjsonFramer | null;
  private readonly decoder: EventDecoder;
  private readonly frames: (SseEvent | NdjsonLine)[] = [];
  /** Frames split off stamped reads and not yet decoded (JSON + dialect): see pushRead. */
  private pending: (SseEvent | NdjsonLine)[] = [];
  private pendingT: number[] = [];
  private pendingRead: number[] = [];
  private pendingFlags: number[] = [];
  private endInfo: { discarded: string | null; tail: string } = { discarded: null, tail: '' };
  /** An event grew past MAX_EVENT_CHARS: the request is to be stopped (the client checks this). */
  tooLarge = false;
  /** Stop the request now (over max_tokens, record limit): its error is set; the client checks this. */
  stop = false;
  private outputTokens = 0;
  private keptChars = 0;

  constructor(
    private readonly dialect: Dialect,
    private readonly rec: RequestRecord,
    private readonly limits: { maxTokens?: number | null; maxEvents?: number; maxTextChars?: number } = {},
  ) {
    this.sse = dialect.framing === 'sse' ? new SseParser() : null;
    this.nd = dialect.framing === 'ndjson' ? new NdjsonFramer() : null;
    this.decoder = dialect.createDecoder();
  }

  private get events(): EventColumns {
    return this.rec.events as EventColumns;
  }

  /** A 200 with the wrong content type is kept going (some proxies relabel) but reported. */
  checkContentType(ct: string | null, atMs: number): void {
    if (!ct) return;
    const c = ct.toLowerCase();
    const ok =
      this.dialect.framing === 'sse'
        ? c.includes('text/event-stream')
        : c.includes('ndjson') || c.includes('application/json') || c.includes('text/plain');
    if (!ok) {
      this.setError({
        kind: 'protocol',
        code: 'content-type',
        message: `Expected ${this.dialect.framing === 'sse' ? 'text/event-stream' : 'application/x-ndjson'} but the server sent "${ct}" (did it ignore stream: true?).`,
        atMs,
      });
    }
  }

  /**
   * A stamped read: framed now (cheap: bytes → event strings), decoded later by `flush()` (JSON
   * and the dialect), so that when many sockets are readable at once every read is stamped
   * before any of them is parsed (docs/ARCHITECTURE.md: per read, stamp and split only).
   */
  pushRead(chunk: Uint8Array, t: number, readIndex: number): void {
    const frames = this.frames;
    frames.length = 0;
    if (this.sse) this.sse.push(chunk, frames as SseEvent[]);
    else this.nd!.push(chunk, frames as NdjsonLine[]);
    const pending = this.sse ? this.sse.pendingChars : this.nd!.pendingChars;
    if (pending > MAX_EVENT_CHARS && !this.tooLarge) {
      this.tooLarge = true;
      this.setError({
        kind: 'protocol',
        code: 'event-too-large',
        message: `An event grew past ${Math.round(MAX_EVENT_CHARS / 1048576)} MiB without ending; the stream was stopped there (what arrived before it is kept).`,
        atMs: t,
      });
    }
    const coalesced = frames.length > 1 ? EV_COALESCED : 0;
    for (let i = 0; i < frames.length; i++) {
      this.pending.push(frames[i]!);
      this.pendingT.push(t);
      this.pendingRead.push(readIndex);
      this.pendingFlags.push(coalesced);
    }
  }

  /** Frames waiting to be decoded. */
  get pendingFrames(): number {
    return this.pending.length;
  }

  /** Decodes every framed-but-not-decoded event, in arrival order. */
  flush(): void {
    const n = this.pending.length;
    if (n === 0) return;
    const frames = this.pending;
    const ts = this.pendingT;
    const reads = this.pendingRead;
    const flags = this.pendingFlags;
    this.pending = [];
    this.pendingT = [];
    this.pendingRead = [];
    this.pendingFlags = [];
    for (let i = 0; i < n; i++) this.handle(frames[i]!, ts[i]!, reads[i]!, flags[i]!);
  }

  end(t: number, readIndex: number): void {
    this.flush();
    const frames = this.frames;
    frames.length = 0;
    if (this.sse) {
      const info = this.sse.end(frames as SseEvent[]);
      this.endInfo = { discarded: info.discardedData, tail: info.unterminatedLine };
    } else {
      const info = this.nd!.end(frames as NdjsonLine[]);
      // A cut-off NDJSON line is still offered to the decoder: it reports it as invalid JSON.
      if (info.unterminatedLine) frames.push({ data: info.unterminatedLine });
    }
    for (const f of frames) this.handle(f, t, readIndex, 0);
  }

  /** The error to report at a clean EOF: a missing terminator is a protocol error. */
  endError(t: number): RequestError | null {
    if (this.rec.error || this.rec.terminated) return null;
    const extra = this.endInfo.discarded
      ? ' A last event without its blank line was discarded.'
      : this.endInfo.tail
        ? ' The body ended mid-line.'
        : '';
    return {
      kind: 'protocol',
      code: 'truncated',
      message: `The stream ended without its terminator (${terminatorName(this.dialect.id)}).${extra}`,
      atMs: t,
    };
  }

  finalize(): void {
    this.flush();
    this.rec.tokenSource = computeTokenSource(this.rec);
  }

  private refuseCount(doubt: string, t: number): void {
    this.stop = true;
    this.setError({
      kind: 'protocol',
      code: 'bad-token-count',
      message: `The server's token count cannot be true: ${doubt}. Tokenscope stopped the stream (what arrived is kept, that event counted as one token).`,
      atMs: t,
    });
  }

  private setError(e: RequestError): void {
    if (!this.rec.error) this.rec.error = e;
  }

  private handle(f: SseEvent | NdjsonLine, t: number, readIndex: number, coalesced: number): void {
    const frame: Frame = { event: 'event' in f ? f.event : 'message', data: f.data };
    const d = this.decoder.decode(frame);
    const rec = this.rec;
    let flags = coalesced;
    let tokens = 0;
    switch (d.kind) {
      case 'content':
        flags |= EV_CONTENT;
        if (d.tokens !== null) {
          // A count no stream can carry (5e9 in one event) is refused, never stored (it would wrap
          // the column) nor believed: the request fails and the event counts as one token.
          const doubt = eventTokensDoubt(d.tokens, this.limits.maxTokens);
          if (doubt === null) {
            tokens = d.tokens;
            flags |= EV_TOKENS_EXACT;
          } else {
            tokens = 1;
            this.refuseCount(doubt, t);
          }
        } else tokens = 1;
        if (tokens === 0) tokens = 1; // content means at least one generated token
        // The reasoning phase: reasoning and nothing of the answer (shared/request.ts EV_REASONING).
        if (d.reasoning && !d.text && !d.toolCall) flags |= EV_REASONING;
        break;
      case 'error':
        flags |= EV_ERROR;
        this.setError({
          kind: 'server',
          code: 'error-event',
          message: d.error?.message ?? 'The server reported an error in the stream.',
          body: f.data.slice(0, 4096),
          atMs: t,
        });
        break;
      case 'invalid':
        flags |= EV_ERROR;
        this.setError({
          kind: 'protocol',
          code: 'bad-json',
          message: `Malformed event: ${d.invalidReason ?? 'could not decode'}`,
          body: f.data.slice(0, 4096),
          atMs: t,
        });
        break;
      default:
        break;
    }
    // Text is kept up to the record's limit; past it, only times and token counts.
    const maxText = this.limits.maxTextChars ?? MAX_RECORD_TEXT_CHARS;
    const keepText = this.keptChars < maxText;
    if (keepText) {
      this.keptChars += f.data.length + (d.text?.length ?? 0) * 2 + (d.reasoning?.length ?? 0) * 2;
      if (d.text) rec.text += d.text;
      if (d.reasoning) rec.reasoning += d.reasoning;
    } else rec.textCapped = true;
    if (d.usage) {
      flags |= EV_USAGE;
      rec.usage = { ...(rec.usage ?? {}), ...d.usage };
    }
    if (d.finishReason) {
      flags |= EV_FINISH;
      rec.finishReason = d.finishReason;
    }
    if (d.choices) flags |= EV_CHOICES;
    if (d.model !== undefined) rec.responseModel ??= d.model;
    if (d.terminal) {
      flags |= EV_TERMINAL;
      rec.terminated = true;
    }
    // The event's text column shows everything it generated: answer, reasoning and tool-call fragments.
    this.events.push(
      t,
      tokens,
      readIndex,
      flags,
      keepText ? (d.text ?? '') + (d.reasoning ?? '') + (d.toolCall ?? '') : '',
      f.data.length,
    );
    rec.raw?.push(keepText ? f.data : '');
    if (flags & EV_CONTENT) this.outputTokens += tokens;
    this.checkLimits(t);
  }

  private checkLimits(t: number): void {
    if (this.stop) return;
    const max = this.limits.maxTokens;
    if (max != null && max > 0 && this.outputTokens > overMaxTokensLimit(max) && !this.rec.terminated) {
      this.stop = true;
      this.setError({
        kind: 'protocol',
        code: 'over-max-tokens',
        message: `The server kept generating past max_tokens=${max} (${this.outputTokens} tokens so far, it ignored the limit); Tokenscope stopped the stream.`,
        atMs: t,
      });
      return;
    }
    if (this.events.n >= (this.limits.maxEvents ?? MAX_RECORD_EVENTS)) {
      this.stop = true;
      this.setError({
        kind: 'client',
        code: 'record-limit',
        message: `The stream reached ${this.events.n.toLocaleString('en-US')} events, the most one request keeps (TOKENSCOPE_MAX_EVENTS); Tokenscope stopped it there, everything before kept.`,
        atMs: t,
      });
    }
  }
}

function terminatorName(id: Dialect['id']): string {
  switch (id) {
    case 'openai-chat':
    case 'openai-completions':
      return 'data: [DONE]';
    case 'openai-responses':
      return 'response.completed';
    case 'anthropic-messages':
      return 'message_stop';
    case 'tgi':
      return 'a final event with generated_text';
    case 'llamacpp':
      return 'a final event with stop: true';
    default:
      return 'a final line with done: true';
  }
}
