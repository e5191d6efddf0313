/**
 * Turns stamped socket reads into the request record: framing (SSE or NDJSON), the dialect's
 * decoder, and the columnar event rows. The first error found is kept in `rec.error`; later
 * data is still recorded (a malformed chunk mid-stream does not hide what came after it).
 *
 * Reads wait as bytes (read-queue.ts); framing and decoding run together, in slices (`flush(max)`),
 * and `decodedCost` tells the I/O side how far they got (back-pressure, io/backlog.ts). Limits are
 * checked while framing (record-limits.ts): every framed unit counts, events and comments,
 * keep-alives and empty blocks alike, and no event past the limit is kept.
 */
import {
  EV_COALESCED,
  EV_CONTENT,
  EV_ERROR,
  EV_FINISH,
  EV_TERMINAL,
  EV_CHOICES,
  EV_REASONING,
  EV_TOOL,
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
import { addToolDeltas } from './tool-call-acc.ts';
import { eventTokensDoubt } from '../../shared/stats/token-bounds.ts';
import { READ_COST_BYTES } from './io/backlog.ts';
import {
  eventTooLargeError,
  overMaxTokensLimit,
  recordLimitError,
  type RecordLimits,
} from './record-limits.ts';
import { DEFAULT_LIMITS } from './engine-config.ts';
import { ReadQueue } from './read-queue.ts';

/** Frames decoded per slice (flush): the measuring thread yields between slices. */
export const DECODE_SLICE_FRAMES = 1024;

export class StreamDecoder {
  private readonly sse: SseParser | null;
  private readonly nd: NdjsonFramer | null;
  private readonly decoder: EventDecoder;
  /** Stamped reads not framed yet, as bytes (see pushRead). */
  private readonly reads = new ReadQueue();
  /** The frames of the read being decoded, the next one at `fi`; a read is framed when the one before it is decoded. */
  private readonly frames: (SseEvent | NdjsonLine)[] = [];
  private fi = 0;
  private curT = 0;
  private curRead = 0;
  private curFlags = 0;
  private curLen = 0;
  /** The cost (bytes + READ_COST_BYTES) of every read before the one being decoded, and with it. */
  private costBefore = 0;
  private framedCost = 0;
  /**
   * The answer's and the reasoning's text since the last slice, joined onto the record once a
   * slice (commitText): one string a slice, not a concatenation per event (a million of those were
   * the largest thing a 1 M-chunk run promoted to old space).
   */
  private readonly textParts: string[] = [];
  private readonly reasoningParts: string[] = [];
  private endInfo: { discarded: string | null; tail: string } = { discarded: null, tail: '' };
  /** No more reads are framed: the record limit was reached, or an event grew past maxEventChars. */
  private framingDone = false;
  /** Stop the request now (over max_tokens, record limit, event too large): its error is set; the client checks this. */
  stop = false;
  /** The record limit was reached while framing: its error, set once the frames before it are decoded. */
  private limitHit: RequestError | null = null;
  /** Decoding stopped (over max_tokens): frames still pending are dropped. */
  private halted = false;
  private outputTokens = 0;
  private keptChars = 0;
  /** The last read whose kept event was charged its whole length against the text limit. */
  private chargedRead = -1;
  private readonly maxEvents: number;
  private readonly maxEventChars: number;

  constructor(
    private readonly dialect: Dialect,
    private readonly rec: RequestRecord,
    private readonly limits: RecordLimits = {},
    /** Keep each event's text in the events' text column (the debugger's view; load runs do not read it). */
    private readonly eventText = true,
  ) {
    this.sse = dialect.framing === 'sse' ? new SseParser() : null;
    this.nd = dialect.framing === 'ndjson' ? new NdjsonFramer() : null;
    this.decoder = dialect.createDecoder();
    this.maxEvents = limits.maxEvents ?? DEFAULT_LIMITS.maxRecordEvents;
    this.maxEventChars = limits.maxEventChars ?? DEFAULT_LIMITS.maxEventChars;
  }

  private get events(): EventColumns {
    return this.rec.events as EventColumns;
  }

  /** A 200 with the wrong content type is kept going (some proxies relabel) but reported. */
  checkContentType(ct: string | null, atMs: number): void {
    if (!ct) return;
    const c = ct.toLowerCase();
    const { expected, accepted } = this.dialect.contentType;
    if (!accepted.some((a) => c.includes(a))) {
      this.setError({
        kind: 'protocol',
        code: 'content-type',
        message: `Expected ${expected} but the server sent "${ct}" (did it ignore stream: true?).`,
        atMs,
      });
    }
  }

  /**
   * A stamped read: its bytes are queued as they are, framed and decoded later by `flush()`, so
   * that when many sockets are readable at once every read is stamped before any of them is
   * parsed, and nothing but bytes waits (read-queue.ts; docs/ARCHITECTURE.md: per read, stamp only).
   */
  pushRead(chunk: Uint8Array, t: number, readIndex: number): void {
    if (this.stop || this.framingDone) {
      // Being stopped: this read is not framed, only counted as taken (back-pressure).
      this.framedCost += chunk.length + READ_COST_BYTES;
      return;
    }
    this.reads.push(chunk, t, readIndex);
  }

  /** Frames the oldest queued read: the limits are checked here; no event past them is kept. */
  private frameNext(): number {
    const bytes = this.reads.shift()!;
    const t = this.reads.t;
    const frames = this.frames;
    frames.length = 0;
    this.fi = 0;
    if (this.sse) this.sse.push(bytes, frames as SseEvent[]);
    else this.nd!.push(bytes, frames as NdjsonLine[]);
    this.costBefore = this.framedCost;
    this.framedCost += bytes.length + READ_COST_BYTES;
    this.curT = t;
    this.curRead = this.reads.readIndex;
    this.curLen = bytes.length;
    this.curFlags = frames.length > 1 ? EV_COALESCED : 0;
    const pendingChars = this.sse ? this.sse.pendingChars : this.nd!.pendingChars;
    if (pendingChars > this.maxEventChars) {
      this.stop = true;
      this.framingDone = true;
      this.setError(eventTooLargeError(t, this.maxEventChars));
    }
    // The limit counts every framed unit; no event past it is kept.
    const queued = this.events.n;
    const take = Math.min(frames.length, Math.max(0, this.maxEvents - queued));
    const units = queued + frames.length + this.ignoredUnits;
    if (units >= this.maxEvents) {
      this.stop = true;
      this.framingDone = true;
      this.limitHit = recordLimitError(units, queued + take, t);
    }
    frames.length = take;
    return bytes.length;
  }

  /** Framed units that are not events (comments, blank keep-alives, empty blocks). */
  private get ignoredUnits(): number {
    return this.sse ? this.sse.ignoredUnits : this.nd!.ignoredUnits;
  }

  /** Reads and frames waiting to be decoded. */
  get undecoded(): number {
    return this.frames.length - this.fi + this.reads.count;
  }

  /**
   * How much of what was pushed is decoded: the bytes of every read whose frames are all decoded,
   * plus READ_COST_BYTES per read (the measure of the I/O side's backlog, io/backlog.ts).
   */
  get decodedCost(): number {
    return this.fi < this.frames.length ? this.costBefore : this.framedCost;
  }

  /**
   * Frames and decodes queued reads in arrival order, about `max` frames' worth (a slice: the
   * caller yields and comes back; a read with no whole frame costs one, and one more per 4 KB).
   * Returns how many reads and frames are left.
   */
  flush(max = Infinity): number {
    let budget = max;
    const frames = this.frames;
    for (;;) {
      while (this.fi < frames.length && budget > 0 && !this.halted) {
        this.handle(frames[this.fi++]!, this.curT, this.curRead, this.curFlags, this.curLen);
        budget--;
      }
      if (this.halted) {
        this.fi = frames.length;
        this.framedCost += this.dropReads();
        break;
      }
      if (this.fi < frames.length || budget <= 0 || this.reads.count === 0) break;
      if (this.framingDone) {
        this.framedCost += this.dropReads();
        break;
      }
      budget -= 1 + (this.frameNext() >> 12);
    }
    this.commitText();
    if (this.fi === frames.length) {
      frames.length = 0; // the frames' text is let go with them
      this.fi = 0;
      // Everything before the limit is decoded: its error comes after theirs.
      if (this.limitHit && this.reads.count === 0) this.setError(this.limitHit);
    }
    return this.undecoded;
  }

  private commitText(): void {
    if (this.textParts.length > 0) {
      this.rec.text += this.textParts.join('');
      this.textParts.length = 0;
    }
    if (this.reasoningParts.length > 0) {
      this.rec.reasoning += this.reasoningParts.join('');
      this.reasoningParts.length = 0;
    }
  }

  private dropReads(): number {
    const d = this.reads.dropAll();
    return d.bytes + d.reads * READ_COST_BYTES;
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
    for (const f of frames)
      if (!this.stop && this.events.n < this.maxEvents) this.handle(f, t, readIndex, 0, 0);
    frames.length = 0;
    this.commitText();
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
      message: `The stream ended without its terminator (${this.dialect.terminator}).${extra}`,
      atMs: t,
    };
  }

  finalize(): void {
    this.flush();
    this.reads.release();
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

  private handle(
    f: SseEvent | NdjsonLine,
    t: number,
    readIndex: number,
    coalesced: number,
    readLen: number,
  ): void {
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
        if (d.toolCall) flags |= EV_TOOL;
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
    const maxText = this.limits.maxTextChars ?? DEFAULT_LIMITS.maxRecordTextChars;
    const keepText = this.keptChars < maxText;
    if (keepText) {
      // The raw data is a slice of its read's string and keeps all of it: the read is charged once.
      const first = readIndex !== this.chargedRead;
      this.chargedRead = readIndex;
      const raw = Math.max(first ? readLen : 0, f.data.length > readLen ? f.data.length : 0);
      this.keptChars += raw + (d.text?.length ?? 0) * 2 + (d.reasoning?.length ?? 0) * 2;
      if (d.text) this.textParts.push(d.text);
      if (d.reasoning) this.reasoningParts.push(d.reasoning);
    } else rec.textCapped = true;
    if (d.toolDeltas) addToolDeltas(rec, d.toolDeltas);
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
    if (d.responseId !== undefined) rec.responseId ??= d.responseId;
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
      keepText && this.eventText ? (d.text ?? '') + (d.reasoning ?? '') + (d.toolCall ?? '') : '',
      f.data.length,
    );
    rec.raw?.push(keepText ? f.data : '');
    if (flags & EV_CONTENT) this.outputTokens += tokens;
    this.checkLimits(t);
  }

  private checkLimits(t: number): void {
    if (this.halted) return;
    const max = this.limits.maxTokens;
    if (max != null && max > 0 && this.outputTokens > overMaxTokensLimit(max) && !this.rec.terminated) {
      this.stop = true;
      this.halted = true;
      this.setError({
        kind: 'protocol',
        code: 'over-max-tokens',
        message: `The server kept generating past max_tokens=${max} (${this.outputTokens} tokens so far, it ignored the limit); Tokenscope stopped the stream.`,
        atMs: t,
      });
    }
  }
}
