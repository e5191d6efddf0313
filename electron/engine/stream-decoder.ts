/**
 * Turns stamped socket reads into the request record: framing (SSE or NDJSON), the dialect's
 * decoder, and the columnar event rows. The first error found is kept in `rec.error`; later
 * data is still recorded (a malformed chunk mid-stream does not hide what came after it).
 *
 * Limits are checked while framing (record-limits.ts): every framed unit counts, events and
 * comments, keep-alives and empty blocks alike, and no event past the limit is queued; decoding runs
 * in slices (`flush(max)`), and `decodedCost` tells the I/O side how far it got (back-pressure,
 * io/backlog.ts).
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

/** Frames decoded per slice (flush): the measuring thread yields between slices. */
export const DECODE_SLICE_FRAMES = 1024;

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
  /** Per pending frame: its read's length, and the cost (bytes + READ_COST_BYTES) of every read before it. */
  private pendingReadLen: number[] = [];
  private pendingCostBefore: number[] = [];
  /** The next pending frame to decode. */
  private head = 0;
  private pushedCost = 0;
  private endInfo: { discarded: string | null; tail: string } = { discarded: null, tail: '' };
  /** An event grew past the event limit (maxEventChars): the request is to be stopped (the client checks this). */
  tooLarge = false;
  /** Stop the request now (over max_tokens, record limit): its error is set; the client checks this. */
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
   * A stamped read: framed now (cheap: bytes → event strings), decoded later by `flush()` (JSON
   * and the dialect), so that when many sockets are readable at once every read is stamped
   * before any of them is parsed (docs/ARCHITECTURE.md: per read, stamp and split only).
   */
  pushRead(chunk: Uint8Array, t: number, readIndex: number): void {
    const costBefore = this.pushedCost;
    this.pushedCost += chunk.length + READ_COST_BYTES;
    if (this.stop || this.tooLarge) return; // being stopped: nothing more is framed
    const frames = this.frames;
    frames.length = 0;
    if (this.sse) this.sse.push(chunk, frames as SseEvent[]);
    else this.nd!.push(chunk, frames as NdjsonLine[]);
    const pendingChars = this.sse ? this.sse.pendingChars : this.nd!.pendingChars;
    if (pendingChars > this.maxEventChars) {
      this.tooLarge = true;
      this.setError(eventTooLargeError(t, this.maxEventChars));
    }
    // The limit counts every framed unit; no event past it is queued.
    const queued = this.events.n + this.pendingFrames;
    const take = Math.min(frames.length, Math.max(0, this.maxEvents - queued));
    const coalesced = frames.length > 1 ? EV_COALESCED : 0;
    for (let i = 0; i < take; i++) {
      this.pending.push(frames[i]!);
      this.pendingT.push(t);
      this.pendingRead.push(readIndex);
      this.pendingFlags.push(coalesced);
      this.pendingReadLen.push(chunk.length);
      this.pendingCostBefore.push(costBefore);
    }
    const units = queued + frames.length + this.ignoredUnits;
    if (units >= this.maxEvents) {
      this.stop = true;
      this.limitHit = recordLimitError(units, queued + take, t);
    }
    frames.length = 0;
  }

  /** Framed units that are not events (comments, blank keep-alives, empty blocks). */
  private get ignoredUnits(): number {
    return this.sse ? this.sse.ignoredUnits : this.nd!.ignoredUnits;
  }

  /** Frames waiting to be decoded. */
  get pendingFrames(): number {
    return this.pending.length - this.head;
  }

  /**
   * How much of what was pushed is decoded: the bytes of every read whose frames are all decoded,
   * plus READ_COST_BYTES per read (the measure of the I/O side's backlog, io/backlog.ts).
   */
  get decodedCost(): number {
    return this.pendingFrames > 0 ? this.pendingCostBefore[this.head]! : this.pushedCost;
  }

  /**
   * Decodes framed-but-not-decoded events in arrival order, at most `max` of them (a slice: the
   * caller yields and comes back). Returns how many are left.
   */
  flush(max = Infinity): number {
    const end = Math.min(this.pending.length, this.head + max);
    while (this.head < end && !this.halted) {
      const i = this.head++;
      this.handle(
        this.pending[i]!,
        this.pendingT[i]!,
        this.pendingRead[i]!,
        this.pendingFlags[i]!,
        this.pendingReadLen[i]!,
      );
    }
    if (this.halted || this.head === this.pending.length) {
      this.pending = [];
      this.pendingT = [];
      this.pendingRead = [];
      this.pendingFlags = [];
      this.pendingReadLen = [];
      this.pendingCostBefore = [];
      this.head = 0;
      // Everything before the limit is decoded: its error comes after theirs.
      if (this.limitHit) this.setError(this.limitHit);
    }
    return this.pendingFrames;
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
      if (d.text) rec.text += d.text;
      if (d.reasoning) rec.reasoning += d.reasoning;
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
      keepText ? (d.text ?? '') + (d.reasoning ?? '') + (d.toolCall ?? '') : '',
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
