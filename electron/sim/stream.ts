/**
 * One HTTP response fed by one scheduler sequence: writes each frame with a single res.write,
 * stamps the ground truth right at the write, applies the request's mid-stream fault, and turns a
 * client disconnect into an immediate abort of the sequence (its batch slot is freed at once).
 */
import type { ServerResponse } from 'node:http';
import type { DialectId } from '../../shared/dialects.ts';
import { httpError } from './errors.ts';
import { stallMs, type FaultSpec } from './faults.ts';
import type { GroundTruthLog } from './ground-truth.ts';
import type { FaultAction, Scheduler, SeqSink, Sequence } from './scheduler.ts';
import type { GenToken } from './text.ts';
import type { FinishReason } from './types.ts';
import { truncateJson, type DialectWriter, type Frame } from './writer-types.ts';

export interface SessionDeps {
  scheduler: Scheduler;
  groundTruth: GroundTruthLog;
  /** Called once when the response is over (finished, failed or aborted). */
  onDone: (session: StreamSession) => void;
  /** performance.now() when the request had been read whole (the ground truth's first write carries it). */
  arrivalMs?: number;
}

export class StreamSession implements SeqSink {
  seq: Sequence | null = null;
  private index = 0;
  private ended = false;
  private malformedBody = false;
  private answerSeen = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly dialect: DialectId,
    private readonly writer: DialectWriter,
    readonly requestId: string,
    private readonly fault: FaultSpec | null,
    private readonly streaming: boolean,
    private readonly deps: SessionDeps,
  ) {
    res.on('close', () => {
      if (this.ended) return;
      // The client went away before the response was complete: abort like vLLM does on disconnect.
      this.ended = true;
      if (this.seq) this.deps.scheduler.abort(this.seq);
      this.deps.onDone(this);
    });
  }

  /** The request was accepted: headers (and Responses' opening events) go out now if the dialect does so. */
  begin(holdHeaders: boolean): void {
    if (!this.streaming || holdHeaders || !this.writer.headersEarly) return;
    this.sendHeaders();
    for (const f of this.writer.open()) this.write(f);
  }

  onTokens(tokens: GenToken[], finish: FinishReason | null): void {
    if (this.ended) return;
    if (!this.streaming) {
      this.writer.collect(tokens);
      if (finish) this.completeNonStream(finish);
      return;
    }
    if (this.index === 0 && !this.res.headersSent) for (const f of this.writer.open()) this.write(f);
    const frames = this.writer.tokens(tokens, finish);
    for (const f of frames) if (!(this.fault?.kind === 'no-done' && f.kind === 'done')) this.write(f);
    if (finish) this.finish();
  }

  onFault(): FaultAction {
    if (this.ended || !this.fault) return { kind: 'continue' };
    switch (this.fault.kind) {
      case 'error-midstream':
        if (this.streaming) {
          for (const f of this.writer.error()) this.write(f);
          this.finish();
        } else {
          // Without streaming the engine failure becomes a plain 500 (nothing was sent yet).
          const e = httpError(this.dialect, 500, { requestId: this.requestId });
          this.res.writeHead(e.status, { 'content-type': e.contentType, 'x-request-id': this.requestId });
          this.finish(e.body);
        }
        return { kind: 'end', reason: 'error' };
      case 'reset':
        this.reset();
        return { kind: 'end', reason: 'abort' };
      case 'malformed-json':
        if (this.streaming) this.write(this.writer.malformed());
        else this.malformedBody = true;
        return { kind: 'continue' };
      case 'stall':
        return { kind: 'pause', ms: stallMs(this.fault) };
      default:
        return { kind: 'continue' };
    }
  }

  /** Server shutdown: end the response as it is (a truncated stream, as when a server dies). */
  shutdown(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.res.headersSent) this.res.destroy();
    else this.res.end();
    this.deps.onDone(this);
  }

  private sendHeaders(status = 200): void {
    if (this.res.headersSent) return;
    this.res.writeHead(status, {
      'content-type': this.writer.contentType,
      'x-request-id': this.requestId,
      ...this.writer.extraHeaders,
    });
    this.res.flushHeaders();
  }

  private write(f: Frame): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    if (!this.res.headersSent) this.sendHeaders();
    // The ground truth is the moment the write is issued: the lower bound of when the bytes can
    // arrive (a stamp after the write could be taken late, when the reading thread runs first).
    const t = performance.now();
    this.res.write(f.data);
    // Node corks the socket for a chunked write until the next tick, so a whole decode step's
    // frames would leave together at its end. Real servers (uvicorn, aiohttp, llama.cpp) hand each
    // frame to the kernel as it is written: so does the simulator.
    this.res.socket?.uncork();
    // The first write carrying a token of the answer (not of the reasoning).
    const firstAnswer = !this.answerSeen && f.kind === 'chunk' && f.tokens > (f.reasoning ?? 0);
    if (firstAnswer) this.answerSeen = true;
    this.deps.groundTruth.record(
      this.requestId,
      this.index++,
      t,
      f.tokens,
      Buffer.byteLength(f.data),
      f.kind,
      this.index === 1 ? this.deps.arrivalMs : undefined,
      { reasoningTokens: f.reasoning ?? 0, firstAnswer },
    );
  }

  private completeNonStream(finish: FinishReason): void {
    let body = this.writer.complete(finish);
    if (this.malformedBody) body = truncateJson(body);
    if (!this.res.headersSent)
      this.res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': this.requestId });
    const t = performance.now();
    this.deps.groundTruth.record(
      this.requestId,
      this.index++,
      t,
      this.writer.count,
      Buffer.byteLength(body),
      'done',
    );
    this.finish(body);
  }

  private finish(body?: string): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.res.headersSent && body === undefined) this.sendHeaders();
    this.res.end(body);
    this.deps.onDone(this);
  }

  private reset(): void {
    if (this.ended) return;
    this.ended = true;
    const socket = this.res.socket;
    // RST instead of FIN: the client sees ECONNRESET, like a crashed server or a killed proxy.
    if (socket && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else this.res.destroy();
    this.deps.onDone(this);
  }
}
